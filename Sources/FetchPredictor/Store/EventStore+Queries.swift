import Foundation
import GRDB

/// What the store knows of one app: its settings and a summary of its events.
public struct AppSummary: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// The interval that applies: the app's own, else the store's default.
    public var interval: FetchInterval
    /// Whether the interval is the store's default rather than the app's own.
    public var intervalIsDefault: Bool
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool
    /// Launches stored.
    public var launches: Int
    /// Fetches that brought new data.
    public var fetchesNewData: Int
    /// Fetches that found nothing new.
    public var fetchesNoData: Int
    /// Fetches that failed.
    public var fetchesFailed: Int
    /// The first and last event of the app, launch or fetch.
    public var firstSeen: Date?
    /// The last event of the app, launch or fetch.
    public var lastSeen: Date?
}

extension EventStore {
    /// Every app of a device (or of all devices), with its settings and event counts, sorted by
    /// device and then by launches, most first.
    ///
    /// - Complexity: O(n) in the events of the apps listed.
    public func apps(device: String? = nil) throws -> [AppSummary] {
        let defaultInterval = try defaultInterval()
        return try read { db in
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
            return rows.map { row in
                let own = (row["interval"] as String?).flatMap { try? FetchInterval(parsing: $0) }
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
        try Row.fetchAll(
            db,
            sql: """
                SELECT app.name, app.interval, app.enabled FROM app JOIN device ON device.id = app.deviceId
                WHERE device.name = ? AND (? = 0 OR app.interval IS NOT NULL OR app.enabled = 0) ORDER BY app.name
                """, arguments: [device, ownOnly]
        ).map { row in
            AppSettings(
                device: device, app: row[0], interval: (row[1] as String?).flatMap { try? FetchInterval(parsing: $0) },
                enabled: row[2])
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
            return rows.map { row in
                Event(
                    kind: EventKind(rawValue: row["kind"]) ?? .launch, app: row["app"], time: row["time"],
                    utcOffset: row["utcOffset"], result: (row["result"] as String?).flatMap(FetchResult.init(rawValue:)),
                    duration: row["duration"], bytes: row["bytes"])
            }
        }
    }
}
