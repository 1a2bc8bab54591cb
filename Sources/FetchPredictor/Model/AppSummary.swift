import Foundation

/// What the store knows of one app: its settings and a summary of its events.
public struct AppSummary: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// The interval that applies: the app's own, else the store's default.
    public var interval: FetchInterval
    /// Whether the interval is the store's default rather than the app's own.
    public var intervalIsDefault: Bool
    /// Whether the app is a system package (`SystemApps`) with no interval of its own: its
    /// interval is then never, whatever the default.
    public var system: Bool
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool
    /// Whether the app is woken only on external power.
    public var requiresPower: Bool
    /// Whether the app is woken only on an unmetered network.
    public var requiresUnmetered: Bool
    /// Whether the app is woken only with a battery not low.
    public var requiresBatteryNotLow: Bool
    /// Launches stored.
    public var launches: Int
    /// Fetches that brought new data.
    public var fetchesNewData: Int
    /// Fetches that found nothing new.
    public var fetchesNoData: Int
    /// Fetches that failed.
    public var fetchesFailed: Int
    /// Notifications the app posted.
    public var notifications: Int
    /// The first and last event of the app, launch or fetch.
    public var firstSeen: Date?
    /// The last event of the app, launch or fetch.
    public var lastSeen: Date?

    /// Creates a value with every field given.
    public init(
        device: String, app: String, interval: FetchInterval, intervalIsDefault: Bool, enabled: Bool, launches: Int,
        fetchesNewData: Int, fetchesNoData: Int, fetchesFailed: Int, notifications: Int, firstSeen: Date?,
        lastSeen: Date?, constraints: AppConstraints = AppConstraints()
    ) {
        requiresPower = constraints.requiresPower
        requiresUnmetered = constraints.requiresUnmetered
        requiresBatteryNotLow = constraints.requiresBatteryNotLow
        self.device = device
        self.app = app
        // The one place a summary learns it: every store makes its summaries here.
        system = intervalIsDefault && SystemApps.contains(app)
        self.interval = system ? .never : interval
        self.intervalIsDefault = intervalIsDefault
        self.enabled = enabled
        self.launches = launches
        self.fetchesNewData = fetchesNewData
        self.fetchesNoData = fetchesNoData
        self.fetchesFailed = fetchesFailed
        self.notifications = notifications
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }

    /// What the device's state must be for the app to be woken.
    public var constraints: AppConstraints {
        AppConstraints(
            requiresPower: requiresPower, requiresUnmetered: requiresUnmetered,
            requiresBatteryNotLow: requiresBatteryNotLow)
    }
}
