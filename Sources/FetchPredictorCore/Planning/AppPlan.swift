/// One app's plan over a horizon, before coalescing, with what coalescing needs to weigh moves.
struct AppPlan: Sendable {
    var wakes: [AppWake]
    /// Expected cold launches per minute of the horizon (and a window beyond it).
    var rates: [Double]
    /// The value factor of a fetch at each local hour (success, new data, cost).
    var factors: [Double]
    /// The earliest a fetch may happen, from the interval and backoff.
    var earliest: Milliseconds
    /// The app's interval floor, in milliseconds.
    var floor: Milliseconds
    var coldStart: Bool
}
