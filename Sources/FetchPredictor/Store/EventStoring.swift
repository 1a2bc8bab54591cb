import FetchPredictorImport
import Foundation

/// What the predictor, the HTTP service and the commands need of an event store: the embedded
/// SQLite ``EventStore`` and the PostgreSQL store of a fleet both are one, and the same events
/// give the same answers from either.
///
/// The calls are synchronous, as SQLite's are: a store that talks to a server over the network
/// waits for it on the calling thread, so an async caller runs them off the cooperative pool
/// (the service runs them on NIO's thread pool).
///
/// ## Topics
/// - ``record(_:device:)``
/// - ``planningSettings(device:)``
/// - ``forEachEvent(device:after:through:_:)``
public protocol EventStoring: WakeKeeping {
    /// Where the store is, for logs and messages: a file's path, or a server's address without
    /// its password.
    var location: String { get }

    // MARK: Events

    /// Records a batch of events of one device, all or none: when one breaks `EventLimits`,
    /// nothing is stored and the error names its position in the batch. The device is created
    /// (with no time zone) when new; an event's own `device` is ignored. A stored event bumps the
    /// device's version; an event older than a cached model drops that model.
    ///
    /// - Throws: ``InvalidFieldError/invalidInBatch(index:field:reason:)`` for the first invalid event.
    @discardableResult
    func record(_ events: [Event], device: String) throws -> RecordedBatch

    /// Whether a device has a launch or fetch after `time`, up to `end` (included).
    func hasEvents(device: String, after time: Milliseconds, through end: Milliseconds) throws -> Bool

