import FetchPredictor
import Foundation
import Metrics

/// The bound on what one tenant's requests may cost the others: at most ``limit`` of its
/// devices' models are learned at once from many events (``ServiceSettings/largeLearn``).
///
/// Learning a device's model from the store (a cold device, one asked as of an earlier time, one
/// whose cached model was dropped) is the one costly step of a query: a second for a million
/// events. A tenant's further learns wait in line, in the order they came, holding no thread,
/// until one of its own ends (``ServiceSettings/learnWait`` at most: then 429), and so never take
/// the threads and cores that other tenants' requests are answered on. A stored device name is
/// `TENANT/NAME`: the tenant is the part before the first slash.
final class TenantLearning: LearningAdmission, @unchecked Sendable {
    /// The most learns one tenant runs at once.
    let limit: Int
    private let lock = NSLock()
    /// Each tenant's turns: a lock of ``limit`` places, its waiters in line. Kept once made, so
    /// that two requests never hold the turns of one tenant in two locks.
    private var turns: [String: AsyncLock] = [:]
    /// When each learn running now began, for its duration in the metrics.
    private var started: [String: ContinuousClock.Instant] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    private func turns(of device: String) -> AsyncLock {
        let tenant = DeviceIdentity(stored: device).tenant
        return lock.withLock {
            if let turns = turns[tenant] { return turns }
            let made = AsyncLock(holders: limit)
            turns[tenant] = made
            return made
        }
    }

    func beginLearning(device: String) -> Bool {
        guard turns(of: device).tryLock() else { return false }
        lock.withLock { started[device] = .now }
        return true
    }

    func beginLearning(device: String, waitingUntil deadline: ContinuousClock.Instant) async -> Bool {
        guard await turns(of: device).lock(until: deadline) else { return false }
        lock.withLock { started[device] = .now }
        return true
    }

    func endLearning(device: String) {
        let began = lock.withLock { started.removeValue(forKey: device) }
        turns(of: device).unlock()
        if let began {
            Metrics.Timer(label: "fetchpredict_learn_duration_seconds")
                .recordNanoseconds((ContinuousClock.now - began).nanoseconds)
        }
    }

    func queryWaits(device: String, for reason: SchedulerBusy.Reason) {
        let label = reason == .learningRefused ? "tenant_limit" : "device_being_learned"
        Counter(label: "fetchpredict_learn_waits_total", dimensions: [("reason", label)]).increment()
    }

    /// How many learns run now, of every tenant.
    var runningCount: Int {
        let all = lock.withLock { Array(turns.values) }
        return all.reduce(0) { $0 + $1.holding }
    }
}

extension APIError {
    /// The answer to a query that waited as long as it may for learning: 429 when its tenant's
    /// learns are at their limit, 503 while its device is being learned by another request.
    static func busy(_ busy: SchedulerBusy) -> APIError {
        let seconds = busy.waited.components.seconds
        var answer: APIError
        switch busy.reason {
        case .learningRefused:
            answer = APIError(
                .tooManyRequests,
                "this tenant's devices are being learned at its limit of concurrent learns, and this one waited \(seconds) s: try again shortly"
            )
        case .deviceBeingLearned:
            answer = APIError(
                .serviceUnavailable,
                "the device's model is being learned by another request, still after \(seconds) s: try again shortly")
        }
        answer.headers[.retryAfter] = "1"
        return answer
    }
}
