import FetchPredictor
import Foundation
import Synchronization

/// What the report shows of a device, read from the store as of a time.
struct ReportData {
    /// One app: its settings and counts, what was learned, and the events it was learned from.
    struct App {
        var summary: AppSummary
        /// Weekdays and weekends apart, or one profile of every day when they do not differ.
        var profiles: [DailyProfile]
        /// Cold launches in each half hour of the day, local time, over the whole history.
        var coldLaunches: [Int]
        /// Fetch results in each hour of the day: newData, noData and failed counts.
        var fetchesByHour: [[Int]]
        var coldStart: Bool
        var stateText: String

        /// Cold launches over the whole history.
        var coldLaunchCount: Int { coldLaunches.reduce(0, +) }
    }

    var device: String
    var zone: TimeZone
    var defaultInterval: FetchInterval
    var now: Date
    /// Days from the device's first event to now.
    var days: Int
    var apps: [App]
    var schedule: Schedule
    /// What the device's state events say as of now.
    var state: DeviceStateSummary
    /// Why the schedule is empty, when the settings or the log's age explain it.
    var emptyHint: String?
    /// Each local day's freshness of the fetches stored, from the first event to now.
    var freshness: [(day: Int, report: FreshnessReport)] = []
    var evaluation: BacktestReport?
    /// The settings the evaluation ran with.
    var backtestSettings = BacktestSettings()

    /// Reads a device as of `now`.
    ///
    /// - Parameters:
    ///   - configuration: the planning settings (the budget of the plan shown).
    ///   - forecaster: what forecasts the cold launches, of the plan shown and of the backtest.
    ///   - evaluate: also backtest the device, for the frontier and the reliability charts.
    init(
        store: any SchedulingStore, device: String, zone: TimeZone, now: Date, configuration: PredictorConfiguration,
        forecaster: any LaunchForecaster = HazardForecaster(), evaluate: Bool,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws {
        self.device = device
        self.zone = zone
        self.now = now
        defaultInterval = try await store.defaultInterval(device: device)
        let scheduler = FetchScheduler(command: store, configuration: configuration, forecaster: forecaster)
        schedule = try await scheduler.schedule(from: now, to: now.addingTimeInterval(86_400), device: device)
        state = try await scheduler.stateSummary(device: device, now: now)
        emptyHint =
            schedule.wakes.isEmpty
            ? try await WakeText.emptyHint(scheduler, device: device, asOf: now, zone: zone) : nil
        let learned = Set(try await scheduler.apps(device: device, asOf: now))
        // The events up to now, read once in time order and counted as they come.
        // The store calls back on a thread of its own, one event after another.
        let counted = Mutex(
            (counts: Counts(zone: zone, coldGap: ColdLaunch.gap(configuration)), first: Milliseconds?.none))
        try await store.forEachStoredEvent(device: device, from: nil, to: now.knownThrough + 1) { event in
            counted.withLock {
                if $0.first == nil { $0.first = event.time }
                $0.counts.add(event)
            }
        }
        let (counts, first) = counted.withLock { $0 }
        days = max(1, Int(((now.milliseconds - (first ?? now.milliseconds)) / 86_400_000)) + 1)
        var apps: [App] = []
        for summary in try await store.apps(device: device, asOf: now) {
            var profiles: [DailyProfile] = []
            var coldStart = true
            var stateText = "no launch yet"
            if learned.contains(summary.app) {
                let weekday = try await scheduler.profile(
                    app: summary.app, device: device, days: .weekday, asOf: now)
                profiles =
                    weekday.days == .all
                    ? [weekday]
                    : [
                        weekday,
                        try await scheduler.profile(app: summary.app, device: device, days: .weekend, asOf: now),
                    ]
                coldStart = try await scheduler.isColdStart(app: summary.app, device: device, asOf: now)
                stateText = try await scheduler.state(app: summary.app, device: device, now: now)
                    .description(now: now, zone: zone)
            }
            apps.append(
                App(
                    summary: summary, profiles: profiles,
                    coldLaunches: counts.cold[summary.app] ?? Array(repeating: 0, count: 48),
                    fetchesByHour: counts.fetches[summary.app] ?? Array(repeating: [0, 0, 0], count: 24),
                    coldStart: coldStart, stateText: stateText))
        }
        self.apps = apps
        // The device's events before now, read once: for the freshness of its days and for the
        // backtest, which plans fetches of its own and leaves the stored ones alone.
        let stored = try await store.backtestDevices([device], to: now.knownThrough + 1)
        if let known = stored.first, let earliest = (known.launches + known.fetches).map(\.time).min() {
            let days = Freshness.day(of: earliest, in: zone)...Freshness.day(of: now.milliseconds - 1, in: zone)
            freshness = Freshness.byDay(known, days: days)
        }
        if evaluate {
            backtestSettings.reportedBudget = configuration.budget
            backtestSettings.forecaster = forecaster
            evaluation = Backtest.run(stored, settings: backtestSettings, progress: progress)
        }
    }

    /// Cold launches by half hour and fetch results by hour, of each app, from events added
    /// in time order.
    struct Counts {
        let zone: TimeZone
        /// The least time since the app's last launch that makes a launch cold.
        let coldGap: Milliseconds
        var cold: [String: [Int]] = [:]
        var fetches: [String: [[Int]]] = [:]
        private var last: [String: Milliseconds] = [:]

        init(zone: TimeZone, coldGap: Milliseconds) {
            self.zone = zone
            self.coldGap = coldGap
        }

        mutating func add(_ event: Event) {
            let minute = DeviceModel.local(event.time, utcOffset: event.utcOffset, zone: zone).minute
            switch event.kind {
            case .launch:
                if ColdLaunch.isCold(at: event.time, previous: last[event.app], gap: coldGap) {
                    cold[event.app, default: Array(repeating: 0, count: 48)][minute / 30] += 1
                }
                last[event.app] = event.time
            case .fetch:
                let column =
                    switch event.result ?? .failed {
                    case .newData: 0
                    case .noData: 1
                    case .failed: 2
                    }
                fetches[event.app, default: Array(repeating: [0, 0, 0], count: 24)][minute / 60][column] += 1
            default:
                break
            }
        }
    }
}