    /// Calls `body` with every launch and fetch of a device after `time`, up to `end` (included),
    /// in time order, a launch before a fetch at the same instant, then by app (in byte order):
    /// the order ``FetchScheduler`` learns in.
    func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds, _ body: (Event) throws -> Void) throws

    /// Every app of a device (or of all devices), with its settings and event counts, sorted by
    /// device, then by launches (most first), then by name, names in byte order.
    ///
    /// As of a time, only the events up to it (included) are counted, and apps with none of them
    /// and no setting of their own are left out: the answer of a store holding only those events.
    func apps(device: String?, asOf time: Date?) throws -> [AppSummary]

    /// Calls `body` with the stored events of one device (or of all), of every kind, each naming
    /// its device, ordered by device, time, kind (by name) and app, names in byte order: what
    /// `fetchpredict export` writes. Memory stays flat however many there are.
    ///
    /// - Parameters:
    ///   - device: the device; `nil` for every device.
    ///   - start: the earliest time kept (included); `nil` for no bound.
    ///   - end: the time events must be before; `nil` for no bound.
    ///   - body: called with each event, in that order.
    func forEachStoredEvent(
        device: String?, from start: Milliseconds?, to end: Milliseconds?, _ body: (Event) throws -> Void) throws

    // MARK: Imports

    /// Imports one log file in one transaction: all of it or, when it has an invalid row, none
    /// (unless `ImportOptions/skipInvalid`). The same event imported twice is stored once; the
    /// same file (by SHA-256) read another way is refused while an earlier import of it holds
    /// events; every event stored keeps the id of its import. Local times are read in
    /// `ImportOptions/timeZone`, else the device's zone, and are refused when neither is known.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - options: format, device, time zone, and what to do with invalid rows.
    ///   - now: the time written in the import log.
    ///   - progress: called as the file is read, with the bytes read and the file's size.
    ///   - onReject: called with every refused row.
    /// - Throws: `ImportError` when the file cannot be read or has invalid rows;
    ///   ``StoreError`` when the store fails, the zone contradicts the device's, or the file was
    ///   imported before and read otherwise.
    func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: ((Int64, Int64) -> Void)?,
        onReject: ((Rejection) -> Void)?
    ) throws -> ImportReport
    /// The import log, oldest first, with how many of each import's events the store still holds.
    func imports() throws -> [ImportSummary]
    /// Deletes for good every event before an instant, of one device or of all, and the learned
    /// models that remember them.
    ///
    /// - Parameters:
    ///   - time: events before it go.
    ///   - device: the device; `nil` for every device.
    ///   - dryRun: count what would go, and change nothing.
    func prune(before time: Milliseconds, device: String?, dryRun: Bool) throws -> PruneReport
    /// Deletes for good exactly the events one import stored, and the import from the log, so
    /// that its file can be imported again, read another way. An event a later import (or
    /// `record`) also held stays, passed to the earliest such import, and counts as
    /// ``PruneReport/kept``.
    ///
    /// - Throws: ``StoreError/unknownImport(_:)`` when there is no such import.
    func prune(importID: Int64, dryRun: Bool) throws -> PruneReport
    /// Moves a device to another zone and reads its imports of local times again in it, in one
    /// transaction: each such import's events are deleted (as ``prune(importID:dryRun:)`` does)
    /// and its file read again, with the same format, date order and settings, as a new import;
    /// events of instants stay. Each file must be where it was imported from, unchanged.
    ///
    /// - Returns: the new imports, in the order of the old.
    /// - Throws: ``StoreError/unknownDevice(_:)``; ``StoreError/importedFileChanged(path:importID:)``
    ///   or the import's own error when a file is gone, changed or now refused; then nothing changes.
    func reread(device: String, in zone: TimeZone, now: Date) throws -> [ImportReport]
    /// Erases a device for good, in one transaction: its events, apps, settings, learned models
    /// and import records, and the device itself (a person's right to erasure). A device made
    /// later under its name starts anew, and a process that held its model learns it again.
    ///
    /// - Throws: ``StoreError/unknownDevice(_:)`` when there is no such device.
    func eraseDevice(_ device: String, dryRun: Bool) throws -> PruneReport

    // MARK: Devices and settings

    /// The names of the devices in the store, in byte order.
    func devices() throws -> [String]
    /// At most `limit` names of devices that begin with `prefix` and come after `after` (a whole
    /// name, prefix included), in byte order: a page of a listing.
    func devices(prefix: String, after: String?, limit: Int) throws -> [String]
    /// Whether the store has a device of that name.
    func hasDevice(_ device: String) throws -> Bool
    /// A device's time zone, or `nil` when the device is unknown or has none.
    func timeZone(device: String) throws -> TimeZone?
    /// The interval of apps that set none: `FetchInterval/never` until changed, as on iOS.
    func defaultInterval() throws -> FetchInterval
    /// Changes the interval of apps that set none.
    func setDefaultInterval(_ interval: FetchInterval) throws
    /// The interval of a device's apps that set none: the device's own default, else the store's.
    func defaultInterval(device: String) throws -> FetchInterval
    /// A device's own push budget; `nil` when it has none (or is not there).
    func wakesPerHour(device: String) throws -> Int?
    /// Sets the push budget of the devices of `scope` (a tenant's, as `"acme/"`; `""` for the
    /// whole store) that set none of their own; `nil` for none. A device's budget is its own, else
    /// its scope's, else the store's (``PlanningSettings/wakesPerHour``).
    func setDefaultWakesPerHour(_ wakesPerHour: Int?, scope: String) throws
    /// The push budget of the devices of `scope` that set none; `nil` when it has none.
    func defaultWakesPerHour(scope: String) throws -> Int?
    /// Changes a device's own settings in one transaction, creating the device when new: its
    /// zone (a new one drops its learned models and bumps its version), the interval of its apps
    /// that set none, its push budget. An empty change creates the device with no zone.
    ///
    /// - Throws: ``StoreError/localTimesReadInZone(device:stored:given:imports:)`` when the zone
    ///   changes and imports of the device read local times in its present zone. Nothing is
    ///   changed then.
    func changeDevice(_ change: DeviceSettingsChange, device: String) throws
    /// Changes an app's settings in one transaction, creating the device and the app when new,
    /// and returns them as changed; an empty change creates the app with the defaults, or keeps
    /// its settings. Plans kept for the device are made again.
    ///
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the app's name is not usable.
    @discardableResult
    func changeApp(_ change: AppSettingsChange, app: String, device: String) throws -> AppSettings
    /// The settings of one app; an app the store has never seen has the defaults.
    func settings(app: String, device: String) throws -> AppSettings
    /// The settings of every app of a device, without counting its events, by name.
    func appSettings(device: String) throws -> [AppSettings]

    // MARK: Learning

    /// What planning needs to know of a device's settings, read at one moment.
    func planningSettings(device: String) throws -> PlanningSettings
    /// The learned model of a device cached in the store, with all its apps or only those named,
    /// and the time of the last event it learned from; `nil` when there is none for this
    /// configuration key, or the device's zone changed since.
    func cachedModel(device: String, configuration key: String, apps only: [String]?) throws -> CachedModel?
    /// Caches a device's learned model, unless the device is gone, in another zone, or written
    /// since `version` (the version it was learned at): a model that may have missed an event
    /// stored meanwhile, by any process, is not kept.
    func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64) throws
    /// Forgets every cached learned model: the next scheduler learns from all events again.
    func dropLearnedModels() throws

    // MARK: Keys of the HTTP service

    /// Makes a new API key for a tenant and returns it: the only time the key is seen, since
    /// the store keeps only its SHA-256.
    ///
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the tenant name is not usable.
    func createKey(tenant: String, now: Date) throws -> (key: String, info: APIKeyInfo)
    /// Every key made, valid or revoked, in the order made.
    func keys() throws -> [APIKeyInfo]
    /// Revokes a key: from now on it is refused.
    ///
    /// - Returns: `false` when it was revoked already.
    /// - Throws: ``StoreError/unknownKey(_:)`` when there is no key of that number.
    @discardableResult
    func revokeKey(id: Int64, now: Date) throws -> Bool
    /// The tenant a key speaks for, or `nil` when it is no key of this store or was revoked.
    func tenant(forKey key: String) throws -> String?

    /// Reads the store once: for a service's readiness check.
    func check() throws
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
    /// scope's, else the store's (``EventStoring/setDefaultWakesPerHour(_:scope:)``); `nil` for none.
    public var wakesPerHour: Int?

    /// Creates a value with every field given.
    public init(
        defaultInterval: FetchInterval, timeZone: TimeZone?, exists: Bool, policies: [String: AppSettings],
        version: Int64, wakesPerHour: Int? = nil
    ) {
        self.wakesPerHour = wakesPerHour
        self.defaultInterval = defaultInterval
        self.timeZone = timeZone
        self.exists = exists
        self.policies = policies
        self.version = version
    }
}

