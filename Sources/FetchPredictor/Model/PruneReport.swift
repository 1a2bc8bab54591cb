/// What a prune deleted.
public struct PruneReport: Sendable, Hashable, Codable {
    /// Launches deleted.
    public var launches: Int
    /// Fetch results deleted.
    public var fetches: Int
    /// Device events (unlocks, screen on and off).
    public var deviceEvents: Int
    /// Notifications of apps.
    public var notifications: Int = 0
    /// Events of every kind.
    public var total: Int { launches + fetches + deviceEvents + notifications }
}
