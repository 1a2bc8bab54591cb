import GRDB
import GRDBSQLite

/// Inserts events inside one write transaction, with the statements prepared once a connection
/// (GRDB's cached statements) and the ids of devices and apps cached: the fast path of every
/// import and recorder. Preparing them for each batch, the kept wake's triggers compiled into
/// each, was most of a small batch's work.
///
/// Each insert reports whether it stored the event or found it already there.
///
/// Events are bound with `sqlite3_bind_*` on GRDB's prepared statements, not through
/// `Statement.setUncheckedArguments`: GRDB's arguments (an array of `DatabaseValue` a row) made
/// the import of 1,000,000 events 1.26 times as long in `scripts/bench-import.sh`'s measure. The
/// inserts so bypass GRDB's statement hooks; the store registers no transaction observer, and
/// every other statement goes through GRDB.
final class EventWriter {
    private let db: Database
    private let insertLaunch: Statement
    private let insertFetch: Statement
    private let insertDeviceEvent: Statement
    private let insertNotification: Statement
    /// Notes, per event table (in the order of ``HeldEvent/tables``), that this import (or
    /// `record`) also holds an event an import stored.
    private let noteAlsoImported: [Statement]
    private var deviceIDs: [String: Int64] = [:]
    private var appIDs: [AppKey: Int64] = [:]
    /// What this writer stored, for what follows a write of events.
    private(set) var stored = StoredEvents()
    /// The time zone given to one device, when this writer creates it; other devices it
    /// creates (named by a file's rows) get none: no zone is assumed for them.
    private let newDeviceTimeZone: (device: String, zone: String)?
    /// The import whose events these are, written into every row; `nil` for recorded events.
    private let importID: Int64?

    private struct AppKey: Hashable {
        var device: Int64
        var name: String
    }

