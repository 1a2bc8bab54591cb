import Foundation
import GRDB

extension EventStore {
    /// Every app of a device (or of all devices), with its settings and event counts, sorted by
    /// device and then by launches, most first.
    ///
    /// As of a time, only the events up to it (included) are counted, and apps with none of them
    /// and no setting of their own are left out: the answer of a store holding only those events.
    ///
    /// - Complexity: O(n) in the events of the apps listed.
    public func apps(device: String? = nil, asOf time: Date? = nil) throws -> [AppSummary] {
        try read { db in
            let storeDefault = try Self.defaultInterval(db, path: path)
            var deviceDefaults: [String: FetchInterval] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT name, defaultInterval FROM device WHERE defaultInterval IS NOT NULL")
            {
                deviceDefaults[row[0]] = try Self.defaultInterval(db, device: row[0], path: path)
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT device.name AS device, app.name AS app, app.interval, app.enabled, app.constraints,
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
                    FROM app JOIN device ON device.id = app.deviceId
                    WHERE (?1 IS NULL OR device.name = ?1)
                    AND (launches + newData + noData + failed + notifications > 0 OR \(AppRecord.ownSettingSQL))
                    ORDER BY device.name, launches DESC, app.name
                    """, arguments: [device, time?.milliseconds ?? Milliseconds.max])
            return try rows.map { row in
                let own = try row.decode(FetchInterval?.self, forColumn: "interval")
                let first = [row["firstLaunch"] as Int64?, row["firstFetch"] as Int64?].compactMap { $0 }.min()
                let last = [row["lastLaunch"] as Int64?, row["lastFetch"] as Int64?].compactMap { $0 }.max()
                return AppSummary(
                    device: row["device"], app: row["app"],
                    interval: own ?? deviceDefaults[row["device"]] ?? storeDefault,
                    intervalIsDefault: own == nil, enabled: row["enabled"], launches: row["launches"],
                    fetchesNewData: row["newData"], fetchesNoData: row["noData"], fetchesFailed: row["failed"],
                    notifications: row["notifications"],
                    firstSeen: first.map { Date(milliseconds: $0) }, lastSeen: last.map { Date(milliseconds: $0) },
                    constraints: AppConstraints(storeBits: row["constraints"]))
            }
        }
    }

    /// The settings of every app of a device, without counting its events.
    ///
    /// - Complexity: O(apps).
    public func appSettings(device: String) throws -> [AppSettings] {
        try read { db in try Self.appSettings(db, device: device, ownOnly: false) }
    }

    /// The settings of a device's apps; with `ownOnly`, only apps with a setting of their own.
    static func appSettings(_ db: Database, device: String, ownOnly: Bool) throws -> [AppSettings] {
        try AppRecord.all(device: device, ownOnly: ownOnly, db).map { $0.settings(device: device) }
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
}

extension EventStore {
    /// The import log, oldest first, with how many of each import's events the store still holds.
    ///
    /// - Complexity: O(n) in the stored events, counted by import.
    public func imports() throws -> [ImportSummary] {
        try read { db in
            var kept: [Int64: Int] = [:]
            for table in ["launch", "fetch", "notification", "deviceEvent"] {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT importId, count(*) FROM \(table) WHERE importId IS NOT NULL GROUP BY importId")
                for row in rows { kept[row[0], default: 0] += row[1] as Int }
            }
            return try ImportLogRecord.fetchAll(db, sql: "SELECT * FROM importLog ORDER BY id").map { log in
                ImportSummary(
                    id: log.id!, file: log.path, sha256: log.sha256, format: log.format, device: log.device,
                    timeZone: log.timeZone, dateOrder: log.dateOrder, rowsRead: log.rowsRead, stored: log.stored,
                    duplicates: log.duplicates, rejected: log.rejected, eventsKept: kept[log.id!] ?? 0,
                    importedAt: Date(milliseconds: log.importedAt))
            }
        }
    }
}

extension EventStore {
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
        try read { db in
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT device.name, 'launch' AS kind, app.name, launch.time, launch.utcOffset, NULL,
                        launch.duration, NULL, NULL
                    FROM launch JOIN app ON app.id = launch.appId JOIN device ON device.id = app.deviceId
                    WHERE (?1 IS NULL OR device.name = ?1) AND launch.time >= ?2 AND launch.time < ?3
                    UNION ALL
                    SELECT device.name, 'fetch', app.name, fetch.time, fetch.utcOffset, fetch.result,
                        fetch.duration, fetch.bytes, NULL
                    FROM fetch JOIN app ON app.id = fetch.appId JOIN device ON device.id = app.deviceId
                    WHERE (?1 IS NULL OR device.name = ?1) AND fetch.time >= ?2 AND fetch.time < ?3
                    UNION ALL
                    SELECT device.name, 'notification', app.name, notification.time, notification.utcOffset, NULL,
                        NULL, NULL, NULL
                    FROM notification JOIN app ON app.id = notification.appId JOIN device ON device.id = app.deviceId
                    WHERE (?1 IS NULL OR device.name = ?1) AND notification.time >= ?2 AND notification.time < ?3
                    UNION ALL
                    SELECT device.name, deviceEvent.kind, '', deviceEvent.time, deviceEvent.utcOffset, NULL,
                        NULL, NULL, deviceEvent.value
                    FROM deviceEvent JOIN device ON device.id = deviceEvent.deviceId
                    WHERE (?1 IS NULL OR device.name = ?1) AND deviceEvent.time >= ?2 AND deviceEvent.time < ?3
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
}
