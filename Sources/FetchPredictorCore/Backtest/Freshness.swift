import Foundation

/// Freshness measured on what happened: the backtest protocol's figures (cold launches, the fresh
/// ones, fetches per app-day, device wakes, waste, the content's age) of the fetches a store
/// holds, beside the periodic baselines and the oracle over the same cold launches.
///
/// It scores with ``Backtest``'s own code: the fetches that happened are one more strategy
/// (``Backtest/Strategy/observed``) of the same replayed device. Under the protocol's scope
/// (``FreshnessScope/protocol``) the figures of a log whose wakes `evaluate --wakes-out` wrote,
/// stored as fetch results, are `evaluate`'s to the count.
public enum Freshness {
    /// The figures of each device over a period, and of all of them together.
    ///
    /// - Parameters:
    ///   - devices: the devices, each with its launches, device events and fetches. Under
    ///     ``FreshnessScope/all`` they need hold only the period and the window before it.
    ///   - from: the period's first instant; `nil` for the start of the local day of each device's
    ///     first launch or fetch.
    ///   - to: the instant the period ends before; `nil` for the end of the local day of each
    ///     device's last launch or fetch.
    ///   - scope: what is scored: what happened, or the protocol's apps and days.
    ///   - apps: the apps scored, of those the scope takes; `nil` for all of them.
    ///   - settings: the window, the lead, the baselines' periods, the protocol's scope and warm-up.
    ///     Under ``FreshnessScope/all``, a fetch is wasted by a refresh within ``lookAhead`` after
    ///     it (``BacktestSettings/supersededWithin``, unless set).
    public static func measure(
        _ devices: [BacktestDevice], from: Milliseconds? = nil, to: Milliseconds? = nil, scope: FreshnessScope = .all,
        apps: Set<String>? = nil, settings: BacktestSettings = BacktestSettings()
    ) -> FreshnessReport {
        var settings = settings
        if scope == .all, settings.supersededWithin == nil { settings.supersededWithin = Double(lookAhead / 1000) }
        var report = FreshnessReport(
            from: from.map(Date.init(milliseconds:)), to: to.map(Date.init(milliseconds:)), scope: scope)
        var total = Tally(), byApp: [String: Tally] = [:]
        for device in devices {
            let period = period(of: device, from: from, to: to)
            var tally = Tally(), appTallies: [String: Tally] = [:]
            for prepared in parts(of: device, period, scope: scope, isBounded: from != nil || to != nil, settings) {
                let prepared = apps.map { prepared.restricted(to: $0) } ?? prepared
                let outcomes = strategies.map { prepared.run($0, settings) }
                tally.add(outcomes)
                // Each app's figures, from the same runs.
                for outcome in outcomes {
                    for (app, own) in outcome.apps {
                        appTallies[app, default: Tally()].add(own.figures, ages: own.ages)
                    }
                }
            }
            total.add(tally)
            for (app, appTally) in appTallies { byApp[app, default: Tally()].add(appTally) }
            let (observed, baselines) = tally.summary()
            report.devices.append(
                DeviceFreshness(
                    device: device.name, timeZone: device.timeZone.identifier,
                    from: Date(milliseconds: period.lowerBound), to: Date(milliseconds: period.upperBound),
                    observed: observed, baselines: baselines, apps: AppFreshness.list(appTallies)))
        }
        (report.observed, report.baselines) = total.summary()
        report.apps = AppFreshness.list(byApp)
        return report
    }

