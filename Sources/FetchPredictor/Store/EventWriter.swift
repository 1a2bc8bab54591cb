import GRDB

/// Inserts events inside one write transaction, with the statements prepared once and the ids of
/// devices and apps cached: the fast path of every import and recorder.
///
/// Each insert reports whether it stored the event or found it already there. Events are bound
/// through GRDB's `Statement`, so that GRDB's statement hooks see them; binding them through
/// `sqlite3_bind_*` directly measured no faster in `scripts/bench-import.sh`.
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
        let id = try DeviceRecord.findOrCreate(name, timeZone: newDeviceTimeZone, db)
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
        switch event.kind {
        case .launch:
            insertLaunch.setUncheckedArguments(
                [try appID(event.app, device: device), event.time, event.utcOffset, event.duration])
            try insertLaunch.execute()
        case .fetch:
            insertFetch.setUncheckedArguments(
                [
                    try appID(event.app, device: device), event.time, event.result ?? .failed, event.utcOffset,
                    event.duration, event.bytes,
                ])
            try insertFetch.execute()
        case .unlock, .screenOn, .screenOff:
            insertDeviceEvent.setUncheckedArguments([device, event.kind, event.time, event.utcOffset])
            try insertDeviceEvent.execute()
        }
        guard db.changesCount > 0 else { return false }
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
}
