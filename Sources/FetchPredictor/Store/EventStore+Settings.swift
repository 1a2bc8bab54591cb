import Foundation
import GRDB

extension EventStore {
    /// Sets an app's fetch interval; `nil` returns it to the store's default.
    public func setInterval(_ interval: FetchInterval?, app: String, device: String) throws {
        try updateApp(app, device: device) { $0.interval = interval }
    }

    /// Enables or disables background fetch for an app.
    public func setEnabled(_ enabled: Bool, app: String, device: String) throws {
        try updateApp(app, device: device) { $0.enabled = enabled }
    }

    /// Changes an app's row, creating the device and the app when new.
    private func updateApp(_ app: String, device: String, _ change: (inout AppRecord) -> Void) throws {
        if let problem = EventLimits.problem(withAppName: app) {
            throw RecordError.invalid(field: "app", reason: problem)
        }
        try write { db in
            let deviceID = try DeviceRecord.findOrCreate(device, timeZone: nil, db)
            let id = try AppRecord.findOrCreate(app, device: deviceID, db)
            guard var record = try AppRecord.fetchOne(db, key: id) else { return }
            change(&record)
            try record.update(db)
        }
    }

    /// The settings of one app; an app the store has never seen has the defaults.
    public func settings(app: String, device: String) throws -> AppSettings {
        try read { db in
            let record = try AppRecord.named(app, device: device, db)
            return AppSettings(device: device, app: app, interval: record?.interval, enabled: record?.enabled ?? true)
        }
    }

    /// The interval of apps that set none: ``FetchInterval/never`` until changed, as on iOS.
    public func defaultInterval() throws -> FetchInterval {
        try read { db in try Self.defaultInterval(db, path: path) }
    }

    /// The stored default interval.
    ///
    /// - Throws: ``StoreError/damaged(path:detail:)`` when the stored text is not an interval.
    static func defaultInterval(_ db: Database, path: String) throws -> FetchInterval {
        guard let text = try StoreSettingRecord.value(StoreSettingRecord.defaultInterval, db) else { return .never }
        do {
            return try FetchInterval(parsing: text)
        } catch {
            throw StoreError.damaged(path: path, detail: "the default interval '\(text)' is not an interval")
        }
    }

    /// Changes the interval of apps that set none.
    public func setDefaultInterval(_ interval: FetchInterval) throws {
        try write { db in
            try StoreSettingRecord(key: StoreSettingRecord.defaultInterval, value: interval.text).save(db)
        }
    }

    /// Sets a device's IANA time zone, creating the device when new. Models learned in the old
    /// zone are dropped: their daily profiles are in its local time.
    public func setTimeZone(_ zone: TimeZone, device: String) throws {
        try write { db in
            let id = try DeviceRecord.findOrCreate(device, timeZone: zone.identifier, db)
            try db.execute(sql: "UPDATE device SET timeZone = ? WHERE id = ?", arguments: [zone.identifier, id])
            try db.execute(sql: "DELETE FROM modelCache WHERE deviceId = ?", arguments: [id])
        }
    }

    /// A device's time zone, or `nil` when the device is unknown or has none.
    ///
    /// - Throws: ``StoreError/damaged(path:detail:)`` when the stored name is no known zone.
    public func timeZone(device: String) throws -> TimeZone? {
        try read { db in try Self.timeZone(db, device: device, path: path) }
    }

    static func timeZone(_ db: Database, device: String, path: String) throws -> TimeZone? {
        try DeviceRecord.named(device, db)?.zone(path: path)
    }

    /// The names of the devices in the store, sorted.
    public func devices() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM device ORDER BY name") }
    }
}