/// A learned model as a store caches it: the model, and the time of the last event it learned.
public struct CachedModel: Sendable {
    /// The time of the last event the model learned from.
    public var asOf: Milliseconds
    /// The model, in the device's zone.
    public var model: DeviceModel

    /// Creates a value with every field given.
    public init(asOf: Milliseconds, model: DeviceModel) {
        self.asOf = asOf
        self.model = model
    }
}

extension EventStoring {
    /// Whether a device has a launch or fetch after `time`.
    public func hasEvents(device: String, after time: Milliseconds) throws -> Bool {
        try hasEvents(device: device, after: time, through: .max)
    }

    /// Every launch and fetch of a device after `time`, in learning order.
    public func forEachEvent(device: String, after time: Milliseconds, _ body: (Event) throws -> Void) throws {
        try forEachEvent(device: device, after: time, through: .max, body)
    }

    /// The learned model of a device cached in the store, with all its apps.
    public func cachedModel(device: String, configuration key: String) throws -> CachedModel? {
        try cachedModel(device: device, configuration: key, apps: nil)
    }

    /// Every app of every device, counting every event.
    public func apps() throws -> [AppSummary] { try apps(device: nil, asOf: nil) }

    /// Every app of a device, counting every event.
    public func apps(device: String) throws -> [AppSummary] { try apps(device: device, asOf: nil) }

    /// Imports one log file; see ``importFile(_:options:now:progress:onReject:)``.
    public func importFile(_ path: String, options: ImportOptions, now: Date) throws -> ImportReport {
        try importFile(path, options: options, now: now, progress: nil, onReject: nil)
    }

    /// Deletes for good exactly the events one import stored; see ``prune(importID:dryRun:)``.
    public func prune(importID: Int64) throws -> PruneReport { try prune(importID: importID, dryRun: false) }

    /// Deletes for good every event before an instant, of one device or of all (`nil`).
    public func prune(before time: Milliseconds, device: String?) throws -> PruneReport {
        try prune(before: time, device: device, dryRun: false)
    }

