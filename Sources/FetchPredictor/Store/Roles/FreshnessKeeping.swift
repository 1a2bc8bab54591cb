import Foundation

/// A device whose launches or fetches changed since its days' freshness was kept: what the
/// keeping pass (``FreshnessLedger``) scores again.
public struct FreshnessWork: Sendable, Hashable {
    /// The device, as the store names it.
    public var device: String
    /// The device's version when it was taken: days kept from an older one are not kept over
    /// days kept from a newer.
    public var version: Int64
    /// The earliest and latest new launch or fetch; `Milliseconds.min...Milliseconds.max` for
    /// the device's whole history (its zone changed, which moves every local day).
    public var changed: ClosedRange<Milliseconds>

    /// Creates a value with every field given.
    public init(device: String, version: Int64, changed: ClosedRange<Milliseconds>) {
        self.device = device
        self.version = version
        self.changed = changed
    }
}

/// One strategy's figures of one app (`""` for all of a device's apps together) on one local
/// day of a device, as a store keeps them.
public struct FreshnessRow: Sendable, Hashable {
    /// The device's local day, in days since 1970-01-01.
    public var day: Int
    /// The app; `""` for the device's apps together.
    public var app: String
    /// The figures; their median age is not kept (medians do not add up).
    public var figures: FreshnessFigures

    /// Creates a value with every field given.
    public init(day: Int, app: String, figures: FreshnessFigures) {
        self.day = day
        self.app = app
        self.figures = figures
    }
}

/// A device's days of freshness, scored from one version of it, to keep.
public struct KeptDays: Sendable, Hashable {
    /// The device, as the store names it.
    public var device: String
    /// The version they were scored from (``FreshnessWork/version``).
    public var version: Int64
    /// The days replaced; `nil` for none (a device with no zone has no local days): its lease
    /// ends and nothing else changes.
    public var days: ClosedRange<Int>?
    /// The days' figures, each day's apps together (`""`) and each app.
    public var rows: [FreshnessRow]

    /// Creates a value with every field given.
    public init(device: String, version: Int64, days: ClosedRange<Int>?, rows: [FreshnessRow]) {
        self.device = device
        self.version = version
        self.days = days
        self.rows = rows
    }
}

extension FreshnessKeeping {
    /// Takes up to `limit` marked devices, however lately they were taken.
    public func takeFreshnessWork(limit: Int, now: Milliseconds) async throws -> [FreshnessWork] {
        try await takeFreshnessWork(limit: limit, now: now, settle: 0)
    }

    /// Keeps one device's days (``keepFreshness(_:)``).
    /// - Returns: whether they were kept.
    public func keepFreshness(device: String, version: Int64, days: ClosedRange<Int>?, rows: [FreshnessRow])
        async throws -> Bool
    {
        try await keepFreshness([KeptDays(device: device, version: version, days: days, rows: rows)]) == 1
    }
}

/// The sums of a tenant's kept days.
public struct KeptFreshness: Sendable, Hashable {
    /// By app (`""` for every app together), the figures of what happened and of each baseline,
    /// summed over the tenant's devices and the days; `days` counts device-days.
    public var figures: [String: [FreshnessFigures]]
    /// The tenant's devices with launches or fetches not yet kept (marked, or taken by a pass).
    public var pendingDevices: Int

    /// Creates a value with every field given.
    public init(figures: [String: [FreshnessFigures]], pendingDevices: Int) {
        self.figures = figures
        self.pendingDevices = pendingDevices
    }
}

/// The freshness of each device's local days, kept as events arrive, and of each tenant's days
/// summed, so that a tenant's figures over days are read, not scored again from every event.
///
/// Every write of launches or fetches marks the device (`StoreRules.afterStoring(_:in:)`);
/// ``FreshnessLedger/keep(_:limit:)`` takes marked devices, scores their changed days with
/// `Freshness/byDay(_:days:settings:)` (the backtest's scoring) and keeps them here, each
/// device's days and its tenant's sums in one transaction. Erasing a device takes its days out of
/// its tenant's sums.
public protocol FreshnessKeeping: AnyObject, Sendable {
    /// Takes up to `limit` marked devices, the longest marked first, of those not taken in the
    /// `settle` milliseconds before `now` (a busy device's days are kept once a while, not at
    /// every batch): their marks are cleared and they are leased to the caller until `now` plus
    /// ``FreshnessLedger/lease``, counted as pending until kept. A device another process took is
    /// not given; one whose lease ran out (its process died) is given again, its whole history to
    /// keep.
    func takeFreshnessWork(limit: Int, now: Milliseconds, settle: Milliseconds) async throws -> [FreshnessWork]

    /// Marks a device's instants again and ends its lease (a pass that took it failed).
    func markFreshness(_ work: FreshnessWork) async throws

    /// Replaces each device's kept days with those given, and its tenant's sums with them, unless
    /// days were kept from a newer version of the device meanwhile; ends each one's lease. All in
    /// one transaction: a pass writes once a tick, not once a device.
    /// - Returns: how many devices' days were kept.
    func keepFreshness(_ kept: [KeptDays]) async throws -> Int

    /// The sums of a tenant's kept days (`""` for the devices of no tenant) in `days`, of one app
    /// or of each, and how many of its devices are marked or leased.
    func keptFreshness(tenant: String, days: Range<Int>, app: String?) async throws -> KeptFreshness
}

extension FreshnessFigures {
    /// The figures' counts in the order the stores keep them in.
    package var keptCounts: [Int] {
        [
            coldLaunches, freshColdLaunches, fetches, appDays, days, deviceWakes, wastedNoData, wastedFailed,
            wastedSuperseded,
        ]
    }

    /// Figures from counts in ``keptCounts``' order.
    package init(strategy: String, keptCounts counts: [Int]) {
        self.init(
            strategy: strategy, coldLaunches: counts[0], freshColdLaunches: counts[1], fetches: counts[2],
            appDays: counts[3], days: counts[4], deviceWakes: counts[5], wastedNoData: counts[6],
            wastedFailed: counts[7], wastedSuperseded: counts[8])
    }

    /// The columns of the counts, in that order, as both stores name them (SQLite's; PostgreSQL's
    /// in snake case).
    package static let keptColumns = [
        "coldLaunches", "freshColdLaunches", "fetches", "appDays", "days", "deviceWakes", "wastedNoData",
        "wastedFailed", "wastedSuperseded",
    ]
}
