import FetchPredictor
import Foundation
import Logging
import Metrics

/// Whether the store answers, as the requests find it: an outage is logged once when the first
/// request finds the store down and once when one finds it back (not a line a request), shown in
/// `fetchpredict_store_unavailable` (1 while down) and counted in
/// `fetchpredict_store_outages_total`.
final class StoreHealth: @unchecked Sendable {
    private let logger: Logger
    private let lock = NSLock()
    /// When the outage began, and the requests answered 503 since; `nil` while the store answers.
    private var outage: (began: ContinuousClock.Instant, refused: Int)?

    init(logger: Logger) {
        self.logger = logger
        Gauge(label: "fetchpredict_store_unavailable").record(0)
    }

    /// A request found the store down.
    func failed() {
        let began = lock.withLock { () -> Bool in
            if outage == nil {
                outage = (ContinuousClock.now, 1)
                return true
            }
            outage!.refused += 1
            return false
        }
        guard began else { return }
        Gauge(label: "fetchpredict_store_unavailable").record(1)
        Counter(label: "fetchpredict_store_outages_total").increment()
        logger.error("the store does not answer: requests are answered 503 until it does")
    }

    /// A request was answered by the store.
    func answered() {
        let ended = lock.withLock { () -> (ContinuousClock.Instant, Int)? in
            guard let current = outage else { return nil }
            outage = nil
            return (current.began, current.refused)
        }
        guard let (began, refused) = ended else { return }
        Gauge(label: "fetchpredict_store_unavailable").record(0)
        let seconds = Double((ContinuousClock.now - began).nanoseconds / 10_000_000) / 100
        logger.notice(
            "the store answers again", metadata: ["down_seconds": "\(seconds)", "answered_503": "\(refused)"])
    }

    /// Whether an error is the store's being down.
    static func isOutage(_ error: any Error) -> Bool {
        if case StoreError.unavailable = error { return true }
        return false
    }
}