    /// Every event of a device in time order (then by kind and app), each naming no device.
    public func events(device: String) throws -> [Event] {
        var events: [Event] = []
        try forEachStoredEvent(device: device, from: nil, to: nil) { event in
            var event = event
            event.device = nil
            events.append(event)
        }
        return events
    }

    /// The launches of some of the store's devices, as the backtest replays them, each in its
    /// own zone.
    ///
    /// - Parameters:
    ///   - names: the devices; `nil` for every device of the store.
    ///   - timeZone: the zone the caller expects the devices in; `nil` for each device's own.
    /// - Throws: ``StoreError/noTimeZone(device:)`` for a device with no zone, and
    ///   ``StoreError/timeZoneConflict(device:stored:given:)`` when `timeZone` is not its zone:
    ///   habits are never read in a zone the device was not in.
    public func backtestDevices(_ names: [String]? = nil, timeZone: TimeZone? = nil) throws -> [BacktestDevice] {
        try (names ?? devices()).map { name in
            guard let zone = try self.timeZone(device: name) else { throw StoreError.noTimeZone(device: name) }
            try StoreRules.checkZone(timeZone, of: name, against: zone)
            let events = try events(device: name)
            return BacktestDevice(
                name: name, timeZone: zone, launches: events.filter { $0.kind == .launch },
                deviceEvents: events.filter { $0.kind.isDeviceEvent || $0.kind == .notification })
        }
    }

    /// Records one event of a device, created when new.
    ///
    /// - Returns: `true` when it was stored, `false` when the same event was there already.
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the event breaks `EventLimits`.
    @discardableResult
    public func record(_ event: Event, device: String) throws -> Bool {
        if let (field, reason) = StoreRules.problem(with: event, timeField: "time") {
            throw InvalidFieldError.invalid(field: field, reason: reason)
        }
        return try record([event], device: device).stored == 1
    }
}

/// The API keys of the HTTP service: what every store makes and checks the same way.
package enum APIKeyText {
    /// A new key: `fpk_` and 64 hex digits of the system's random generator.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "fpk_" + bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The hex SHA-256 of a key: what a store keeps.
    package static func digest(_ key: String) -> String {
        Digest.sha256Hex(Array(key.utf8))
    }
}

extension EventStoring {
    /// Creates a device with no time zone when there is none of that name.
    public func createDevice(_ device: String) throws {
        try changeDevice(DeviceSettingsChange(), device: device)
    }

    /// Sets a device's IANA time zone, creating the device when new; a new zone drops the
    /// device's learned models and bumps its version.
    ///
    /// - Throws: ``StoreError/localTimesReadInZone(device:stored:given:imports:)`` when imports
    ///   of the device read local times in its present zone. Nothing is changed then.
    public func setTimeZone(_ zone: TimeZone, device: String) throws {
        try changeDevice(DeviceSettingsChange(timeZone: zone), device: device)
    }

    /// Sets a device's push budget (at most `wakesPerHour` device wakes in any hour of its
    /// plans), creating the device when new; `nil` for none.
    public func setWakesPerHour(_ wakesPerHour: Int?, device: String) throws {
        try changeDevice(DeviceSettingsChange(wakesPerHour: .some(wakesPerHour)), device: device)
    }

    /// Sets the interval of one device's apps that set none, creating the device when new;
    /// `nil` returns the device to the store's default.
    public func setDefaultInterval(_ interval: FetchInterval?, device: String) throws {
        try changeDevice(DeviceSettingsChange(defaultInterval: .some(interval)), device: device)
    }

    /// Creates an app (and its device) with the default settings when there is none of that
    /// name; an app that is there keeps its settings.
    public func createApp(_ app: String, device: String) throws {
        try changeApp(AppSettingsChange(), app: app, device: device)
    }

    /// Sets an app's fetch interval, creating the device and the app when new; `nil` returns it
    /// to the default.
    public func setInterval(_ interval: FetchInterval?, app: String, device: String) throws {
        try changeApp(AppSettingsChange(interval: .some(interval)), app: app, device: device)
    }

    /// Enables or disables background fetch for an app, creating the device and the app when new.
    public func setEnabled(_ enabled: Bool, app: String, device: String) throws {
        try changeApp(AppSettingsChange(enabled: enabled), app: app, device: device)
    }
}
