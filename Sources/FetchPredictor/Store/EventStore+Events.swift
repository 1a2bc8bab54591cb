import Foundation
import GRDB

extension EventStore {
    /// Records one event: a launch, a fetch result or a device event.
    ///
    /// - Parameters:
    ///   - event: what happened.
    ///   - device: the device it happened on, created when new.
    ///   - newDeviceTimeZone: the zone given to the device when this creates it.
    /// - Returns: `true` when it was stored, `false` when the same event was there already.
    /// - Throws: ``InvalidFieldError`` when the event breaks `EventLimits`.
    @discardableResult
    public func record(_ event: Event, device: String, newDeviceTimeZone: TimeZone? = nil) throws -> Bool {
        if let (field, reason) = EventLimits.problem(with: event, timeField: "time") {
            throw InvalidFieldError.invalid(field: field, reason: reason)
        }
        return try write { db in
            let writer = try EventWriter(db, newDeviceTimeZone: newDeviceTimeZone.map { (device, $0.identifier) })
            let stored = try writer.insert(event, device: device)
            try writer.invalidateLearnedModels()
            return stored
        }
    }

    /// Records a batch of events of one device, all or none: when one breaks `EventLimits`,
    /// nothing is stored and the error names its position in the batch.
    ///
    /// - Parameters:
    ///   - events: what happened, in any order; an event's own `device` is ignored.
    ///   - device: the device they happened on, created (with no time zone) when new.
    /// - Returns: how many were stored and how many were there already.
    /// - Throws: ``InvalidFieldError/invalidInBatch(index:field:reason:)`` for the first invalid event.
    @discardableResult
    public func record(_ events: [Event], device: String) throws -> RecordedBatch {
        try StoreRules.checkBatch(events)
        return try write { db in try Self.store(events, device: device, db) }
    }

    /// `record(_:device:)` of a batch for async callers: written on GRDB's queue, the caller
    /// suspended meanwhile (and while another process's write holds the file).
    @discardableResult
    public func record(_ events: [Event], device: String) async throws -> RecordedBatch {
        try StoreRules.checkBatch(events)
        return try await write { db in try Self.store(events, device: device, db) }
    }

    /// Stores a batch checked already, in the caller's write transaction.
    private static func store(_ events: [Event], device: String, _ db: Database) throws -> RecordedBatch {
        let writer = try EventWriter(db, newDeviceTimeZone: nil)
        var stored = 0
        for var event in events {
            event.device = nil
            if try writer.insert(event, device: device) { stored += 1 }
        }
        let versions = try writer.invalidateLearnedModels()
        // The version the write moved the device to; when nothing was new, the one stored.
        let version =
            try stored > 0
            ? versions[writer.deviceID(device)]
            : Int64.fetchOne(db, sql: "SELECT version FROM device WHERE name = ?", arguments: [device])
        return RecordedBatch(stored: stored, duplicates: events.count - stored, version: version ?? 0)
    }

}

/// What a batch of events did to the store.
public struct RecordedBatch: Sendable, Hashable, Codable {
    /// Events stored for the first time.
    public var stored: Int
    /// Events that were stored already, and were not stored again.
    public var duplicates: Int
    /// The device's version after the write.
    public var version: Int64

    /// Creates a value with every field given.
    public init(stored: Int, duplicates: Int, version: Int64) {
        self.stored = stored
        self.duplicates = duplicates
        self.version = version
    }
}

extension EventStore {
    /// Every app of a device (or of all devices), with its settings and event counts, sorted by
    /// device and then by launches, most first.
    ///
    /// As of a time, only the events before it are counted (`Date.knownThrough`), and apps with none of them
    /// and no setting of their own are left out: the answer of a store holding only those events.
    ///
    /// - Complexity: O(n) in the events of the apps listed.
    public func apps(device: String? = nil, asOf time: Date? = nil) throws -> [AppSummary] {
        try read(appsCounted(device: device, asOf: time))
    }

    /// `apps(device:asOf:)` on one of GRDB's readers, the caller suspended meanwhile: counting
    /// a fleet's events takes a while.
    public func apps(device: String? = nil, asOf time: Date? = nil) async throws -> [AppSummary] {
        try await read(appsCounted(device: device, asOf: time))
    }

