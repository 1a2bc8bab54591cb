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
