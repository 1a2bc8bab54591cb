import Foundation

/// The devices of a store and their settings: zones, intervals, push budgets, the apps' own
/// settings, what planning reads of them, and a device's erasure. One role of ``EventStoring``.
public protocol DeviceSettingsKeeping: AnyObject, Sendable {
    /// Erases a device for good, in one transaction: its events, apps, settings, learned models
    /// and import records, and the device itself (a person's right to erasure). A device made
    /// later under its name starts anew, and a process that held its model learns it again.
    ///
    /// - Throws: ``StoreError/unknownDevice(_:)`` when there is no such device.
    func eraseDevice(_ device: String, dryRun: Bool) async throws -> PruneReport

    /// The names of the devices in the store, in byte order.
    func devices() async throws -> [String]

    /// At most `limit` names of the devices of `tenant` (``DeviceIdentity/tenant``; `""` for the
    /// devices of none) that come after `after` (a whole stored name), in byte order: a page of a
    /// listing, read by the tenant's index.
    func devices(tenant: String, after: String?, limit: Int) async throws -> [String]

    /// Whether the store has a device of that name.
    func hasDevice(_ device: String) async throws -> Bool

    /// A device's time zone, or `nil` when the device is unknown or has none.
    func timeZone(device: String) async throws -> TimeZone?

    /// The interval of apps that set none: `FetchInterval/never` until changed, as on iOS.
    func defaultInterval() async throws -> FetchInterval

    /// Changes the interval of apps that set none.
    func setDefaultInterval(_ interval: FetchInterval) async throws

    /// The interval of a device's apps that set none: the device's own default, else the store's.
    func defaultInterval(device: String) async throws -> FetchInterval

    /// A device's own push budget; `nil` when it has none (or is not there).
    func wakesPerHour(device: String) async throws -> Int?

    /// Sets the push budget of the devices of `scope` (a tenant's, as `"acme/"`; `""` for the
    /// whole store) that set none of their own; `nil` for none. A device's budget is its own, else
    /// its scope's, else the store's (``PlanningSettings/wakesPerHour``).
    func setDefaultWakesPerHour(_ wakesPerHour: Int?, scope: String) async throws

    /// The push budget of the devices of `scope` that set none; `nil` when it has none.
    func defaultWakesPerHour(scope: String) async throws -> Int?

    /// Changes a device's own settings in one transaction, creating the device when new: its
    /// zone (a new one drops its learned models and bumps its version), the interval of its apps
    /// that set none, its push budget. An empty change creates the device with no zone.
    ///
    /// - Throws: ``StoreError/localTimesReadInZone(device:stored:given:imports:)`` when the zone
    ///   changes and imports of the device read local times in its present zone. Nothing is
    ///   changed then.
    func changeDevice(_ change: DeviceSettingsChange, device: String) async throws

    /// Changes an app's settings in one transaction, creating the device and the app when new,
    /// and returns them as changed; an empty change creates the app with the defaults, or keeps
    /// its settings. Plans kept for the device are made again.
    ///
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the app's name is not usable.
    @discardableResult
    func changeApp(_ change: AppSettingsChange, app: String, device: String) async throws -> AppSettings

    /// The settings of one app; an app the store has never seen has the defaults.
    func settings(app: String, device: String) async throws -> AppSettings

    /// The settings of every app of a device, without counting its events, by name.
    func appSettings(device: String) async throws -> [AppSettings]

    /// What planning needs to know of a device's settings, read at one moment.
    func planningSettings(device: String) async throws -> PlanningSettings
}

extension DeviceSettingsKeeping {
    /// Creates a device with no time zone when there is none of that name.
    public func createDevice(_ device: String) async throws {
        try await changeDevice(DeviceSettingsChange(), device: device)
    }

    /// Sets a device's IANA time zone, creating the device when new; a new zone drops the
    /// device's learned models and bumps its version.
    ///
    /// - Throws: ``StoreError/localTimesReadInZone(device:stored:given:imports:)`` when imports
    ///   of the device read local times in its present zone. Nothing is changed then.
    public func setTimeZone(_ zone: TimeZone, device: String) async throws {
        try await changeDevice(DeviceSettingsChange(timeZone: zone), device: device)
    }

