import GRDB

/// A row of the `storeSetting` table: one setting of the whole store, by key.
struct StoreSettingRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "storeSetting"

    var key: String
    var value: String

    /// The key of the interval of apps that set none.
    static let defaultInterval = "defaultInterval"

    /// The value of a setting, or `nil` when it was never set.
    static func value(_ key: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM storeSetting WHERE key = ?", arguments: [key])
    }
}