    /// The read of `apps(device:asOf:)`.
    private func appsCounted(device: String?, asOf time: Date?) -> @Sendable (Database) throws -> [AppSummary] {
        // One device is found by its name's index, its apps by theirs: a condition that also
        // matches every device when none is named would scan every app of the store, and an
        // import of a file of many devices, which lists each one's apps, took a time quadratic
        // in its devices.
        let devices: String = device == nil ? "" : "device.name = ?1 AND"
        return { [path] db in
            let storeDefault = try Self.defaultInterval(db, path: path)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT device.name AS device, device.defaultInterval AS deviceDefault, app.name AS app,
                        \(AppSettingsColumns.list("app")),
                        (SELECT count(*) FROM launch WHERE appId = app.id AND time <= ?2) AS launches,
                        (SELECT min(time) FROM launch WHERE appId = app.id AND time <= ?2) AS firstLaunch,
                        (SELECT max(time) FROM launch WHERE appId = app.id AND time <= ?2) AS lastLaunch,
                        (SELECT count(*) FROM fetch WHERE appId = app.id AND time <= ?2 AND result = 'newData')
                            AS newData,
                        (SELECT count(*) FROM fetch WHERE appId = app.id AND time <= ?2 AND result = 'noData')
                            AS noData,
                        (SELECT count(*) FROM fetch WHERE appId = app.id AND time <= ?2 AND result = 'failed')
                            AS failed,
                        (SELECT min(time) FROM fetch WHERE appId = app.id AND time <= ?2) AS firstFetch,
                        (SELECT max(time) FROM fetch WHERE appId = app.id AND time <= ?2) AS lastFetch,
                        (SELECT count(*) FROM notification WHERE appId = app.id AND time <= ?2) AS notifications
                    FROM device JOIN app ON app.deviceId = device.id
                    WHERE \(devices)
                        (launches + newData + noData + failed + notifications > 0 OR \(AppSettingsColumns.ownSettingSQL))
                    ORDER BY device.name, launches DESC, app.name
                    """, arguments: [device, time?.knownThrough ?? Milliseconds.max])
            return try rows.map { row in
                let settings = try AppSettingsColumns.settings(
                    device: row["device"], app: row["app"], AppRecord.cells(row), location: path)
                let deviceDefault = try (row["deviceDefault"] as String?).map {
                    try StoreRules.storedInterval($0, location: path)
                }
                let first = [row["firstLaunch"] as Int64?, row["firstFetch"] as Int64?].compactMap { $0 }.min()
                let last = [row["lastLaunch"] as Int64?, row["lastFetch"] as Int64?].compactMap { $0 }.max()
                return AppSummary(
                    device: row["device"], app: row["app"],
                    interval: settings.interval ?? deviceDefault ?? storeDefault,
                    intervalIsDefault: settings.interval == nil, enabled: settings.enabled, launches: row["launches"],
                    fetchesNewData: row["newData"], fetchesNoData: row["noData"], fetchesFailed: row["failed"],
                    notifications: row["notifications"],
                    firstSeen: first.map { Date(milliseconds: $0) }, lastSeen: last.map { Date(milliseconds: $0) },
                    constraints: settings.constraints)
            }
        }
    }

    /// The number of launches, fetches and device events stored, for checks and summaries.
    public func eventCounts() throws -> (launches: Int, fetches: Int, deviceEvents: Int) {
        try read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM launch") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM fetch") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM deviceEvent") ?? 0
            )
        }
    }

    /// Calls `body` with the stored events of one device (or of all), each naming its device,
    /// ordered by device, time, kind and app: what `fetchpredict export` writes.
    ///
    /// - Parameters:
    ///   - device: the device; `nil` for every device.
    ///   - start: the earliest time kept (included); `nil` for no bound.
    ///   - end: the time events must be before; `nil` for no bound.
    ///   - body: called with each event, in that order.
    /// - Complexity: O(n log n) in the events written; memory stays flat (a cursor).
    public func forEachStoredEvent(
        device: String? = nil, from start: Milliseconds? = nil, to end: Milliseconds? = nil,
        _ body: (Event) throws -> Void
    ) throws {
        try read { db in try Self.forEachStoredEvent(db, device: device, from: start, to: end, body) }
    }

    /// `forEachStoredEvent(device:from:to:_:)` on one of GRDB's readers, which calls `body`, the
    /// caller suspended meanwhile.
    public func forEachStoredEvent(
        device: String? = nil, from start: Milliseconds? = nil, to end: Milliseconds? = nil,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        try await read { db in try Self.forEachStoredEvent(db, device: device, from: start, to: end, body) }
    }

    private static func forEachStoredEvent(
        _ db: Database, device: String?, from start: Milliseconds?, to end: Milliseconds?,
        _ body: (Event) throws -> Void
    ) throws {
        // The condition on the device made here, not `(?1 IS NULL OR device.name = ?1)`: with
        // that, SQLite plans the statement for no device and scans every device's events.
        let named: String = device == nil ? "?1 IS NULL" : "device.name = ?1"
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT device.name, 'launch' AS kind, app.name, launch.time, launch.utcOffset, NULL,
                    launch.duration, NULL, NULL
                FROM launch JOIN app ON app.id = launch.appId JOIN device ON device.id = app.deviceId
                WHERE \(named) AND launch.time >= ?2 AND launch.time < ?3
                UNION ALL
                SELECT device.name, 'fetch', app.name, fetch.time, fetch.utcOffset, fetch.result,
                    fetch.duration, fetch.bytes, NULL
                FROM fetch JOIN app ON app.id = fetch.appId JOIN device ON device.id = app.deviceId
                WHERE \(named) AND fetch.time >= ?2 AND fetch.time < ?3
                UNION ALL
                SELECT device.name, 'notification', app.name, notification.time, notification.utcOffset, NULL,
                    NULL, NULL, NULL
                FROM notification JOIN app ON app.id = notification.appId JOIN device ON device.id = app.deviceId
                WHERE \(named) AND notification.time >= ?2 AND notification.time < ?3
                UNION ALL
                SELECT device.name, deviceEvent.kind, '', deviceEvent.time, deviceEvent.utcOffset, NULL,
                    NULL, NULL, deviceEvent.value
                FROM deviceEvent JOIN device ON device.id = deviceEvent.deviceId
                WHERE \(named) AND deviceEvent.time >= ?2 AND deviceEvent.time < ?3
                ORDER BY 1, 4, 2, 3
                """, arguments: [device, start ?? .min, end ?? .max])
        while let row = try cursor.next() {
            try body(
                Event(
                    kind: try row.decode(atIndex: 1), app: row[2], time: row[3], utcOffset: row[4],
                    result: try row.decode(atIndex: 5), duration: row[6], bytes: row[7], device: row[0],
                    value: row[8]))
        }
    }
}

