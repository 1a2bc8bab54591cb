/// What one strategy scored on one device or overall.
public struct StrategyFigures: Sendable, Hashable, Codable {
    /// The strategy scored; in JSON, its ``Backtest/Strategy/name`` and its budget apart.
    public var strategy: Backtest.Strategy
    /// The predictor's budget level; `nil` for the baselines.
    public var budget: Double? { strategy.budget }
    /// Whether this is the predictor at the default level (``BacktestSettings/defaultBudget``),
    /// the one planned with no budget given; in JSON, `"default"` on the predictor's rows.
    public var isDefault = false
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
    /// What the strategy did where the device told its state; `nil` where no device did.
    public var state: StateFigures?

    /// Fresh cold launches over cold launches.
    public var freshRate: Double { coldLaunches == 0 ? 0 : Double(freshLaunches) / Double(coldLaunches) }
    /// Fetches of apps in scope on scored days, over app-days.
    public var wakesPerAppDay: Double { appDays == 0 ? 0 : Double(fetches) / Double(appDays) }
    /// Device wakes over scored days.
    public var deviceWakesPerDay: Double { scoredDays == 0 ? 0 : Double(deviceWakes) / Double(scoredDays) }
    /// Wasted fetches of every kind.
    public var wasted: Int { wastedNoData + wastedFailed + wastedSuperseded }

    enum CodingKeys: String, CodingKey {
        case strategy, budget, isDefault = "default", coldLaunches, freshLaunches, fetches, appDays, scoredDays,
            deviceWakes, wastedNoData,
            wastedFailed, wastedSuperseded, medianContentAgeMinutes, freshRate, wakesPerAppDay, deviceWakesPerDay,
            wasted, expectedFresh, servedLaunches, reliability, state
    }

    /// Writes the value to an encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(strategy.name, forKey: .strategy)
        try container.encodeIfPresent(budget, forKey: .budget)
        if strategy.isPredictor { try container.encode(isDefault, forKey: .isDefault) }
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
        try container.encodeIfPresent(state, forKey: .state)
        try container.encode(freshRate, forKey: .freshRate)
        try container.encode(wakesPerAppDay, forKey: .wakesPerAppDay)
        try container.encode(deviceWakesPerDay, forKey: .deviceWakesPerDay)
    }

    /// Creates a value from its coder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .strategy)
        let budget = try container.decodeIfPresent(Double.self, forKey: .budget)
        guard let strategy = Backtest.Strategy(name: name, budget: budget) else {
            throw DecodingError.dataCorruptedError(
                forKey: .strategy, in: container,
                debugDescription: "'\(name)' is no strategy, with budget \(budget.map { "\($0)" } ?? "none")")
        }
        self.strategy = strategy
        isDefault = try container.decodeIfPresent(Bool.self, forKey: .isDefault) ?? false
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
        state = try container.decodeIfPresent(StateFigures.self, forKey: .state)
    }

    init(strategy: Backtest.Strategy) {
        self.strategy = strategy
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

    /// The counts added since `earlier` (the same run's figures before an app was scored): the
    /// app's own; its days, wakes, forecasts and state are not counted here.
    func counts(since earlier: StrategyFigures) -> StrategyFigures {
        var counts = StrategyFigures(strategy: strategy)
        counts.coldLaunches = coldLaunches - earlier.coldLaunches
        counts.freshLaunches = freshLaunches - earlier.freshLaunches
        counts.fetches = fetches - earlier.fetches
        counts.wastedNoData = wastedNoData - earlier.wastedNoData
        counts.wastedFailed = wastedFailed - earlier.wastedFailed
        counts.wastedSuperseded = wastedSuperseded - earlier.wastedSuperseded
        counts.servedLaunches = servedLaunches - earlier.servedLaunches
        return counts
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
        if let state = other.state { sum.state = sum.state.map { $0.adding(state) } ?? state }
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

extension [Double] {
    /// The middle value, or the mean of the two middle ones; `nil` for none: the median content
    /// age of a backtest and of freshness alike.
    var median: Double? {
        let sorted = sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
