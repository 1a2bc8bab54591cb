/// One app's plan over a horizon, before coalescing, with what coalescing needs to weigh moves.
struct AppPlan: Sendable {
    var wakes: [AppWake]
    /// Expected cold launches per minute of the horizon, as far as the plan looked (and a window
    /// beyond).
    var rates: [Double]
    /// The part of `rates` from the return after the app's last launch
    /// (``ExpectedLaunches/returning``); the rest is the time of day's. Empty for a cold start.
    var returning: [Double] = []
    /// The last minute of the horizon whose launches the app's wake before serves, by each
    /// wake's planned time (``Planner/Sweep/Choice/servedBefore``).
    var servedBefore: [Milliseconds: Int] = [:]
    /// The app's last launch when the plan was made, which a return is counted from.
    var lastLaunch: Milliseconds? = nil
    /// Whether its wakes name the parts of their expected launches (the time of day's and the
    /// return's); a plan from the launch model names the model's chance instead.
    var namesParts = true
    /// The value factor of a fetch at each local hour (success, new data, cost).
    var factors: [Double]
    /// The earliest a fetch may happen, from the interval and backoff.
    var earliest: Milliseconds
    /// The app's interval floor, in milliseconds.
    var floor: Milliseconds
    var coldStart: Bool
    /// The last minute of the horizon the plan was made through, when it looked only so far
    /// ahead: its wakes up to there are those of the whole plan. `nil` for the whole horizon.
    var plannedThrough: Int? = nil
    /// The correction its forecasts were scaled by.
    var correction = 1.0
    /// For an app with constraints, the chance they are met at each minute of the horizon
    /// (``Planner/constraintChances(_:from:to:)``): coalescing moves no wake to a minute below
    /// ``Planner/leastConstraintChance``.
    var constraintChances: [ConstraintChances]? = nil
    /// Its forecast's ``LaunchForecast/readings``: a plan made further ahead from the same minute,
    /// while nothing happened, goes on from them.
    var readings: [Double]? = nil
}
