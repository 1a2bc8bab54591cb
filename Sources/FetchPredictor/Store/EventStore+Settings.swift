import Foundation
import GRDB

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

    /// Creates a value with every field given.
    public init(device: String, app: String, interval: FetchInterval?, enabled: Bool) {
        self.device = device
        self.app = app
        self.interval = interval
        self.enabled = enabled
    }
}

extension EventStore {
    static let defaultIntervalKey = "defaultInterval"

    /// Records one event: a launch, a fetch result or a device event.
    ///
    /// - Returns: `true` when it was stored, `false` when the same event was there already.
    /// - Throws: ``RecordError`` when the event breaks ``EventLimits``.
    @discardableResult
    public func record(_ event: Event, device: String, newDeviceTimeZone: TimeZone? = nil) throws -> Bool {
        if !event.kind.isDeviceEvent, let problem = EventLimits.problem(withAppName: event.app) {
            throw RecordError.invalid(field: "app", reason: problem)
        }
        if let problem = EventLimits.problem(withTime: event.time) {
            throw RecordError.invalid(field: "time", reason: problem)
        }
        if let duration = event.duration, let problem = EventLimits.problem(withDuration: duration) {
            throw RecordError.invalid(field: "duration", reason: problem)
        }
        if event.kind == .fetch, event.result == nil {
            throw RecordError.invalid(field: "result", reason: "a fetch needs a result")
        }
        return try write { db in
            let writer = try EventWriter(db, newDeviceTimeZone: newDeviceTimeZone?.identifier)
            let stored = try writer.insert(event, device: device)
            try writer.invalidateLearnedModels()
            return stored
        }
    }

    /// Sets an app's fetch interval; `nil` returns it to the store's default.
    public func setInterval(_ interval: FetchInterval?, app: String, device: String) throws {
        try updateApp(app, device: device) { db, id in
            try db.execute(sql: "UPDATE app SET interval = ? WHERE id = ?", arguments: [interval?.text, id])
        }
    }

    /// Enables or disables background fetch for an app.
    public func setEnabled(_ enabled: Bool, app: String, device: String) throws {
        try updateApp(app, device: device) { db, id in
            try db.execute(sql: "UPDATE app SET enabled = ? WHERE id = ?", arguments: [enabled, id])
        }
    }

    private func updateApp(_ app: String, device: String, _ body: (Database, Int64) throws -> Void) throws {
        if let problem = EventLimits.problem(withAppName: app) {
            throw RecordError.invalid(field: "app", reason: problem)
        }
        try write { db in
            let writer = try EventWriter(db, newDeviceTimeZone: nil)
            try body(db, try writer.appID(app, device: writer.deviceID(device)))
        }
    }

    /// The settings of one app; an app the store has never seen has the defaults.
    public func settings(app: String, device: String) throws -> AppSettings {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT app.interval, app.enabled FROM app JOIN device ON device.id = app.deviceId
                    WHERE device.name = ? AND app.name = ?
                    """, arguments: [device, app])
            let interval = (row?["interval"] as String?).flatMap { try? FetchInterval(parsing: $0) }
            return AppSettings(device: device, app: app, interval: interval, enabled: row?["enabled"] ?? true)
        }
    }

    /// The interval of apps that set none: ``FetchInterval/never`` until changed, as on iOS.
    public func defaultInterval() throws -> FetchInterval {
        try read { db in try Self.defaultInterval(db) }
    }

    static func defaultInterval(_ db: Database) throws -> FetchInterval {
        try String.fetchOne(db, sql: "SELECT value FROM storeSetting WHERE key = ?", arguments: [defaultIntervalKey])
            .flatMap { try? FetchInterval(parsing: $0) } ?? .never
    }

    /// Changes the interval of apps that set none.
    public func setDefaultInterval(_ interval: FetchInterval) throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO storeSetting (key, value) VALUES (?, ?)",
                arguments: [Self.defaultIntervalKey, interval.text])
        }
    }

    /// Sets a device's IANA time zone, creating the device when new.
    public func setTimeZone(_ zone: TimeZone, device: String) throws {
        try write { db in
            let id = try EventWriter(db, newDeviceTimeZone: zone.identifier).deviceID(device)
            try db.execute(sql: "UPDATE device SET timeZone = ? WHERE id = ?", arguments: [zone.identifier, id])
        }
    }

    /// A device's time zone, or `nil` when the device is unknown or has none.
    public func timeZone(device: String) throws -> TimeZone? {
        try read { db in try Self.timeZone(db, device: device) }
    }

    static func timeZone(_ db: Database, device: String) throws -> TimeZone? {
        try String.fetchOne(db, sql: "SELECT timeZone FROM device WHERE name = ?", arguments: [device])
            .flatMap(TimeZone.init(identifier:))
    }

    /// The names of the devices in the store, sorted.
    public func devices() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM device ORDER BY name") }
    }
}

/// Why an event or a setting was refused.
public enum RecordError: Error, Sendable, CustomStringConvertible {
    case invalid(field: String, reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalid(let field, let reason): "The \(field) was refused: \(reason)."
        }
    }
}

/// What a prune deleted.
public struct PruneReport: Sendable, Hashable, Codable {
    /// Launches deleted.
    public var launches: Int
    /// Fetch results deleted.
    public var fetches: Int
    /// Device events (unlocks, screen on and off).
    public var deviceEvents: Int
    /// Events of every kind.
    public var total: Int { launches + fetches + deviceEvents }
}

extension EventStore {
    /// Deletes for good every event before an instant, of one device or of all, and the learned
    /// models that remember them; the file's freed pages are given back to the system.
    ///
    /// - Returns: how many events were deleted, by kind.
    public func prune(before time: Milliseconds, device: String? = nil) throws -> PruneReport {
        let report = try write { db -> PruneReport in
            let scope = "(SELECT app.id FROM app JOIN device ON device.id = app.deviceId WHERE ?2 IS NULL OR device.name = ?2)"
            try db.execute(sql: "DELETE FROM launch WHERE time < ?1 AND appId IN \(scope)", arguments: [time, device])
            let launches = db.changesCount
            try db.execute(sql: "DELETE FROM fetch WHERE time < ?1 AND appId IN \(scope)", arguments: [time, device])
            let fetches = db.changesCount
            try db.execute(
                sql: """
                    DELETE FROM deviceEvent WHERE time < ?1
                    AND deviceId IN (SELECT id FROM device WHERE ?2 IS NULL OR name = ?2)
                    """, arguments: [time, device])
            let deviceEvents = db.changesCount
            // Apps left with no event and no setting of their own go too: their names are data.
            try db.execute(
                sql: """
                    DELETE FROM app WHERE interval IS NULL AND enabled = 1
                    AND NOT EXISTS (SELECT 1 FROM launch WHERE appId = app.id)
                    AND NOT EXISTS (SELECT 1 FROM fetch WHERE appId = app.id)
                    """)
            try db.execute(
                sql: "DELETE FROM modelCache WHERE deviceId IN (SELECT id FROM device WHERE ?1 IS NULL OR name = ?1)",
                arguments: [device])
            return PruneReport(launches: launches, fetches: fetches, deviceEvents: deviceEvents)
        }
        // Deleted rows would otherwise linger in free pages of the file.
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
        }
        return report
    }
}
