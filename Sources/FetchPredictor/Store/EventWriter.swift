import GRDB
import GRDBSQLite

/// Inserts events inside one write transaction, with the statements prepared once and the ids of
/// devices and apps cached: the fast path of every import and recorder.
///
/// Each insert reports whether it stored the event or found it already there.
final class EventWriter {
    private let db: Database
    private let insertLaunch: Statement
    private let insertFetch: Statement
    private let insertDeviceEvent: Statement
    private var deviceIDs: [String: Int64] = [:]
    private var appIDs: [AppKey: Int64] = [:]
    /// The earliest event stored per device, to drop learned models that missed it.
    private(set) var earliestStored: [Int64: Milliseconds] = [:]
    /// The time zone given to devices this writer creates.
    private let newDeviceTimeZone: String?

    private struct AppKey: Hashable {
        var device: Int64
        var name: String
    }

    init(_ db: Database, newDeviceTimeZone: String?) throws {
        self.db = db
        self.newDeviceTimeZone = newDeviceTimeZone
        insertLaunch = try db.makeStatement(
            sql: "INSERT OR IGNORE INTO launch (appId, time, utcOffset, duration) VALUES (?, ?, ?, ?)")
        insertFetch = try db.makeStatement(
            sql: """
                INSERT OR IGNORE INTO fetch (appId, time, result, utcOffset, duration, bytes)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        insertDeviceEvent = try db.makeStatement(
            sql: "INSERT OR IGNORE INTO deviceEvent (deviceId, kind, time, utcOffset) VALUES (?, ?, ?, ?)")
    }

    /// The id of the device, created when new.
    func deviceID(_ name: String) throws -> Int64 {
        if let id = deviceIDs[name] { return id }
        let id: Int64
        if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [name]) {
            id = existing
        } else {
            try db.execute(
                sql: "INSERT INTO device (name, timeZone) VALUES (?, ?)", arguments: [name, newDeviceTimeZone])
            id = db.lastInsertedRowID
        }
        deviceIDs[name] = id
        return id
    }

    /// The id of the app on the device, created when new.
    func appID(_ name: String, device: Int64) throws -> Int64 {
        let key = AppKey(device: device, name: name)
        if let id = appIDs[key] { return id }
        let id: Int64
        if let existing = try Int64.fetchOne(
            db, sql: "SELECT id FROM app WHERE deviceId = ? AND name = ?", arguments: [device, name])
        {
            id = existing
        } else {
            try db.execute(sql: "INSERT INTO app (deviceId, name) VALUES (?, ?)", arguments: [device, name])
            id = db.lastInsertedRowID
        }
        appIDs[key] = id
        return id
    }

    /// Stores one event; returns `true` when it was new, `false` when it was there already.
    func insert(_ event: Event, device defaultDevice: String) throws -> Bool {
        let device = try deviceID(event.device ?? defaultDevice)
        let statement: Statement
        switch event.kind {
        case .launch:
            statement = insertLaunch
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, try appID(event.app, device: device))
            sqlite3_bind_int64(handle, 2, event.time)
            bind(handle, 3, event.utcOffset)
            bind(handle, 4, event.duration)
        case .fetch:
            statement = insertFetch
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, try appID(event.app, device: device))
            sqlite3_bind_int64(handle, 2, event.time)
            let result = (event.result ?? .failed).rawValue
            sqlite3_bind_text(handle, 3, result, -1, SQLITE_TRANSIENT_VALUE)
            bind(handle, 4, event.utcOffset)
            bind(handle, 5, event.duration)
            bind(handle, 6, event.bytes)
        case .unlock, .screenOn, .screenOff:
            statement = insertDeviceEvent
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, device)
            sqlite3_bind_text(handle, 2, event.kind.rawValue, -1, SQLITE_TRANSIENT_VALUE)
            sqlite3_bind_int64(handle, 3, event.time)
            bind(handle, 4, event.utcOffset)
        }
        let handle = statement.sqliteStatement
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        guard sqlite3_changes(db.sqliteConnection) > 0 else { return false }
        if event.kind == .launch || event.kind == .fetch, event.time < earliestStored[device] ?? .max {
            earliestStored[device] = event.time
        }
        return true
    }

    /// Drops the learned models that did not see the events this writer stored.
    func invalidateLearnedModels() throws {
        for (device, time) in earliestStored {
            try db.execute(sql: "DELETE FROM modelCache WHERE deviceId = ? AND asOf >= ?", arguments: [device, time])
        }
    }

    private func bind(_ handle: OpaquePointer, _ index: Int32, _ value: Int?) {
        if let value { sqlite3_bind_int64(handle, index, Int64(value)) } else { sqlite3_bind_null(handle, index) }
    }

    private func bind(_ handle: OpaquePointer, _ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    private func bind(_ handle: OpaquePointer, _ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }
}

/// SQLite's SQLITE_TRANSIENT, which the C macro defines and Swift cannot import.
private let SQLITE_TRANSIENT_VALUE = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