extension EventStore {
    /// How many launches, fetches and events of its state a device has after `time`, up to `end`
    /// (included), counting no further than `limit`.
    public func eventCount(device: String, after time: Milliseconds, through end: Milliseconds, atMost limit: Int)
        throws -> Int
    {
        guard limit > 0 else { return 0 }
        return try read { db in try Self.eventCount(device: device, after: time, through: end, atMost: limit, db) }
    }

    /// ``eventCount(device:after:through:atMost:)`` in a read of the caller's.
    static func eventCount(
        device: String, after time: Milliseconds, through end: Milliseconds, atMost limit: Int, _ db: Database
    ) throws -> Int {
        guard limit > 0 else { return 0 }
        return try Int.fetchOne(
            db,
            sql: """
                SELECT count(*) FROM (
                    SELECT 1 FROM app JOIN launch ON launch.appId = app.id
                        AND launch.time > ?2 AND launch.time <= ?3
                    WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1)
                    UNION ALL
                    SELECT 1 FROM app JOIN fetch ON fetch.appId = app.id
                        AND fetch.time > ?2 AND fetch.time <= ?3
                    WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1)
                    UNION ALL
                    SELECT 1 FROM deviceEvent WHERE deviceId = (SELECT id FROM device WHERE name = ?1)
                        AND kind IN \(Self.stateKindsSQL) AND time > ?2 AND time <= ?3
                    LIMIT ?4)
                """, arguments: [device, time, end, limit]) ?? 0
    }

    /// Calls `body` with every launch, fetch and event of the device's state after `time`, up to
    /// `end` (included), in time order, then by kind (`EventKind.storeCode`: a launch before a
    /// fetch before the state), then by app: the order ``FetchScheduler`` learns a batch in.
    ///
    /// - Complexity: O(k log k) in the events after `time`, through the (app, time) keys.
    public func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds, _ body: (Event) throws -> Void
    ) throws {
        try read { db in try Self.forEachEvent(db, device: device, after: time, through: end, body) }
    }

    /// `forEachEvent(device:after:through:_:)` for async callers, with `body` called on GRDB's
    /// queue: learning from many events holds up no thread of the caller's.
    public func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        try await read { db in try Self.forEachEvent(db, device: device, after: time, through: end, body) }
    }

    private static func forEachEvent(
        _ db: Database, device: String, after time: Milliseconds, through end: Milliseconds,
        _ body: (Event) throws -> Void
    ) throws {
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT 0 AS kind, app.name AS app, launch.time AS time, launch.utcOffset AS utcOffset,
                    NULL AS result, launch.duration AS duration, NULL AS value
                FROM app JOIN launch ON launch.appId = app.id AND launch.time > ?2 AND launch.time <= ?3
                WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1)
                UNION ALL
                SELECT 1, app.name, fetch.time, fetch.utcOffset, fetch.result, fetch.duration, NULL
                FROM app JOIN fetch ON fetch.appId = app.id AND fetch.time > ?2 AND fetch.time <= ?3
                WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1)
                UNION ALL
                SELECT \(HeldEvent.tables[3].codeSQL), '', time, utcOffset, NULL, NULL, value
                FROM deviceEvent WHERE deviceId = (SELECT id FROM device WHERE name = ?1)
                    AND kind IN \(stateKindsSQL) AND time > ?2 AND time <= ?3
                ORDER BY 3, 1, 2
                """, arguments: [device, time, end])
        while let row = try cursor.next() {
            guard let kind = EventKind(storeCode: row[0]) else { continue }
            try body(
                Event(
                    kind: kind, app: row[1], time: row[2], utcOffset: row[3],
                    result: try row.decode(atIndex: 4), duration: row[5], value: row[6]))
        }
    }

    /// The device's state kinds as an SQL list of their names: `('powerConnected', ...)`.
    static let stateKindsSQL =
        "(" + EventKind.deviceKinds.filter(\.isDeviceState).map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
}
