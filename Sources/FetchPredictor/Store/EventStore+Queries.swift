import Foundation
import GRDB

extension EventStore {
    /// Every app of a device (or of all devices), with its settings and event counts, sorted by
    /// device and then by launches, most first.
    ///
    /// - Complexity: O(n) in the events of the apps listed.
    public func apps(device: String? = nil) throws -> [AppSummary] {
        try read { db in
            let defaultInterval = try Self.defaultInterval(db, path: path)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT device.name AS device, app.name AS app, app.interval, app.enabled,
                        (SELECT count(*) FROM launch WHERE appId = app.id) AS launches,
                        (SELECT min(time) FROM launch WHERE appId = app.id) AS firstLaunch,
                        (SELECT max(time) FROM launch WHERE appId = app.id) AS lastLaunch,
                        (SELECT count(*) FROM fetch WHERE appId = app.id AND result = 'newData') AS newData,
                        (SELECT count(*) FROM fetch WHERE appId = app.id AND result = 'noData') AS noData,
                        (SELECT count(*) FROM fetch WHERE appId = app.id AND result = 'failed') AS failed,
                        (SELECT min(time) FROM fetch WHERE appId = app.id) AS firstFetch,
                        (SELECT max(time) FROM fetch WHERE appId = app.id) AS lastFetch
                    FROM app JOIN device ON device.id = app.deviceId
                    WHERE ?1 IS NULL OR device.name = ?1
                    ORDER BY device.name, launches DESC, app.name
                    """, arguments: [device])
            return try rows.map { row in
                let own = try row.decode(FetchInterval?.self, forColumn: "interval")
                let first = [row["firstLaunch"] as Int64?, row["firstFetch"] as Int64?].compactMap { $0 }.min()
                let last = [row["lastLaunch"] as Int64?, row["lastFetch"] as Int64?].compactMap { $0 }.max()
                return AppSummary(
                    device: row["device"], app: row["app"], interval: own ?? defaultInterval,
                    intervalIsDefault: own == nil, enabled: row["enabled"], launches: row["launches"],
                    fetchesNewData: row["newData"], fetchesNoData: row["noData"], fetchesFailed: row["failed"],
                    firstSeen: first.map { Date(milliseconds: $0) }, lastSeen: last.map { Date(milliseconds: $0) })
            }
        }
    }

    /// The settings of every app of a device, without counting its events.
    ///
    /// - Complexity: O(apps).
    public func appSettings(device: String) throws -> [AppSettings] {
        try read { db in try Self.appSettings(db, device: device, ownOnly: false) }
    }

    /// The settings of a device's apps, read from rows of (name, interval, enabled); with
    /// `ownOnly`, only apps that set their own interval or were disabled.
    static func appSettings(_ db: Database, device: String, ownOnly: Bool) throws -> [AppSettings] {
        try AppRecord.all(device: device, ownOnly: ownOnly, db).map { record in
            AppSettings(device: device, app: record.name, interval: record.interval, enabled: record.enabled)
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

    /// Every event of a device in time order, for exports and the predictor's tests.
    public func events(device: String) throws -> [Event] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT 'launch' AS kind, app.name AS app, launch.time, launch.utcOffset, NULL AS result,
                        launch.duration, NULL AS bytes
                    FROM launch JOIN app ON app.id = launch.appId JOIN device ON device.id = app.deviceId
                    WHERE device.name = ?1
                    UNION ALL
                    SELECT 'fetch', app.name, fetch.time, fetch.utcOffset, fetch.result, fetch.duration, fetch.bytes
                    FROM fetch JOIN app ON app.id = fetch.appId JOIN device ON device.id = app.deviceId
                    WHERE device.name = ?1
                    UNION ALL
                    SELECT deviceEvent.kind, '', deviceEvent.time, deviceEvent.utcOffset, NULL, NULL, NULL
                    FROM deviceEvent JOIN device ON device.id = deviceEvent.deviceId
                    WHERE device.name = ?1
                    ORDER BY 3, 1, 2
                    """, arguments: [device])
            return try rows.map { row in
                Event(
                    kind: try row.decode(forColumn: "kind"), app: row["app"], time: row["time"],
                    utcOffset: row["utcOffset"], result: try row.decode(forColumn: "result"),
                    duration: row["duration"], bytes: row["bytes"])
            }
        }
    }
}
