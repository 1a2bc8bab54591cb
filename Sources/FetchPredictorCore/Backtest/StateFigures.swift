/// What a strategy did where the device told its state: the fetches the state forbade, and the
/// cold launches of apps with constraints served by fetches that kept them. Only in reports of
/// logs with state events.
public struct StateFigures: Sendable, Hashable, Codable {
    /// Fetches of apps in scope, on scored days, made while Low Power Mode was on. The system
    /// makes none: the predictor must score 0.
    public var fetchesInLowPowerMode = 0
    /// Fetches of apps with constraints, on scored days, made while the state broke one. The
    /// predictor must score 0.
    public var fetchesBreakingConstraints = 0
    /// Wakes of apps in scope, on scored days, that the replay did not carry out, as the system
    /// would not: Low Power Mode was on, or the state broke one of the app's constraints.
    public var refusedByState = 0
    /// Fetches of apps with constraints on scored days.
    public var constrainedFetches = 0
    /// Cold launches of apps with constraints.
    public var constrainedColdLaunches = 0
    /// Those that found fresh content, counting as refreshes only the fetches made while the
    /// state allowed them (and launches).
    public var constrainedFreshLaunches = 0

    /// Nothing counted.
    public init() {}

    /// The share of the constrained apps' cold launches that found content fetched under their
    /// constraints; 0 when there is none.
    public var constrainedFreshRate: Double {
        constrainedColdLaunches == 0 ? 0 : Double(constrainedFreshLaunches) / Double(constrainedColdLaunches)
    }

    /// The sum of two devices' figures.
    func adding(_ other: StateFigures) -> StateFigures {
        var sum = self
        sum.fetchesInLowPowerMode += other.fetchesInLowPowerMode
        sum.fetchesBreakingConstraints += other.fetchesBreakingConstraints
        sum.refusedByState += other.refusedByState
        sum.constrainedFetches += other.constrainedFetches
        sum.constrainedColdLaunches += other.constrainedColdLaunches
        sum.constrainedFreshLaunches += other.constrainedFreshLaunches
        return sum
    }

    enum CodingKeys: String, CodingKey {
        case fetchesInLowPowerMode, fetchesBreakingConstraints, refusedByState, constrainedFetches,
            constrainedColdLaunches,
            constrainedFreshLaunches, constrainedFreshRate
    }

    /// Writes the figures, with the fresh rate they make.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fetchesInLowPowerMode, forKey: .fetchesInLowPowerMode)
        try container.encode(fetchesBreakingConstraints, forKey: .fetchesBreakingConstraints)
        try container.encode(refusedByState, forKey: .refusedByState)
        try container.encode(constrainedFetches, forKey: .constrainedFetches)
        try container.encode(constrainedColdLaunches, forKey: .constrainedColdLaunches)
        try container.encode(constrainedFreshLaunches, forKey: .constrainedFreshLaunches)
        try container.encode(constrainedFreshRate, forKey: .constrainedFreshRate)
    }

    /// Reads the figures; the fresh rate is made from them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fetchesInLowPowerMode = try container.decode(Int.self, forKey: .fetchesInLowPowerMode)
        fetchesBreakingConstraints = try container.decode(Int.self, forKey: .fetchesBreakingConstraints)
        refusedByState = try container.decode(Int.self, forKey: .refusedByState)
        constrainedFetches = try container.decode(Int.self, forKey: .constrainedFetches)
        constrainedColdLaunches = try container.decode(Int.self, forKey: .constrainedColdLaunches)
        constrainedFreshLaunches = try container.decode(Int.self, forKey: .constrainedFreshLaunches)
    }
}
