/// The settings that decide whether and how often an app may be woken.
public struct AppPolicy: Sendable, Hashable, Codable {
    /// The interval that applies (the app's own, else the store's default).
    public var interval: FetchInterval
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool

    /// Creates a value with every field given.
    public init(interval: FetchInterval, enabled: Bool = true) {
        self.interval = interval
        self.enabled = enabled
    }
}
