import FetchPredictor
import Foundation
import Metrics

/// The bound on what one tenant's requests may cost the others: at most ``limit`` of its
/// devices' models are learned at once from many events (``ServiceSettings/largeLearn``).
///
/// Learning a device's model from the store (a cold device, one asked as of an earlier time, one
/// whose cached model was dropped) is the one costly step of a query: a second for a million
/// events. A tenant's further learns wait, holding no thread, until one of its own ends, and so
/// never take the threads and cores that other tenants' requests are answered on. A stored device name
/// is `TENANT/NAME`: the tenant is the part before the first slash.
final class TenantLearning: LearningAdmission, @unchecked Sendable {
    /// The most learns one tenant runs at once.
    let limit: Int
    private let lock = NSLock()
    private var running: [String: Int] = [:]
    /// When each learn running now began, for its duration in the metrics.
    private var started: [String: ContinuousClock.Instant] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func beginLearning(device: String) -> Bool {
        let tenant = DeviceIdentity(stored: device).tenant
        return lock.withLock {
            guard running[tenant, default: 0] < limit else { return false }
            running[tenant, default: 0] += 1
            started[device] = .now
            return true
        }
    }

    func endLearning(device: String) {
        let tenant = DeviceIdentity(stored: device).tenant
        let began = lock.withLock {
            let count = running[tenant, default: 1] - 1
            running[tenant] = count > 0 ? count : nil
            return started.removeValue(forKey: device)
        }
        if let began {
            Metrics.Timer(label: "fetchpredict_learn_duration_seconds")
                .recordNanoseconds((ContinuousClock.now - began).nanoseconds)
        }
    }

    /// How many learns run now, of every tenant.
    var runningCount: Int { lock.withLock { running.values.reduce(0, +) } }

}

extension TenantLearning {
    /// Runs a query of the scheduler; while the scheduler says it must wait for learning
    /// (``SchedulerBusy``), waits, holding no thread, and asks again, until `wait` has passed:
    /// then 429 when the tenant's own learns are at their limit, 503 when the device is still
    /// being learned, both with `Retry-After`.
    static func query<T: Sendable>(
        waitingAtMost wait: Duration, _ body: () async throws -> T
    ) async throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        var pause = Duration.milliseconds(2)
        var waited = false
        while true {
            do {
                return try await body()
            } catch let busy as SchedulerBusy {
                if !waited {
                    waited = true
                    let reason = busy.reason == .learningRefused ? "tenant_limit" : "device_being_learned"
                    Counter(label: "fetchpredict_learn_waits_total", dimensions: [("reason", reason)]).increment()
                }
                let now = clock.now
                guard now < deadline else { throw APIError.busy(busy, waited: wait) }
                try await Task.sleep(for: min(pause, deadline - now))
                pause = min(pause * 2, .milliseconds(10))
            }
        }
    }
}

extension APIError {
    /// The answer to a query that waited as long as it may for learning: 429 when its tenant's
    /// learns are at their limit, 503 while its device is being learned by another request.
    static func busy(_ busy: SchedulerBusy, waited: Duration) -> APIError {
        let seconds = waited.components.seconds
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
