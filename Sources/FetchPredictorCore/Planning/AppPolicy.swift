/// The settings that decide whether, how often and in what state of the device an app may be
/// woken.
public struct AppPolicy: Sendable, Hashable, Codable {
    /// The interval that applies (the app's own, else the store's default).
    public var interval: FetchInterval
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool
    /// What the device's state must be for a wake: power, an unmetered network, a battery not low.
    public var constraints: AppConstraints

    /// Creates a value with every field given.
    public init(interval: FetchInterval, enabled: Bool = true, constraints: AppConstraints = AppConstraints()) {
        self.interval = interval
        self.enabled = enabled
        self.constraints = constraints
    }

    private enum CodingKeys: String, CodingKey {
        case interval, enabled, constraints
    }

    /// Reads a policy; one written before constraints existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        interval = try container.decode(FetchInterval.self, forKey: .interval)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        constraints = try container.decodeIfPresent(AppConstraints.self, forKey: .constraints) ?? AppConstraints()
    }
}
