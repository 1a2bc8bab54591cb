/// How the planner chooses an app's wakes from its forecast (``PredictorConfiguration/planning``).
///
/// Each reads the forecaster's answer its own way, and each is traced along the frontier by the
/// one knob, ``PredictorConfiguration/budget``: a wake needs a value of at least `1 − budget`.
/// The forecaster does not know which one plans it.
public enum WakePlanning: String, Sendable, Hashable, Codable, CaseIterable {
    /// The expected cold launches a wake at each minute would serve that no earlier wake serves,
    /// from the first minute where they reach the threshold, waiting up to half a window for the
    /// best minute; the next wake may come one interval floor later. The default.
    case sweep
    /// The chance of a cold launch in the window after each minute (from its lead to its end), as
    /// the forecaster gives it: a wake at the first minute where the chance reaches the threshold
    /// and no wake of the app came in the window before. The backtest protocol's plainest
    /// planner; for a forecaster of expected launches the chance is the launches its window
    /// expects (a window holds at most one cold launch), at most 1.
    case chance
    /// As ``chance``, but a minute whose chance is below 0.9 times the best chance a window
    /// ahead (the forecast with nothing happening until then) waits for it.
    case chanceWaiting = "chance-waiting"

    /// Whether the wakes are chosen by the chance of a launch in their window.
    var byChance: Bool { self != .sweep }

    /// A minute of ``chanceWaiting`` waits while this share of a later minute's value, within the
    /// window ahead, is more than its own.
    static let waitingShare = 0.9
}