    /// - Parameters:
    ///   - db: the connection, inside a write transaction.
    ///   - newDeviceTimeZone: a device and its zone, given to it if this writer creates it.
    ///   - importID: the import log row of the events; `nil` for recorded ones.
    init(_ db: Database, newDeviceTimeZone: (device: String, zone: String)?, importID: Int64? = nil) throws {
        self.db = db
        self.newDeviceTimeZone = newDeviceTimeZone
        self.importID = importID
        insertLaunch = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO launch (appId, time, utcOffset, duration, importId) VALUES (?, ?, ?, ?, ?)")
        insertFetch = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO fetch (appId, time, result, utcOffset, duration, bytes, importId)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        insertNotification = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO notification (appId, time, utcOffset, importId) VALUES (?, ?, ?, ?)")
        insertDeviceEvent = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO deviceEvent (deviceId, kind, time, utcOffset, importId, value)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        noteAlsoImported = try HeldEvent.tables.map { held in
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO alsoImported (event, ownerId, time, importId)
                    SELECT \(held.codeSQL), \(held.owner), time, ?1 FROM \(held.table)
                    WHERE \(held.owner) = ?2 AND time = ?3 AND importId != ?1\(held.kind.map { " AND \($0) = ?4" } ?? "")
                    """)
        }
    }

    /// The id of the device, created when new.
    func deviceID(_ name: String) throws -> Int64 {
        if let id = deviceIDs[name] { return id }
        let zone = newDeviceTimeZone.flatMap { $0.device == name ? $0.zone : nil }
        let id = try DeviceRecord.findOrCreate(name, timeZone: zone, db)
        deviceIDs[name] = id
        return id
    }

    /// The id of the app on the device, created when new.
    func appID(_ name: String, device: Int64) throws -> Int64 {
        let key = AppKey(device: device, name: name)
        if let id = appIDs[key] { return id }
        let id = try AppRecord.findOrCreate(name, device: device, db)
        appIDs[key] = id
        return id
    }

    /// Stores one event; returns `true` when it was new, `false` when it was there already.
    func insert(_ event: Event, device defaultDevice: String) throws -> Bool {
        let device = try deviceID(event.device ?? defaultDevice)
        let statement: Statement
        // The event's table, as its index in HeldEvent.tables: launch, fetch, notification, device.
        let table: Int
        var owner = device
        switch event.kind {
        case .launch:
            statement = insertLaunch
            table = 0
            owner = try appID(event.app, device: device)
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, owner)
            sqlite3_bind_int64(handle, 2, event.time)
            bind(handle, 3, event.utcOffset.map(Int64.init))
            bind(handle, 4, event.duration)
            bind(handle, 5, importID)
        case .fetch:
            statement = insertFetch
            table = 1
            owner = try appID(event.app, device: device)
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, owner)
            sqlite3_bind_int64(handle, 2, event.time)
            sqlite3_bind_text(handle, 3, (event.result ?? .failed).rawValue, -1, transient)
            bind(handle, 4, event.utcOffset.map(Int64.init))
            bind(handle, 5, event.duration)
            bind(handle, 6, event.bytes)
            bind(handle, 7, importID)
        case .notification:
            statement = insertNotification
            table = 2
            owner = try appID(event.app, device: device)
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, owner)
            sqlite3_bind_int64(handle, 2, event.time)
            bind(handle, 3, event.utcOffset.map(Int64.init))
            bind(handle, 4, importID)
        case .unlock, .screenOn, .screenOff, .powerConnected, .powerDisconnected, .battery, .network, .lowPowerOn,
            .lowPowerOff:
            statement = insertDeviceEvent
            table = 3
            let handle = statement.sqliteStatement
            sqlite3_bind_int64(handle, 1, device)
            sqlite3_bind_text(handle, 2, event.kind.rawValue, -1, transient)
            sqlite3_bind_int64(handle, 3, event.time)
            bind(handle, 4, event.utcOffset.map(Int64.init))
            bind(handle, 5, importID)
            if let value = event.value {
                sqlite3_bind_text(handle, 6, value, -1, transient)
            } else {
                sqlite3_bind_null(handle, 6)
            }
        }
        try step(statement)
        guard sqlite3_changes(db.sqliteConnection) > 0 else {
            let note = noteAlsoImported[table]
            let handle = note.sqliteStatement
            // 0 stands for `record`: an event recorded outlives the import that stored it.
            sqlite3_bind_int64(handle, 1, importID ?? 0)
            sqlite3_bind_int64(handle, 2, owner)
            sqlite3_bind_int64(handle, 3, event.time)
            if HeldEvent.tables[table].kind != nil { sqlite3_bind_text(handle, 4, event.kind.rawValue, -1, transient) }
            try step(note)
            return false
        }
        stored.stored(event.kind, at: event.time, device: device)
        return true
    }

    /// Runs a statement whose arguments are bound, and resets it.
    private func step(_ statement: Statement) throws {
        let handle = statement.sqliteStatement
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    private func bind(_ handle: OpaquePointer, _ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    private func bind(_ handle: OpaquePointer, _ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Drops the learned models that did not see the events this writer stored, and bumps the
    /// version of every device written (``StoreRules/afterStoring(_:in:)``); returns the new
    /// versions by device id.
    @discardableResult
    func invalidateLearnedModels() throws -> [Int64: Int64] {
        let stored = self.stored
        return try Blocking.onThisThread { try await StoreRules.afterStoring(stored, in: self) }
    }
}

extension EventWriter: StoredEventsFollowing {
    func dropCachedModels(device: Int64, learnedFrom time: Milliseconds) throws {
        try db.cachedStatement(sql: "DELETE FROM modelCache WHERE deviceId = ? AND asOf >= ?")
            .execute(arguments: [device, time])
    }

    func bumpVersions(of devices: [Int64], scored: [Int64: ClosedRange<Milliseconds>]) throws -> [Int64: Int64] {
        var versions: [Int64: Int64] = [:]
        // min() and max() of a NULL are NULL: a device with no mark takes the batch's, a batch
        // with no launch or fetch leaves the mark as it was.
        let bump = try db.cachedStatement(
            sql: """
                UPDATE device SET version = version + 1,
                    freshnessFrom = coalesce(min(freshnessFrom, ?2), ?2, freshnessFrom),
                    freshnessThrough = coalesce(max(freshnessThrough, ?3), ?3, freshnessThrough)
                WHERE id = ?1 RETURNING version
                """)
        for device in devices {
            let range = scored[device]
            versions[device] = try Int64.fetchOne(bump, arguments: [device, range?.lowerBound, range?.upperBound])
        }
        return versions
    }
}

/// SQLite's SQLITE_TRANSIENT, which the C macro defines and Swift cannot import: SQLite copies
/// the text before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
