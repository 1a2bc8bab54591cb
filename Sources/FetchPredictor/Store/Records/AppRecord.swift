import FetchPredictorCore
import GRDB

/// A row of the `app` table: an app of a device and its own settings.
struct AppRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "app"

    var id: Int64?
    var deviceId: Int64
    var name: String
    /// The interval the app set, or `nil` for the store's default.
    var interval: FetchInterval?
    var enabled: Bool
    /// The app's constraints, as `AppConstraints.storeBits`.
    var constraints: Int16

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The id of the app on the device, created with the default settings when new.
    static func findOrCreate(_ name: String, device: Int64, _ db: Database) throws -> Int64 {
        let existing = "SELECT id FROM app WHERE deviceId = ? AND name = ?"
        if let id = try Int64.fetchOne(db.cachedStatement(sql: existing), arguments: [device, name]) { return id }
        var record = AppRecord(id: nil, deviceId: device, name: name, interval: nil, enabled: true, constraints: 0)
        try record.insert(db)
        return record.id!
    }
}

extension AppRecord {
    /// The app's settings.
    func settings(device: String) -> AppSettings {
        AppSettings(
            device: device, app: name, interval: interval, enabled: enabled,
            constraints: AppConstraints(storeBits: constraints))
    }

    /// The apps of a device by name; with `ownOnly`, only those with a setting of their own
    /// (``StoreRules/appHasOwnSettingSQL``).
    static func all(device: String, ownOnly: Bool = false, _ db: Database) throws -> [AppRecord] {
        try fetchAll(
            db,
            sql: """
                SELECT app.* FROM app JOIN device ON device.id = app.deviceId
                WHERE device.name = ? AND (? = 0 OR \(StoreRules.appHasOwnSettingSQL))
                ORDER BY app.name
                """, arguments: [device, ownOnly])
    }

    /// One app of a device, or `nil`.
    static func named(_ name: String, device: String, _ db: Database) throws -> AppRecord? {
        try fetchOne(
            db,
            sql: "SELECT app.* FROM app JOIN device ON device.id = app.deviceId WHERE device.name = ? AND app.name = ?",
            arguments: [device, name])
    }
}
