import GRDB

/// A row of the `storeSetting` table: one setting of the whole store, by key.
struct StoreSettingRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "storeSetting"

    var key: String
    var value: String

    /// The key of the interval of apps that set none.
    static let defaultInterval = "defaultInterval"

    /// The key of a scope's push budget, followed by the scope (`""` for the whole store's).
    static let defaultWakesPerHour = "defaultWakesPerHour:"

    /// The key of the planning settings the kept wakes were planned with: other settings plan
    /// them all again.
    static let wakePlanning = "wakePlanning"

    /// The key of the last import id given: ids are never given twice, also after the import
    /// with the highest id was pruned (SQLite would give its rowid again).
    static let lastImportID = "lastImportID"

    /// The id of a new import: one more than any given before, by this version (the key above)
    /// or an earlier one (the log's highest id); recorded as given.
    static func nextImportID(_ db: Database) throws -> Int64 {
        let recorded = try value(lastImportID, db).flatMap { Int64($0) } ?? 0
        let logged = try Int64.fetchOne(db, sql: "SELECT max(id) FROM importLog") ?? 0
        let next = max(recorded, logged) + 1
        try StoreSettingRecord(key: lastImportID, value: String(next)).save(db)
        return next
    }

    /// The key of the version a new device starts at: past every version of a device erased,
    /// so that a process holding the model of an erased device never takes a new device of the
    /// same name for it.
    static let firstDeviceVersion = "firstDeviceVersion"

    /// Notes that a device at `version` was erased: devices made from now on start past it.
    static func erased(version: Int64, _ db: Database) throws {
        let first = try value(firstDeviceVersion, db).flatMap { Int64($0) } ?? 0
        try StoreSettingRecord(key: firstDeviceVersion, value: String(max(first, version + 1))).save(db)
    }

    /// The value of a setting, or `nil` when it was never set.
    static func value(_ key: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM storeSetting WHERE key = ?", arguments: [key])
    }
}
