import Foundation

/// Forecasts an app's cold launches over a planning horizon: the one thing the planner asks of
/// what the device has learned.
///
/// The planner, the coalescing, the push budget, the reasons and the backtest never ask which
/// forecaster they hold: it is chosen once, where a ``Predictor`` is made (``Predictor/forecaster``,
/// as swift-log chooses its handler at bootstrap), and each plan asks it once, for every app it
/// plans at once, so that a model can be read in batches.
///
/// ```swift
/// var predictor = Predictor(forecaster: TreesForecaster(model: .prior))
/// ```
///
/// The built-in forecasters are ``HazardForecaster`` (the default), ``ProfileForecaster`` and
/// ``TreesForecaster``; ``Forecasters/named(_:)`` finds them by the names the command line and
/// the service use.
public protocol LaunchForecaster: Sendable {
    /// The name the command line, the service and the reasons call it by.
    var name: String { get }
    /// What a device must learn from its events for this forecaster: a model learned without
    /// it cannot serve it, and the model cache keeps one model per set (``learningKey(_:)``).
    var inputs: ForecastInputs { get }
    /// How far ahead, in minutes, a next-wake search plans an app at first, when its forecasts
    /// cost more than the daily profile's: a plan that must look further goes twice as far each
    /// time. `nil` plans as far as the predictor's stage (four hours).
    var firstStageMinutes: Int? { get }
    /// The forecast of each request, in order: the expected cold launches of its app, minute by
    /// minute from its ``ForecastRequest/startIndex`` to its ``ForecastRequest/endIndex``.
    func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast]
}

extension LaunchForecaster {
    public var firstStageMinutes: Int? { nil }

    /// The key a model learned for this forecaster is cached under, with these settings
    /// (``PredictorConfiguration/learningKey(learning:)``).
    public func learningKey(_ configuration: PredictorConfiguration) -> String {
        configuration.learningKey(learning: inputs)
    }
}

/// What a device learns from its events beyond each app's own model, for the forecasters that
/// read it.
public struct ForecastInputs: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The device's ``LaunchHazard``: how a cold launch's chance depends on the time of day and
    /// the time since the last launch, learned from every app.
    public static let launchHazard = ForecastInputs(rawValue: 1)
    /// What ``LaunchFeatures`` read beyond the profiles (``LaunchTraces``: recent launches,
    /// which app follows which, the session, unlocks and notifications), and the habit profiles;
    /// a plan that reads them is made again whenever they change. On a store of a million
    /// launches of 200 apps they made learning 7 times slower.
    public static let launchFeatures = ForecastInputs(rawValue: 2)
}

/// One app to forecast over a planning horizon, and what the device has learned of it.
public struct ForecastRequest {
    /// The app.
    public let app: String
    /// The minute of the horizon the plan starts from, and the minute the forecast stops before.
    public let startIndex: Int
    public let endIndex: Int
    /// What the request reads of the device and the app, held once for all its copies (a
    /// forecaster copies requests into the forecasts it gives, and the app's model holds a dozen
    /// arrays).
    private let context: Context
    /// The ``LaunchForecast/readings`` of a shorter forecast of the app from the same minute, made
    /// from the same events (a plan made further ahead): the first readings of this one.
    var readings: [Double]? = nil
    /// The last minute whose chance the plan reads to choose its wakes (the chance planner that
    /// does not wait), when it needs the rest of the forecast only for the wakes it chooses: a
    /// forecaster may read only so far, and give the whole forecast on
    /// ``LaunchForecast/completed``.
    var chancesThrough: Int? = nil
    /// The chance below which the plan chooses no wake at any minute (the chance planner's
    /// threshold, over the app's best value factor): a forecaster that finds every chance it
    /// would give stays below it may leave them out (``LaunchForecast/staysBelowFloor``).
    var chanceFloor: Double? = nil

    private final class Context: Sendable {
        let planner: Planner
        let model: AppModel
        let profiles: Planner.DayProfiles
        let habits: Planner.DayProfiles?
        let notColdUntil: Milliseconds

        init(
            planner: Planner, model: AppModel, profiles: Planner.DayProfiles, habits: Planner.DayProfiles?,
            notColdUntil: Milliseconds
        ) {
            (self.planner, self.model, self.profiles, self.habits) = (planner, model, profiles, habits)
            self.notColdUntil = notColdUntil
        }
    }

