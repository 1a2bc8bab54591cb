import Foundation

/// The settings of a backtest, with the defaults of the backtest protocol.
public struct BacktestSettings: Sendable {
    /// The freshness window W, in seconds.
    public var window: Double = 30 * 60
    /// The lead L, in seconds.
    public var lead: Double = 60
    /// Days of each device learned but not scored.
    public var warmupDays = 7
    /// The predictor's budget levels, which trace the frontier.
    public var budgets: [Double] = [0.5, 0.7, 0.8, 0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98]
    /// The budget of the run whose wakes and launches are written out.
    public var reportedBudget: Double = PredictorConfiguration().budget
    /// The periods of the periodic baselines, in minutes.
    public var periods = [30, 60, 120, 240, 480]
    /// How apps' content changes; `nil` for content that changes all the time.
    public var scenario: ContentScenario?
    /// The apps in scope and their intervals; `nil` for every app with enough cold launches, on `minimum`.
    public var apps: [String: FetchInterval]?
    /// Cold launches an app needs in the whole log to be in scope, without a settings file.
    public var minimumColdLaunches = 20
    /// How long a simulated fetch takes, in seconds: its result reaches the predictor then.
    public var fetchDuration: Double = 5
    /// The predictor's other settings.
    public var configuration = PredictorConfiguration()

    /// Creates a value with every field given.
    public init() {}
}

/// One device's log for a backtest.
public struct BacktestDevice: Sendable {
    /// The device's name.
    public var name: String
    /// The device's time zone.
    public var timeZone: TimeZone
    /// Its launches, in any order.
    public var launches: [Event]
    /// Its device events (unlocks, the screen on and off), in any order: the replay feeds them
    /// to the predictor when the clock reaches them.
    public var deviceEvents: [Event]

    /// Creates a value with every field given.
    public init(name: String, timeZone: TimeZone, launches: [Event], deviceEvents: [Event] = []) {
        self.name = name
        self.timeZone = timeZone
        self.launches = launches
        self.deviceEvents = deviceEvents
    }
}

/// What one strategy scored on one device or overall.
public struct StrategyFigures: Sendable, Hashable, Codable {
    /// `predictor`, `periodic-30` ... `periodic-480`, or `oracle`.
    public var strategy: String
    /// The predictor's budget level.
    public var budget: Double?
    /// Cold launches: launches with no launch of the app in the 30 minutes before.
    public var coldLaunches: Int
    /// Cold launches that found fresh content.
    public var freshLaunches: Int
    /// Background fetches of apps in scope on scored days.
    public var fetches: Int
    /// App-days: apps in scope times scored days.
    public var appDays: Int
    /// Local days scored (after the warm-up).
    public var scoredDays: Int
    /// Distinct instants at which at least one app fetched.
    public var deviceWakes: Int
    /// Fetches that found nothing new.
    public var wastedNoData: Int
    /// Fetches that failed.
    public var wastedFailed: Int
    /// Fetches followed by another refresh of the app before any launch.
    public var wastedSuperseded: Int
    /// Median of t − r over cold launches with a refresh before them, in minutes.
    public var medianContentAgeMinutes: Double?
    /// The predictor's forecast of the fresh cold launches its fetches serve: the sum of the
    /// forecasts of its fetches on scored days; `nil` for the baselines.
    public var expectedFresh: Double?
    /// The fresh cold launches served by a fetch: their last refresh was a fetch within the
    /// window before them. Without a content scenario they are all the fresh ones; with one, a
    /// launch may also be fresh because nothing was published since an older refresh.
    public var servedLaunches: Int = 0
    /// The predictor's fetches grouped by forecast, against what they served; empty for the baselines.
    public var reliability: [ReliabilityBin] = []

    /// Fresh cold launches over cold launches.
    public var freshRate: Double { coldLaunches == 0 ? 0 : Double(freshLaunches) / Double(coldLaunches) }
    /// Fetches of apps in scope on scored days, over app-days.
    public var wakesPerAppDay: Double { appDays == 0 ? 0 : Double(fetches) / Double(appDays) }
    /// Device wakes over scored days.
    public var deviceWakesPerDay: Double { scoredDays == 0 ? 0 : Double(deviceWakes) / Double(scoredDays) }
    /// Wasted fetches of every kind.
    public var wasted: Int { wastedNoData + wastedFailed + wastedSuperseded }

