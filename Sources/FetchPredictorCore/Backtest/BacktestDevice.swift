import Foundation

/// One device's log for a backtest.
public struct BacktestDevice: Sendable {
    /// The device's name.
    public var name: String
    /// The device's time zone.
    public var timeZone: TimeZone
    /// Its launches, in any order.
    public var launches: [Event]
    /// Its device events (unlocks, the screen on and off) and notifications, in any order: the replay feeds them
    /// to the predictor when the clock reaches them.
    public var deviceEvents: [Event]
    /// The fetches that happened, each with its result, in any order: what ``Freshness`` scores.
    /// A backtest plans its own and leaves these alone.
    public var fetches: [Event]

    /// Creates a value with every field given.
    public init(
        name: String, timeZone: TimeZone, launches: [Event], deviceEvents: [Event] = [], fetches: [Event] = []
    ) {
        self.name = name
        self.timeZone = timeZone
        self.launches = launches
        self.deviceEvents = deviceEvents
        self.fetches = fetches
    }
}