    /// What is scored of a device: under the protocol's scope, the whole device at once; under
    /// ``FreshnessScope/all``, each local day of the period alone (the apps of a day are those
    /// launched or fetched on it), reading the window before it and ``lookAhead`` after it, so
    /// that a period's figures are the sum of its days'.
    static func parts(
        of device: BacktestDevice, _ period: Range<Milliseconds>, scope: FreshnessScope, isBounded: Bool,
        _ settings: BacktestSettings
    ) -> [PreparedDevice] {
        guard scope == .all else {
            let prepared = PreparedDevice(device, settings)
            return [isBounded ? prepared.scored(within: period) : prepared]
        }
        guard !period.isEmpty else { return [PreparedDevice(device, settings, period: period)] }
        let zone = device.timeZone
        let launches = device.launches.sorted { $0.time < $1.time }
        let fetches = device.fetches.sorted { $0.time < $1.time }
        func slice(_ events: [Event], _ range: Range<Milliseconds>) -> [Event] {
            let start = events.partitioningIndex { $0.time >= range.lowerBound }
            return Array(events[start..<max(start, events.partitioningIndex { $0.time >= range.upperBound })])
        }
        return (day(of: period.lowerBound, in: zone)...day(of: period.upperBound - 1, in: zone)).map { day in
            let part = max(period.lowerBound, midnight(day, zone))..<min(period.upperBound, midnight(day + 1, zone))
            let read = readFrom(part.lowerBound, settings)..<readTo(part.upperBound)
            var alone = device
            alone.launches = slice(launches, read)
            alone.fetches = slice(fetches, read)
            alone.deviceEvents = []
            return PreparedDevice(alone, settings, period: part)
        }
    }

    /// A device's figures on each of some of its local days: what a store keeps, so that a
    /// tenant's figures over days are sums of them. `device` holds the events from the window
    /// before the first day to ``lookAhead`` past the last.
    public static func byDay(
        _ device: BacktestDevice, days: ClosedRange<Int>, settings: BacktestSettings = BacktestSettings()
    ) -> [(day: Int, report: FreshnessReport)] {
        days.map { day in
            let report = measure(
                [device], from: midnight(day, device.timeZone), to: midnight(day + 1, device.timeZone),
                settings: settings)
            return (day, report)
        }
    }

    /// The local day of an instant in a zone, in days since 1970-01-01.
    public static func day(of time: Milliseconds, in zone: TimeZone) -> Int {
        DeviceModel.local(time, utcOffset: nil, zone: zone).day
    }

    /// The first instant of a local day (days since 1970-01-01) in a zone.
    public static func midnight(_ day: Int, _ zone: TimeZone) -> Milliseconds {
        DateFields.midnight(ofDay: day, in: zone).0
    }

    /// How far past a period what happened is read: what follows a fetch within it decides
    /// whether a refresh wasted it. A day.
    public static let lookAhead: Milliseconds = 86_400_000

    /// The first instant a period from `start` reads: the window before it, which decides whether
    /// a launch in the period is cold, and fresh.
    public static func readFrom(_ start: Milliseconds, _ settings: BacktestSettings = BacktestSettings())
        -> Milliseconds
    {
        start - .seconds(settings.window)
    }

    /// The instant a period to `end` reads up to: ``lookAhead`` past it.
    public static func readTo(_ end: Milliseconds) -> Milliseconds { end + lookAhead }

    /// The strategies scored: what happened first, then the baselines.
    static let strategies: [Backtest.Strategy] =
        [.observed] + BacktestSettings().periods.filter { $0 <= 120 }.map(Backtest.Strategy.periodic) + [.oracle]

    /// The names of the strategies scored, in that order (``FreshnessFigures/strategy``).
    public static let strategyNames = strategies.map(\.name)

    /// A device's period: the bounds given, else the local days of its first and last launch or
    /// fetch (an empty period at `from`, or at 0, for a device with none).
    static func period(of device: BacktestDevice, from: Milliseconds?, to: Milliseconds?) -> Range<Milliseconds> {
        let times = (device.launches + device.fetches).map(\.time)
        let zone = device.timeZone
        let start = from ?? times.min().map { midnight(day(of: $0, in: zone), zone) } ?? to ?? 0
        let end = to ?? times.max().map { midnight(day(of: $0, in: zone) + 1, zone) } ?? start
        return start..<max(start, end)
    }

    /// Figures added up over apps or devices, with every content age, so that the median is the
    /// median of them all.
    struct Tally {
        var figures: [Backtest.Strategy: StrategyFigures] = [:]
        var ages: [Backtest.Strategy: [Double]] = [:]

        mutating func add(_ outcomes: [Backtest.Outcome]) {
            for outcome in outcomes { add(outcome.figures, ages: outcome.ages) }
        }

        mutating func add(_ more: StrategyFigures, ages moreAges: [Double]) {
            let strategy = more.strategy
            figures[strategy] = figures[strategy].map { $0.adding(more) } ?? more
            ages[strategy, default: []] += moreAges
        }

