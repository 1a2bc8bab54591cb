import FetchPredictorCore
import Foundation

/// An app's settings as the store holds them.
public struct AppSettings: Sendable, Hashable, Codable {
    /// The device the app is on.
    public var device: String
    /// The app's name.
    public var app: String
    /// The interval the app set, or `nil` when it set none and the store's default applies.
    public var interval: FetchInterval?
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool
    /// What the device's state must be for the app to be woken; none by default.
    public var constraints: AppConstraints

    /// Creates a value with every field given.
    public init(
        device: String, app: String, interval: FetchInterval?, enabled: Bool,
        constraints: AppConstraints = AppConstraints()
    ) {
        self.device = device
        self.app = app
        self.interval = interval
        self.enabled = enabled
        self.constraints = constraints
    }

    private enum CodingKeys: String, CodingKey {
        case device, app, interval, enabled, requiresPower, requiresUnmetered, requiresBatteryNotLow
    }

    /// Reads the settings; the constraints are flat keys, each `false` when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(String.self, forKey: .device)
        app = try container.decode(String.self, forKey: .app)
        interval = try container.decodeIfPresent(FetchInterval.self, forKey: .interval)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        constraints = AppConstraints(
            requiresPower: try container.decodeIfPresent(Bool.self, forKey: .requiresPower) ?? false,
            requiresUnmetered: try container.decodeIfPresent(Bool.self, forKey: .requiresUnmetered) ?? false,
            requiresBatteryNotLow: try container.decodeIfPresent(Bool.self, forKey: .requiresBatteryNotLow) ?? false)
    }

    /// Writes the settings with the constraints as flat keys, as the service's app route has them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device, forKey: .device)
        try container.encode(app, forKey: .app)
        try container.encodeIfPresent(interval, forKey: .interval)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(constraints.requiresPower, forKey: .requiresPower)
        try container.encode(constraints.requiresUnmetered, forKey: .requiresUnmetered)
        try container.encode(constraints.requiresBatteryNotLow, forKey: .requiresBatteryNotLow)
    }
}

/// A change of a device's own settings, made in one transaction: each field given is set, the
/// others kept; the zone first, so that when it is refused nothing else changes. An empty change
/// creates the device (with no zone) when new.
public struct DeviceSettingsChange: Sendable, Hashable {
    /// The device's IANA time zone; `nil` keeps it.
    public var timeZone: TimeZone?
    /// The interval of the device's apps that set none: `.some(nil)` returns it to the store's;
    /// `nil` keeps it.
    public var defaultInterval: FetchInterval??
    /// The device's push budget: `.some(nil)` for none; `nil` keeps it.
    public var wakesPerHour: Int??
    /// The name of the forecaster the device is planned with, one of `Forecasters/names`:
    /// `.some(nil)` returns it to the scheduler's; `nil` keeps it.
    public var forecaster: String??

    /// Creates a change of the fields given.
    public init(
        timeZone: TimeZone? = nil, defaultInterval: FetchInterval?? = nil, wakesPerHour: Int?? = nil,
        forecaster: String?? = nil
    ) {
        self.timeZone = timeZone
        self.defaultInterval = defaultInterval
        self.wakesPerHour = wakesPerHour
        self.forecaster = forecaster
    }
}

/// A change of an app's settings, made in one transaction: each field given is set, the others
/// kept. An empty change creates the app (and its device) with the defaults when new.
public struct AppSettingsChange: Sendable, Hashable {
    /// The new interval: `.some(nil)` returns the app to its device's default; `nil` keeps it.
    public var interval: FetchInterval??
    /// Whether background fetch is enabled; `nil` keeps it.
    public var enabled: Bool?
    /// Whether the app is woken only on power; `nil` keeps it.
    public var requiresPower: Bool?
    /// Whether the app is woken only on an unmetered network; `nil` keeps it.
    public var requiresUnmetered: Bool?
    /// Whether the app is woken only with a battery not low; `nil` keeps it.
    public var requiresBatteryNotLow: Bool?

    /// Creates a change of the fields given.
    public init(
        interval: FetchInterval?? = nil, enabled: Bool? = nil, requiresPower: Bool? = nil,
        requiresUnmetered: Bool? = nil, requiresBatteryNotLow: Bool? = nil
    ) {
        self.interval = interval
        self.enabled = enabled
        self.requiresPower = requiresPower
        self.requiresUnmetered = requiresUnmetered
        self.requiresBatteryNotLow = requiresBatteryNotLow
    }

    /// Whether the change sets nothing.
    public var isEmpty: Bool { self == AppSettingsChange() }

    /// Sets the constraint named `name` (one of `AppConstraints.names`); `false`, and nothing
    /// set, for a name that is none.
    @discardableResult
    public mutating func setConstraint(_ name: String, to value: Bool) -> Bool {
        // The field of that name, as AppConstraints reads names.
        var named = AppConstraints()
        guard named.set(name, to: true) else { return false }
        if named.requiresPower { requiresPower = value }
        if named.requiresUnmetered { requiresUnmetered = value }
        if named.requiresBatteryNotLow { requiresBatteryNotLow = value }
        return true
    }

    /// `settings` with the change made.
    public func applied(to settings: AppSettings) -> AppSettings {
        var settings = settings
        if let interval { settings.interval = interval }
        if let enabled { settings.enabled = enabled }
        if let requiresPower { settings.constraints.requiresPower = requiresPower }
        if let requiresUnmetered { settings.constraints.requiresUnmetered = requiresUnmetered }
        if let requiresBatteryNotLow { settings.constraints.requiresBatteryNotLow = requiresBatteryNotLow }
        return settings
    }
}
