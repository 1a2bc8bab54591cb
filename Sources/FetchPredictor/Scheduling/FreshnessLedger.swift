import Foundation

/// The pass that keeps each device's days of freshness as its events arrive
/// (``FreshnessKeeping``): it takes the devices whose launches or fetches changed, scores the
/// days those change with `Freshness/byDay(_:days:settings:)`, and keeps them with their
/// tenant's sums. The service runs it in the background; a tenant's figures then read sums of
/// days, never every event.
public enum FreshnessLedger {
    /// Keeps the changed days of up to `limit` devices, the longest waiting first.
    ///
    /// A device with no zone has no local days: it is passed over, and its whole history is
    /// kept when it gets one. When a device fails, it and the ones not yet kept are marked again.
    /// - Returns: how many devices had days kept.
    @discardableResult
    public static func keep(_ store: some FreshnessKeeping & EventKeeping & DeviceSettingsKeeping, limit: Int)
        async throws -> Int
    {
        let now = Date().milliseconds
        return try await keep(try await store.takeFreshnessWork(limit: limit, now: now), in: store)
    }

    /// How long a pass holds the devices it took: past it, another pass takes them again.
    public static let lease: Milliseconds = 10 * 60_000

    /// Keeps the changed days of devices taken with ``FreshnessKeeping/takeFreshnessWork(limit:now:settle:)``.
    /// - Returns: how many devices had days kept.
    @discardableResult
    public static func keep(
        _ work: [FreshnessWork], in store: some FreshnessKeeping & EventKeeping & DeviceSettingsKeeping
    ) async throws -> Int {
        var kept = 0, done = 0
        do {
            // A few thousand rows a transaction: few commits, and no long hold of a store's
            // writer (SQLite's one) that event batches wait behind.
            var scored: [KeptDays] = [], rows = 0
            for item in work {
                scored.append(try await days(item, in: store))
                rows += scored[scored.count - 1].rows.count
                if rows >= rowsPerTransaction {
                    kept += try await store.keepFreshness(scored)
                    done += scored.count
                    (scored, rows) = ([], 0)
                }
            }
            kept += try await store.keepFreshness(scored)
            return kept
        } catch {
            for item in work[done...] { try? await store.markFreshness(item) }
            throw error
        }
    }

    /// About how many rows a pass writes in one transaction.
    static let rowsPerTransaction = 2_000

    /// The days an event changes: from a day before it (a refresh within a day wastes the fetch
    /// before it) to the window after it (a launch then is cold or fresh by it).
    static func days(
        _ work: FreshnessWork, in store: some FreshnessKeeping & EventKeeping & DeviceSettingsKeeping
    ) async throws -> KeptDays {
        let none = KeptDays(device: work.device, version: work.version, days: nil, rows: [])
        guard let zone = try await store.timeZone(device: work.device) else { return none }
        let settings = BacktestSettings()
        let window = Milliseconds(settings.window * 1000)
        let days: ClosedRange<Int>
        let device: BacktestDevice
        if work.changed.lowerBound == .min || work.changed.upperBound == .max {
            // The whole history: its days are those of its first and last launch or fetch.
            guard let read = try await store.backtestDevices([work.device]).first else { return none }
            let times = (read.launches + read.fetches).map(\.time)
            guard let first = times.min(), let last = times.max() else { return none }
            (days, device) = (Freshness.day(of: first, in: zone)...Freshness.day(of: last, in: zone), read)
        } else {
            days =
                Freshness.day(
                    of: work.changed.lowerBound - Freshness.lookAhead, in: zone)...Freshness.day(
                    of: work.changed.upperBound + window, in: zone)
            let from = Freshness.readFrom(Freshness.midnight(days.lowerBound, zone), settings)
            let to = Freshness.readTo(Freshness.midnight(days.upperBound + 1, zone))
            guard let read = try await store.backtestDevices([work.device], from: from, to: to).first else {
                return none
            }
            device = read
        }
        var rows: [FreshnessRow] = []
        for (day, report) in Freshness.byDay(device, days: days, settings: settings) where !report.apps.isEmpty {
            for figures in [report.observed] + report.baselines {
                rows.append(FreshnessRow(day: day, app: "", figures: figures))
            }
            for app in report.apps {
                for figures in [app.observed] + app.baselines {
                    rows.append(FreshnessRow(day: day, app: app.app, figures: figures))
                }
            }
        }
        return KeptDays(device: work.device, version: work.version, days: days, rows: rows)
    }
}