        mutating func add(_ other: Tally) {
            for (strategy, figures) in other.figures {
                self.figures[strategy] = self.figures[strategy].map { $0.adding(figures) } ?? figures
                ages[strategy, default: []] += other.ages[strategy] ?? []
            }
        }

        /// What happened, and each baseline in the order scored.
        func summary() -> (observed: FreshnessFigures, baselines: [FreshnessFigures]) {
            let all = Freshness.strategies.map { strategy in
                FreshnessFigures(
                    figures[strategy] ?? StrategyFigures(strategy: strategy), ages: ages[strategy] ?? [])
            }
            return (all[0], Array(all.dropFirst()))
        }
    }
}

/// What a freshness measure scores.
public enum FreshnessScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every app launched or fetched in the period, on every local day of it: what happened.
    case all
    /// The backtest protocol's apps (those with 20 cold launches in the whole log) and days (after
    /// a warm-up of 7): the figures `evaluate` gives the same log.
    case `protocol`
}

/// One strategy's freshness figures: what happened, a periodic baseline, or the oracle.
public struct FreshnessFigures: Sendable, Hashable, Codable {
    /// `observed` for the fetches that happened, else the baseline's name (`periodic-30`, `oracle`).
    public var strategy: String
    /// Launches with no launch of the app in the window before them.
    public var coldLaunches: Int
    /// Cold launches with a fetch of the app, not failed, started in the window before them and at
    /// least the lead before them.
    public var freshColdLaunches: Int
    /// Fetches of the apps scored, in the period.
    public var fetches: Int
    /// Apps scored times local days.
    public var appDays: Int
    /// Local days scored.
    public var days: Int
    /// Distinct instants at which at least one app fetched.
    public var deviceWakes: Int
    /// Fetches that ended with `noData`.
    public var wastedNoData: Int
    /// Fetches that failed.
    public var wastedFailed: Int
    /// Fetches followed by another refresh of the app before any launch of it.
    public var wastedSuperseded: Int
    /// The median age of the content at a cold launch with a refresh before it, in minutes.
    public var medianContentAgeMinutes: Double?

    /// Fresh cold launches over cold launches; 0 with none.
    public var freshRate: Double { coldLaunches == 0 ? 0 : Double(freshColdLaunches) / Double(coldLaunches) }
    /// Fetches over app-days; 0 with none.
    public var fetchesPerAppDay: Double { appDays == 0 ? 0 : Double(fetches) / Double(appDays) }
    /// Device wakes over days; 0 with none.
    public var deviceWakesPerDay: Double { days == 0 ? 0 : Double(deviceWakes) / Double(days) }
    /// Wasted fetches of every kind.
    public var wasted: Int { wastedNoData + wastedFailed + wastedSuperseded }

    enum CodingKeys: String, CodingKey {
        case strategy, coldLaunches, freshColdLaunches, fetches, appDays, days, deviceWakes, wastedNoData,
            wastedFailed, wastedSuperseded, medianContentAgeMinutes, freshRate, fetchesPerAppDay,
            deviceWakesPerDay, wasted
    }

