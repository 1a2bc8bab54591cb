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
    /// Rounds of refinement: each runs the budget halfway between the two levels that fresh@4
    /// and wakes@50 are read between, so that the straight line between measured points lies
    /// closer to the frontier where it is read. 0 for the levels alone.
    public var refinements = 0
    /// The level that `schedule`, `next`, `due`, `report` and the service plan at when no budget
    /// is given: always run beside ``budgets``, and marked in the report
    /// (``StrategyFigures/isDefault``).
    public var defaultBudget: Double = PredictorConfiguration().budget
    /// The budget of the run whose wakes and launches are written out.
    public var reportedBudget: Double = PredictorConfiguration().budget
    /// The periods of the periodic baselines, in minutes.
    public var periods = [30, 60, 120, 240, 480]
    /// How apps' content changes; `nil` for content that changes all the time.
    public var scenario: ContentScenario?
    /// The apps in scope and their intervals; `nil` for every app with enough cold launches, on `minimum`.
    public var apps: [String: FetchInterval]?
    /// The constraints of apps in scope that ask for a state of the device: the replay's
    /// predictor plans them with these, and the figures of the device's state
    /// (``StateFigures``) count the cold launches of these apps.
    public var constraints: [String: AppConstraints] = [:]
    /// Cold launches an app needs in the whole log to be in scope, without a settings file.
    public var minimumColdLaunches = 20
    /// How soon after a fetch another refresh must come to waste it (with no launch between), in
    /// seconds; `nil` for any time to the end of the log, as the protocol counts. ``Freshness``
    /// of what happened looks a day past each fetch, so that a period's figures are the sum of
    /// its days' however the days are read.
    public var supersededWithin: Double?
    /// How long a simulated fetch takes, in seconds: its result reaches the predictor then.
    public var fetchDuration: Double = 5
    /// What forecasts the replayed predictor's cold launches (``HazardForecaster`` by default).
    public var forecaster: any LaunchForecaster = HazardForecaster()
    /// The predictor's other settings.
    public var configuration = PredictorConfiguration()

    /// Creates a value with every field given.
    public init() {}
}