    enum CodingKeys: String, CodingKey {
        case strategy, budget, coldLaunches, freshLaunches, fetches, appDays, scoredDays, deviceWakes, wastedNoData,
            wastedFailed, wastedSuperseded, medianContentAgeMinutes, freshRate, wakesPerAppDay, deviceWakesPerDay,
            wasted, expectedFresh, servedLaunches, reliability
    }

    /// Writes the value to an encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(strategy, forKey: .strategy)
        try container.encodeIfPresent(budget, forKey: .budget)
        for (key, value) in [
            (CodingKeys.coldLaunches, coldLaunches), (.freshLaunches, freshLaunches), (.fetches, fetches),
            (.appDays, appDays), (.scoredDays, scoredDays), (.deviceWakes, deviceWakes), (.wastedNoData, wastedNoData),
            (.wastedFailed, wastedFailed), (.wastedSuperseded, wastedSuperseded), (.wasted, wasted),
        ] {
            try container.encode(value, forKey: key)
        }
        try container.encodeIfPresent(medianContentAgeMinutes, forKey: .medianContentAgeMinutes)
        try container.encodeIfPresent(expectedFresh, forKey: .expectedFresh)
        try container.encode(servedLaunches, forKey: .servedLaunches)
        if !reliability.isEmpty { try container.encode(reliability, forKey: .reliability) }
        try container.encode(freshRate, forKey: .freshRate)
        try container.encode(wakesPerAppDay, forKey: .wakesPerAppDay)
        try container.encode(deviceWakesPerDay, forKey: .deviceWakesPerDay)
    }

    /// Creates a value from its coder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        strategy = try container.decode(String.self, forKey: .strategy)
        budget = try container.decodeIfPresent(Double.self, forKey: .budget)
        coldLaunches = try container.decode(Int.self, forKey: .coldLaunches)
        freshLaunches = try container.decode(Int.self, forKey: .freshLaunches)
        fetches = try container.decode(Int.self, forKey: .fetches)
        appDays = try container.decode(Int.self, forKey: .appDays)
        scoredDays = try container.decode(Int.self, forKey: .scoredDays)
        deviceWakes = try container.decode(Int.self, forKey: .deviceWakes)
        wastedNoData = try container.decode(Int.self, forKey: .wastedNoData)
        wastedFailed = try container.decode(Int.self, forKey: .wastedFailed)
        wastedSuperseded = try container.decode(Int.self, forKey: .wastedSuperseded)
        medianContentAgeMinutes = try container.decodeIfPresent(Double.self, forKey: .medianContentAgeMinutes)
        expectedFresh = try container.decodeIfPresent(Double.self, forKey: .expectedFresh)
        servedLaunches = try container.decodeIfPresent(Int.self, forKey: .servedLaunches) ?? 0
        reliability = try container.decodeIfPresent([ReliabilityBin].self, forKey: .reliability) ?? []
    }

    init(strategy: String, budget: Double?) {
        self.strategy = strategy
        self.budget = budget
        coldLaunches = 0
        freshLaunches = 0
        fetches = 0
        appDays = 0
        scoredDays = 0
        deviceWakes = 0
        wastedNoData = 0
        wastedFailed = 0
        wastedSuperseded = 0
    }

    /// The sum of two devices' figures; the median age is not kept.
    func adding(_ other: StrategyFigures) -> StrategyFigures {
        var sum = self
        sum.coldLaunches += other.coldLaunches
        sum.freshLaunches += other.freshLaunches
        sum.fetches += other.fetches
        sum.appDays += other.appDays
        sum.scoredDays += other.scoredDays
        sum.deviceWakes += other.deviceWakes
        sum.wastedNoData += other.wastedNoData
        sum.wastedFailed += other.wastedFailed
        sum.wastedSuperseded += other.wastedSuperseded
        if let expected = other.expectedFresh { sum.expectedFresh = (sum.expectedFresh ?? 0) + expected }
        sum.servedLaunches += other.servedLaunches
        if sum.reliability.isEmpty {
            sum.reliability = other.reliability
        } else if !other.reliability.isEmpty {
            for index in sum.reliability.indices {
                sum.reliability[index].wakes += other.reliability[index].wakes
                sum.reliability[index].forecast += other.reliability[index].forecast
                sum.reliability[index].served += other.reliability[index].served
            }
        }
        return sum
    }
}

