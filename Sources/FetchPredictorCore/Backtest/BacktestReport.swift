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
    /// The predictor at the reported budget (``BacktestSettings/reportedBudget``), every device
    /// together: the run that ``fetches`` and ``launches`` are of, among the levels or beside them.
    public var reported: StrategyFigures?
    /// The simulated fetches and scored launches of the predictor at the reported budget.
    public var fetches: [SimulatedFetch] = []
    /// The scored cold launches of the predictor at the reported budget.
    public var launches: [ScoredLaunch] = []

    enum CodingKeys: String, CodingKey {
        case devices, overall, freshAt4, wakesAt50, reported
    }
}