    init(
        app: String, startIndex: Int, endIndex: Int, planner: Planner, model: AppModel,
        profiles: Planner.DayProfiles, habits: Planner.DayProfiles?, notColdUntil: Milliseconds,
        readings: [Double]? = nil, chancesThrough: Int? = nil, chanceFloor: Double? = nil
    ) {
        (self.app, self.startIndex, self.endIndex) = (app, startIndex, endIndex)
        context = Context(
            planner: planner, model: model, profiles: profiles, habits: habits, notColdUntil: notColdUntil)
        (self.readings, self.chancesThrough, self.chanceFloor) = (readings, chancesThrough, chanceFloor)
    }

    /// The planner that asks: the device's model, the horizon's clock, the settings.
    var planner: Planner { context.planner }
    /// The app's model, its planning profiles, and its habit profiles when the asker has them.
    var model: AppModel { context.model }
    var profiles: Planner.DayProfiles { context.profiles }
    var habits: Planner.DayProfiles? { context.habits }
    /// No cold launch of the app comes before this instant: the cold-launch gap after its last launch.
    var notColdUntil: Milliseconds { context.notColdUntil }

    /// What the predictor has learned of the device.
    public var device: DeviceModel { planner.device }
    /// What the predictor has learned of the app.
    public var appModel: AppModel { model }
    /// The settings of learning and planning.
    public var configuration: PredictorConfiguration { planner.configuration }
    /// The instant a minute of the horizon begins.
    public func time(ofMinute index: Int) -> Date { Date(milliseconds: planner.clock.time(index)) }
    /// The app's habit profiles: the asker's, or learned now.
    var habitProfiles: Planner.DayProfiles { habits ?? device.habitProfiles(app: app, configuration) }
}

/// The expected cold launches of one app, minute by minute, and what says why a wake is worth it.
public struct LaunchForecast {
    /// The expected cold launches, by what expects them.
    public var expected: ExpectedLaunches
    /// The reasons of a wake at a minute of the horizon, given the app's habit profiles (whose
    /// peaks a reason may name); `nil` names the parts of ``expected``: the time of day's and
    /// the return's.
    public var reasons: ((_ minute: Int, _ habits: (weekday: DailyProfile, weekend: DailyProfile)) -> [WakeReason])?
    /// The forecaster's own chance of a cold launch in the window after each minute of the
    /// horizon (from the lead to the window's end), which the chance planner reads
    /// (``WakePlanning/chance``); `nil` reads the launches ``expected`` expects in each window.
    public var chances: [Double]?
    /// What a forecaster that reads a model at some minutes read, in order, for a forecast made
    /// further ahead from the same minute and the same events to go on from
    /// (``TreesForecaster``: the trees' chance at every ``Planner/launchModelStepMinutes``th
    /// minute); `nil` when there is nothing to go on from.
    public var readings: [Double]?
    /// The whole forecast, when this one holds only the ``chances`` up to the minute the plan asked
    /// for first (and its other figures are not to be read): the plan asks for it once it chose a wake.
    public var completed: (() -> LaunchForecast)?
    /// Whether every chance the plan would read stays below the request's floor
    /// (``ForecastRequest/chanceFloor``), so that it chooses no wake: the forecast then gives
    /// no figure but its ``readings``, and the plan weighs no minute.
    public var staysBelowFloor = false

    public init(
        expected: ExpectedLaunches,
        reasons: ((_ minute: Int, _ habits: (weekday: DailyProfile, weekend: DailyProfile)) -> [WakeReason])? = nil,
        chances: [Double]? = nil, readings: [Double]? = nil, completed: (() -> LaunchForecast)? = nil,
        staysBelowFloor: Bool = false
    ) {
        self.expected = expected
        self.reasons = reasons
        self.chances = chances
        self.readings = readings
        self.completed = completed
        self.staysBelowFloor = staysBelowFloor
    }
}

/// The built-in forecasters, by name.
public enum Forecasters {
    /// The names ``named(_:)`` knows, the default first.
    public static let names = ["hazard", "profile", "daily", "trees"]

    /// The forecaster of a name: `hazard` (``HazardForecaster``, the default), `profile` (the
    /// daily profile and the return curve weighed by hand), `daily` (the daily profile alone),
    /// `trees` (``TreesForecaster`` with the prior shipped with the package); `nil` for another.
    public static func named(_ name: String) -> (any LaunchForecaster)? {
        switch name {
        case "hazard": HazardForecaster()
        case "profile": ProfileForecaster()
        case "daily": ProfileForecaster(returns: false)
        case "trees": TreesForecaster(model: .prior)
        default: nil
        }
    }
}