/// One simulated fetch, as the protocol's wakes CSV lists it.
public struct SimulatedFetch: Sendable, Hashable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// When the fetch started.
    public var start: Milliseconds
    /// How the fetch ended.
    public var result: FetchResult
    /// The predictor's forecast of the cold launches the fetch serves; `nil` for the baselines.
    public var forecast: Double?

    /// Creates a value with every field given.
    public init(device: String, app: String, start: Milliseconds, result: FetchResult, forecast: Double? = nil) {
        self.device = device
        self.app = app
        self.start = start
        self.result = result
        self.forecast = forecast
    }
}

/// Wakes grouped by their forecast of the cold launches they serve, against what they served:
/// a row of the reliability table.
public struct ReliabilityBin: Sendable, Hashable, Codable {
    /// The forecasts of the bin are from this ...
    public var lower: Double
    /// ... up to, not including, this.
    public var upper: Double
    /// Fetches of apps in scope on scored days whose forecast fell in the bin.
    public var wakes: Int
    /// The sum of their forecasts.
    public var forecast: Double
    /// The fresh cold launches they served: each counts for the last fetch before it, within its window.
    public var served: Int

    /// The edges of the bins, in expected cold launches.
    public static let edges: [Double] = [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1]
}

/// One scored cold launch, as the protocol's launches CSV lists it.
public struct ScoredLaunch: Sendable, Hashable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// When the launch happened.
    public var time: Milliseconds
    /// Whether it found fresh content.
    public var fresh: Bool
}

/// A device's results.
public struct DeviceBacktest: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// The device's time zone.
    public var timeZone: String
    /// Local days scored (after the warm-up).
    public var scoredDays: Int
    /// The apps in scope.
    public var apps: [String]
    /// The figures of each strategy.
    public var strategies: [StrategyFigures]
}

/// The backtest's results: per device, overall, the frontier and its two summary numbers.
public struct BacktestReport: Sendable, Codable {
    /// Each device's results.
    public var devices: [DeviceBacktest]
    /// Every device together.
    public var overall: [StrategyFigures]
    /// The fresh rate at 4 wakes per app-day, read off the predictor's frontier; `nil` when the
    /// frontier does not reach 4.
    public var freshAt4: Double?
    /// The wakes per app-day needed for a 50% fresh rate; `nil` when the frontier never reaches it.
    public var wakesAt50: Double?
    /// The simulated fetches and scored launches of the predictor at the reported budget.
    public var fetches: [SimulatedFetch] = []
    /// The scored cold launches of the predictor at the reported budget.
    public var launches: [ScoredLaunch] = []

    enum CodingKeys: String, CodingKey {
        case devices, overall, freshAt4, wakesAt50
    }
}

