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

    enum Columns {
        static let deviceId = Column(CodingKeys.deviceId)
        static let name = Column(CodingKeys.name)
        static let interval = Column(CodingKeys.interval)
        static let enabled = Column(CodingKeys.enabled)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The id of the app on the device, created with the default settings when new.
    static func findOrCreate(_ name: String, device: Int64, _ db: Database) throws -> Int64 {
        let existing = filter(Columns.deviceId == device && Columns.name == name).select(Column("id"))
        if let id = try Int64.fetchOne(db, existing) { return id }
        var record = AppRecord(id: nil, deviceId: device, name: name, interval: nil, enabled: true)
        try record.insert(db)
        return record.id!
    }
}

extension AppRecord {
    /// The device the app is on.
    static let device = belongsTo(DeviceRecord.self, using: ForeignKey(["deviceId"]))
}
