import FetchPredictor
import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// The service's pass that keeps each device's days of freshness (``FreshnessLedger``): every
/// second, never more often, it scores the changed days of at most `perTick` devices whose
/// launches or fetches arrived (each at most once a `settle`), so that `GET /v1/freshness` of a
/// tenant reads sums of days. After each tick, gauges a dashboard charts per tenant over the last
/// 7 days (a tenant and a strategy a series, never a device or an app):
/// `fetchpredict_freshness_cold_launches`, `fetchpredict_freshness_fresh_cold_launches`,
/// `fetchpredict_freshness_fetches`, `fetchpredict_freshness_fresh_rate`; and
/// `fetchpredict_freshness_devices_kept_total`, the devices it kept.
struct FreshnessPass: Service {
    let store: any EventStoring
    let clock: @Sendable () -> Date
    /// The most devices kept a tick.
    let perTick: Int
    /// How long a device's days wait after they were taken before they are taken again.
    let settle: Duration
    /// The most of its time the pass works: after a tick's work, it rests for
    /// ``rest(after:interval:share:)``.
    let share: Double
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var failing = 0
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    let settle = Milliseconds(settle.components.seconds * 1000)
                    let work = try await store.takeFreshnessWork(
                        limit: perTick, now: clock().milliseconds, settle: settle)
                    let kept = try await FreshnessLedger.keep(work, in: store)
                    Counter(label: "fetchpredict_freshness_devices_kept_total").increment(by: kept)
                    let tenants = Set(work.map { DeviceIdentity(stored: $0.device).tenant })
                    for tenant in tenants.sorted() { try await recordGauges(tenant: tenant) }
                    if failing > 0 {
                        logger.notice("the freshness pass runs again", metadata: ["failedTicks": "\(failing)"])
                        failing = 0
                    }
                } catch {
                    if failing == 0 { logger.warning("the freshness pass failed: \(error)") }
                    failing += 1
                    Counter(label: "fetchpredict_freshness_failures_total").increment()
                }
                try? await Task.sleep(
                    for: Self.rest(after: ContinuousClock.now - started, interval: interval, share: share))
            }
        }
    }

    /// How long the pass rests after a tick that worked `busy`: the tick's interval, or longer
    /// when the work was more than `share` of the time, so that it is that share at most.
    static func rest(after busy: Duration, interval: Duration, share: Double) -> Duration {
        max(interval, busy * ((1 - share) / share))
    }

    /// The tenant's figures of the last 7 days (by UTC date; each device's own local days).
    func recordGauges(tenant: String) async throws {
        let today = Int(clock().milliseconds.floorDivided(by: 86_400_000))
        let kept = try await store.keptFreshness(tenant: tenant, days: (today - 6)..<(today + 1), app: "")
        for figures in kept.figures[""] ?? [] {
            let dimensions = [("tenant", tenant), ("strategy", figures.strategy)]
            Gauge(label: "fetchpredict_freshness_cold_launches", dimensions: dimensions).record(figures.coldLaunches)
            Gauge(label: "fetchpredict_freshness_fresh_cold_launches", dimensions: dimensions).record(
                figures.freshColdLaunches)
            Gauge(label: "fetchpredict_freshness_fetches", dimensions: dimensions).record(figures.fetches)
            Gauge(label: "fetchpredict_freshness_fresh_rate", dimensions: dimensions).record(figures.freshRate)
        }
    }
}

extension Int64 {
    /// The quotient rounded toward minus infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