    /// Sets a device's push budget (at most `wakesPerHour` device wakes in any hour of its
    /// plans), creating the device when new; `nil` for none.
    public func setWakesPerHour(_ wakesPerHour: Int?, device: String) async throws {
        try await changeDevice(DeviceSettingsChange(wakesPerHour: .some(wakesPerHour)), device: device)
    }

    /// The push budget a device is planned with (``PlanningSettings/wakesPerHour``), and whose
    /// it is (``BudgetSource/choose(own:tenant:store:)``).
    public func effectiveWakesPerHour(device: String) async throws -> (wakesPerHour: Int?, from: BudgetSource) {
        let scope = DeviceIdentity(stored: device).scope
        return BudgetSource.choose(
            own: try await wakesPerHour(device: device),
            tenant: scope.isEmpty ? nil : try await defaultWakesPerHour(scope: scope),
            store: try await defaultWakesPerHour(scope: ""))
    }

    /// Sets the interval of one device's apps that set none, creating the device when new;
    /// `nil` returns the device to the store's default.
    public func setDefaultInterval(_ interval: FetchInterval?, device: String) async throws {
        try await changeDevice(DeviceSettingsChange(defaultInterval: .some(interval)), device: device)
    }

    /// Creates an app (and its device) with the default settings when there is none of that
    /// name; an app that is there keeps its settings.
    public func createApp(_ app: String, device: String) async throws {
        try await changeApp(AppSettingsChange(), app: app, device: device)
    }

    /// Sets an app's fetch interval, creating the device and the app when new; `nil` returns it
    /// to the default.
    public func setInterval(_ interval: FetchInterval?, app: String, device: String) async throws {
        try await changeApp(AppSettingsChange(interval: .some(interval)), app: app, device: device)
    }

    /// Enables or disables background fetch for an app, creating the device and the app when new.
    public func setEnabled(_ enabled: Bool, app: String, device: String) async throws {
        try await changeApp(AppSettingsChange(enabled: enabled), app: app, device: device)
    }
}

/// Whose push budget a device is planned with.
public enum BudgetSource: String, Sendable, Hashable, Codable {
    /// The device's own.
    case device
    /// Its tenant's, for the devices of the tenant that set none.
    case tenant
    /// The store's, for every device that sets none.
    case store
    /// No budget.
    case none

    /// The push budget a device is planned with, and whose it is: its own, else its tenant's
    /// (its scope's, ``DeviceIdentity/scope``), else the store's. The one statement of the rule:
    /// both stores read the three budgets and choose with it.
    public static func choose(own: Int?, tenant: Int?, store: Int?) -> (wakesPerHour: Int?, from: BudgetSource) {
        if let own { return (own, .device) }
        if let tenant { return (tenant, .tenant) }
        if let store { return (store, .store) }
        return (nil, .none)
    }
}

/// What planning needs to know of a device's settings.
public struct PlanningSettings: Sendable, Hashable {
    /// The interval of the device's apps that set none.
    public var defaultInterval: FetchInterval
    /// The device's zone; `nil` when it has none (or is not there).
    public var timeZone: TimeZone?
    /// Whether the device is in the store at all.
    public var exists: Bool
    /// The settings of the apps that set their own interval or were disabled, by name.
    public var policies: [String: AppSettings]
    /// The device's version: bumped by every write of its events or its zone, by any process.
    public var version: Int64
    /// The device's push budget, at most this many device wakes in any hour: its own, else its
    /// scope's, else the store's (``DeviceSettingsKeeping/setDefaultWakesPerHour(_:scope:)``); `nil` for none.
    public var wakesPerHour: Int?
    /// The name of the forecaster the device is planned with (`Forecasters/named(_:)`); `nil`
    /// for the scheduler's (``FetchScheduler/forecaster``).
    public var forecaster: String?

    /// Creates a value with every field given.
    public init(
        defaultInterval: FetchInterval, timeZone: TimeZone?, exists: Bool, policies: [String: AppSettings],
        version: Int64, wakesPerHour: Int? = nil, forecaster: String? = nil
    ) {
        self.wakesPerHour = wakesPerHour
        self.forecaster = forecaster
        self.defaultInterval = defaultInterval
        self.timeZone = timeZone
        self.exists = exists
        self.policies = policies
        self.version = version
    }
}
