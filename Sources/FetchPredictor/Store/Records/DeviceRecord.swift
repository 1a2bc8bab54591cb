import Foundation
import GRDB

/// A row of the `device` table: a device and its time zone.
struct DeviceRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "device"

    var id: Int64?
    var name: String
    /// The IANA name of the device's zone, or `nil` when none was given.
    var timeZone: String?
    /// Bumped by every write of the device's events.
    var version: Int64 = 0
    /// The interval of the device's apps that set none, as `FetchInterval/text`; `nil` for the
    /// store's default.
    var defaultInterval: String?
    /// The device's push budget: at most this many device wakes in any hour; `nil` for none.
    var wakesPerHour: Int?
    /// The forecaster the device is planned with (`Forecasters/named(_:)`); `nil` for the
    /// scheduler's.
    var forecaster: String?
    /// The device's tenant (``DeviceIdentity/tenant``), `""` for none: read from the name once,
    /// when the device is made, so that SQL finds a tenant's devices by it, never by their names.
    var tenant: String = ""

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The device of that name, or `nil`.
    ///
    /// Reads use SQL rather than the query interface, whose first use in a process reads the
    /// schema: a short-lived `fetchpredict` would pay for it on every query.
    static func named(_ name: String, _ db: Database) throws -> DeviceRecord? {
        try fetchOne(db, sql: "SELECT * FROM device WHERE name = ?", arguments: [name])
    }

    /// The id of the device of that name, created with `timeZone` when new.
    static func findOrCreate(_ name: String, timeZone: String?, _ db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM device WHERE name = ?"), arguments: [name])
        {
            return id
        }
        var record = DeviceRecord(id: nil, name: name, timeZone: timeZone, tenant: DeviceIdentity(stored: name).tenant)
        try record.insert(db)
        // Past the version of every device erased (one of this name may have been).
        if let first = try StoreSettingRecord.value(StoreSettingRecord.firstDeviceVersion, db).flatMap({ Int64($0) }) {
            try db.execute(sql: "UPDATE device SET version = ? WHERE id = ?", arguments: [first, record.id!])
        }
        return record.id!
    }

    /// The device's zone.
    ///
    /// - Throws: ``StoreError/damaged(path:detail:)`` when the stored name is no known zone.
    func zone(path: String) throws -> TimeZone? {
        guard let timeZone else { return nil }
        guard let zone = TimeZone(identifier: timeZone) else {
            throw StoreError.damaged(path: path, detail: "device '\(name)' has the unknown time zone '\(timeZone)'")
        }
        return zone
    }
}
