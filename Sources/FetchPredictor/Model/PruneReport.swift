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
    /// Events the pruned import stored that another import also holds: they stay, now that
    /// import's (always 0 when pruning by date).
    public var kept: Int = 0

    /// Creates a value with every field given.
    public init(launches: Int, fetches: Int, deviceEvents: Int, notifications: Int = 0, kept: Int = 0) {
        self.launches = launches
        self.fetches = fetches
        self.deviceEvents = deviceEvents
        self.notifications = notifications
        self.kept = kept
    }

    /// Events of every kind.
    public var total: Int { launches + fetches + deviceEvents + notifications }
}