/// The backtest of the project's protocol: replays logs through the predictor's public API and
/// scores fresh content at cold launches against periodic fetching and the oracle.
public enum Backtest {
    /// Runs every strategy on every device.
    ///
    /// - Parameters:
    ///   - progress: called after each strategy run with the runs done and the runs in all.
    /// - Complexity: O(runs × events × apps) in the worst case; plans are cached per app.
    public static func run(
        _ devices: [BacktestDevice], settings: BacktestSettings, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) -> BacktestReport {
        let prepared = devices.map { PreparedDevice($0, settings) }
        var runs: [(device: Int, strategy: Strategy)] = []
        for index in prepared.indices {
            for budget in settings.budgets { runs.append((index, .predictor(budget))) }
            if !settings.budgets.contains(settings.reportedBudget) {
                runs.append((index, .predictor(settings.reportedBudget)))
            }
            for period in settings.periods { runs.append((index, .periodic(period))) }
            runs.append((index, .oracle))
        }
        let allRuns = runs
        let results = ResultBox(count: runs.count)
        let counter = ResultBox(count: 0)
        DispatchQueue.concurrentPerform(iterations: allRuns.count) { index in
            let (device, strategy) = allRuns[index]
            let outcome = prepared[device].run(strategy, settings)
            results.set(index, outcome)
            progress?(counter.increment(), allRuns.count)
        }
        var report = BacktestReport(devices: [], overall: [], freshAt4: nil, wakesAt50: nil)
        var overall: [String: StrategyFigures] = [:]
        var order: [String] = []
        for (deviceIndex, device) in prepared.enumerated() {
            var figures: [StrategyFigures] = []
            for (index, run) in runs.enumerated() where run.device == deviceIndex {
                let outcome = results.get(index)!
                if case .predictor(let budget) = run.strategy, budget == settings.reportedBudget {
                    report.fetches += outcome.fetches
                    report.launches += outcome.launches
                }
                if case .predictor(let budget) = run.strategy, !settings.budgets.contains(budget) { continue }
                figures.append(outcome.figures)
                let key = run.strategy.key
                if overall[key] == nil { order.append(key) }
                overall[key] = overall[key].map { $0.adding(outcome.figures) } ?? outcome.figures
            }
            report.devices.append(
                DeviceBacktest(
                    device: device.name, timeZone: device.zone.identifier, scoredDays: device.scoredDays,
                    apps: device.scope.keys.sorted(), strategies: figures))
        }
        report.overall = order.map { key in
            var figures = overall[key]!
            if report.devices.count > 1 {
                figures.medianContentAgeMinutes = nil
            } else {
                figures.medianContentAgeMinutes =
                    report.devices.first?.strategies.first {
                        $0.strategy == figures.strategy && $0.budget == figures.budget
                    }?.medianContentAgeMinutes
            }
            return figures
        }
        let frontier = report.overall.filter { $0.strategy == "predictor" }.map { ($0.wakesPerAppDay, $0.freshRate) }
        report.freshAt4 = Frontier.fresh(at: 4, frontier)
        report.wakesAt50 = Frontier.wakes(forFresh: 0.5, frontier)
        return report
    }

    enum Strategy: Sendable {
        case predictor(Double)
        case periodic(Int)
        case oracle

        var key: String {
            switch self {
            case .predictor(let budget): "predictor \(budget)"
            case .periodic(let period): "periodic-\(period)"
            case .oracle: "oracle"
            }
        }
    }

    struct Outcome: Sendable {
        var figures: StrategyFigures
        var fetches: [SimulatedFetch]
        var launches: [ScoredLaunch]
    }

    /// Results written from concurrent runs.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Outcome?]
        private var count = 0

        init(count: Int) { values = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: Outcome) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> Outcome? { lock.withLock { values[index] } }
        func increment() -> Int {
            lock.withLock {
                count += 1; return count
            }
        }
    }
}

/// Reading the frontier by linear interpolation between measured points.
public enum Frontier {
    /// The fresh rate at a number of wakes per app-day.
    public static func fresh(at wakes: Double, _ points: [(wakes: Double, fresh: Double)]) -> Double? {
        let sorted = points.sorted { $0.wakes < $1.wakes }
        guard let first = sorted.first, let last = sorted.last, first.wakes <= wakes, last.wakes >= wakes else {
            return nil
        }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.wakes <= wakes && b.wakes >= wakes {
            if b.wakes == a.wakes { return max(a.fresh, b.fresh) }
            return a.fresh + (b.fresh - a.fresh) * (wakes - a.wakes) / (b.wakes - a.wakes)
        }
        return sorted.first { $0.wakes == wakes }?.fresh
    }

    /// The wakes per app-day at which the frontier first reaches a fresh rate.
    public static func wakes(forFresh target: Double, _ points: [(wakes: Double, fresh: Double)]) -> Double? {
        let sorted = points.sorted { $0.wakes < $1.wakes }
        if let first = sorted.first, first.fresh >= target { return first.wakes }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.fresh < target && b.fresh >= target {
            return a.wakes + (b.wakes - a.wakes) * (target - a.fresh) / (b.fresh - a.fresh)
        }
        return nil
    }
}
