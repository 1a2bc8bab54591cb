import FetchPredictor
import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// The service's sweep of kept wakes: every tick, plans again a bounded number of devices whose
/// kept wake holds no more (its time passed, or a write moved it), so that the feed
/// (`GET /v1/wakes`) finds each plan kept rather than planning devices while a client waits.
/// The feed stays right without it, only slower. Gauges say how far behind it is:
/// `fetchpredict_plans_behind` (devices) and `fetchpredict_plans_behind_seconds` (how long the
/// oldest plan that passed has waited).
struct WakeSweep: Service {
    let scheduler: FetchScheduler
    let clock: @Sendable () -> Date
    /// The most devices planned a tick.
    let perTick: Int
    let interval: Duration
    let logger: Logger
    /// How many tasks plan at once.
    let lanes = max(1, ProcessInfo.processInfo.activeProcessorCount)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var after: String?
            // Failed ticks since the last that ended: logged once when it begins, once when it ends.
            var failing = 0
            while !Task.isCancelled {
                let now = clock()
                do {
                    let (scheduler, perTick, lanes) = (self.scheduler, self.perTick, self.lanes)
                    let planned = try await scheduler.store.devicesToPlan(
                        scope: nil, at: now.milliseconds, after: after, limit: perTick)
                    // In as many tasks as there are cores, a share of the devices each.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for lane in 0..<lanes {
                            let share = Array(stride(from: lane, to: planned.count, by: lanes).map { planned[$0] })
                            guard !share.isEmpty else { continue }
                            group.addTask {
                                // A few devices a call: a service told to stop waits for a few, not
                                // for a whole tick's.
                                for start in stride(from: 0, to: share.count, by: 32) where !Task.isCancelled {
                                    let part = Array(share[start..<min(start + 32, share.count)])
                                    try await scheduler.planKeptWakes(of: part, asOf: now)
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    // Round again from the first device once the last was reached.
                    after = planned.count < perTick ? nil : planned.last
                    let behind = try await scheduler.store.plansBehind(at: now.milliseconds)
                    Gauge(label: "fetchpredict_plans_behind").record(behind.count)
                    let seconds = behind.since.map { max(0, now.milliseconds - $0) / 1000 } ?? 0
                    Gauge(label: "fetchpredict_plans_behind_seconds").record(Int(seconds))
                    if failing > 0 {
                        logger.notice("the sweep of kept wakes runs again", metadata: ["failedTicks": "\(failing)"])
                        failing = 0
                    }
                } catch {
                    // Once an outage, not once a tick: the store's own outage is logged beside it.
                    if failing == 0 { logger.warning("the sweep of kept wakes failed: \(error)") }
                    failing += 1
                    Counter(label: "fetchpredict_sweep_failures_total").increment()
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