    /// Writes the figures and the rates made of them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(strategy, forKey: .strategy)
        for (key, value) in [
            (CodingKeys.coldLaunches, coldLaunches), (.freshColdLaunches, freshColdLaunches), (.fetches, fetches),
            (.appDays, appDays), (.days, days), (.deviceWakes, deviceWakes), (.wastedNoData, wastedNoData),
            (.wastedFailed, wastedFailed), (.wastedSuperseded, wastedSuperseded), (.wasted, wasted),
        ] {
            try container.encode(value, forKey: key)
        }
        try container.encode(medianContentAgeMinutes, forKey: .medianContentAgeMinutes)
        try container.encode(freshRate, forKey: .freshRate)
        try container.encode(fetchesPerAppDay, forKey: .fetchesPerAppDay)
        try container.encode(deviceWakesPerDay, forKey: .deviceWakesPerDay)
    }

    /// Creates a value with the counts given, each 0 unless given.
    public init(
        strategy: String, coldLaunches: Int = 0, freshColdLaunches: Int = 0, fetches: Int = 0, appDays: Int = 0,
        days: Int = 0, deviceWakes: Int = 0, wastedNoData: Int = 0, wastedFailed: Int = 0, wastedSuperseded: Int = 0,
        medianContentAgeMinutes: Double? = nil
    ) {
        self.strategy = strategy
        self.coldLaunches = coldLaunches
        self.freshColdLaunches = freshColdLaunches
        self.fetches = fetches
        self.appDays = appDays
        self.days = days
        self.deviceWakes = deviceWakes
        self.wastedNoData = wastedNoData
        self.wastedFailed = wastedFailed
        self.wastedSuperseded = wastedSuperseded
        self.medianContentAgeMinutes = medianContentAgeMinutes
    }

    /// Reads the figures; the rates are made again from them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        strategy = try container.decode(String.self, forKey: .strategy)
        coldLaunches = try container.decode(Int.self, forKey: .coldLaunches)
        freshColdLaunches = try container.decode(Int.self, forKey: .freshColdLaunches)
        fetches = try container.decode(Int.self, forKey: .fetches)
        appDays = try container.decode(Int.self, forKey: .appDays)
        days = try container.decode(Int.self, forKey: .days)
        deviceWakes = try container.decode(Int.self, forKey: .deviceWakes)
        wastedNoData = try container.decode(Int.self, forKey: .wastedNoData)
        wastedFailed = try container.decode(Int.self, forKey: .wastedFailed)
        wastedSuperseded = try container.decode(Int.self, forKey: .wastedSuperseded)
        medianContentAgeMinutes = try container.decodeIfPresent(Double.self, forKey: .medianContentAgeMinutes)
    }

    /// A strategy's backtest figures, with the content ages their median is taken of.
    init(_ figures: StrategyFigures, ages: [Double]) {
        strategy = figures.strategy.name
        coldLaunches = figures.coldLaunches
        freshColdLaunches = figures.freshLaunches
        fetches = figures.fetches
        appDays = figures.appDays
        days = figures.scoredDays
        deviceWakes = figures.deviceWakes
        wastedNoData = figures.wastedNoData
        wastedFailed = figures.wastedFailed
        wastedSuperseded = figures.wastedSuperseded
        medianContentAgeMinutes = ages.median
    }
}

/// One app's freshness: what happened to it, and what the baselines would have done.
public struct AppFreshness: Sendable, Hashable, Codable {
    /// The app.
    public var app: String
    /// What happened.
    public var observed: FreshnessFigures
    /// The periodic baselines and the oracle over the app's cold launches.
    public var baselines: [FreshnessFigures]

    /// Creates a value with every field given.
    public init(app: String, observed: FreshnessFigures, baselines: [FreshnessFigures]) {
        self.app = app
        self.observed = observed
        self.baselines = baselines
    }

    /// Each app's tallied figures, by name.
    static func list(_ tallies: [String: Freshness.Tally]) -> [AppFreshness] {
        tallies.keys.sorted().map {
            let (observed, baselines) = tallies[$0]!.summary()
            return AppFreshness(app: $0, observed: observed, baselines: baselines)
        }
    }
}

/// One device's freshness over its period.
public struct DeviceFreshness: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// The zone its days are read in.
    public var timeZone: String
    /// The period's first instant.
    public var from: Date
    /// The instant the period ends before.
    public var to: Date
    /// What happened.
    public var observed: FreshnessFigures
    /// The periodic baselines and the oracle over the same cold launches.
    public var baselines: [FreshnessFigures]
    /// Each app scored, by name.
    public var apps: [AppFreshness]
}

/// Freshness over a period: every device's figures added up (the median age of them all), each
/// app's over the devices, and each device's.
public struct FreshnessReport: Sendable, Hashable, Codable {
    /// The period's first instant, as asked; `nil` for each device's first day.
    public var from: Date?
    /// The instant the period ends before, as asked; `nil` for each device's last day.
    public var to: Date?
    /// What was scored.
    public var scope: FreshnessScope
    /// What happened, over every device.
    public var observed = FreshnessFigures(StrategyFigures(strategy: .observed), ages: [])
    /// The baselines over every device.
    public var baselines: [FreshnessFigures] = []
    /// Each app over every device, by name.
    public var apps: [AppFreshness] = []
    /// Each device.
    public var devices: [DeviceFreshness] = []

    init(from: Date?, to: Date?, scope: FreshnessScope) {
        self.from = from
        self.to = to
        self.scope = scope
    }
}
