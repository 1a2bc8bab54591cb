import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    /// An event kind's code in the `event` table.
    static func code(of kind: EventKind) -> Int16 { kind.storeCode }

    /// Every kind's code and name, as SQL rows for a `VALUES` list: `(0, 'launch'), (1, 'fetch'), ...`.
    static let kindNamesSQL = EventKind.allCases.map { "(\($0.storeCode), '\($0.rawValue)')" }.joined(separator: ", ")

    /// The codes of the kinds a device's model learns from, as an SQL list: `(0, 1, 6, ...)`.
    static let learnedKindsSQL = kindsSQL(\.isLearnedFromStore)

    /// The kinds whose days' freshness a new event changes (`EventKind.isScoredForFreshness`), as
    /// an SQL list.
    static let scoredKindsSQL = kindsSQL(\.isScoredForFreshness)

    /// The codes of the kinds for which `holds` holds, as an SQL list.
    private static func kindsSQL(_ holds: (EventKind) -> Bool) -> String {
        "(" + EventKind.allCases.filter(holds).map { "\($0.storeCode)" }.joined(separator: ", ") + ")"
    }

    /// A fetch result's code in the `event` table.
    static func code(of result: FetchResult) -> Int16 { result.storeCode }

    /// What stands for NULL in the arrays of a batch, which carry no NULLs.
    private enum Absent {
        static let offset = Int32.min
        static let bytes = Int64.min
        static let result: Int16 = -1
    }

    @discardableResult
    public func record(_ events: [Event], device: String) async throws -> RecordedBatch {
        try StoreRules.checkBatch(events)
        // An empty batch stores nothing and creates no device, as in the SQLite store.
        if events.isEmpty {
            let version = try await read { db in
                try await db.value("SELECT version FROM device WHERE name = \(device)", as: Int64.self)
            }
            return RecordedBatch(stored: 0, duplicates: 0, version: version ?? 0)
        }
        return try await transaction { db in
            let deviceID = try await Self.deviceID(device, db)
            // Sorted: two instances creating the same new apps take their locks in one order.
            let names = Set(events.filter { !$0.kind.isDeviceEvent }.map(\.app)).sorted()
            let appIDs = try await Self.appIDs(names, device: deviceID, db)
            var times: [Int64] = []
            var kinds: [Int16] = []
            var apps: [Int64] = []
            var results: [Int16] = []
            var offsets: [Int32] = []
            var durations: [Double] = []
            var bytes: [Int64] = []
            var values: [String] = []
            for event in events {
                times.append(event.time)
                kinds.append(Self.code(of: event.kind))
                apps.append(event.kind.isDeviceEvent ? 0 : appIDs[event.app]!)
                results.append(event.result.map(Self.code(of:)) ?? Absent.result)
                offsets.append(event.utcOffset.map(Int32.init) ?? Absent.offset)
                durations.append(event.duration ?? .nan)
                bytes.append(event.bytes ?? Absent.bytes)
                values.append(event.value ?? "")
            }
            // Stored rows come back: how many, and the earliest launch or fetch among them.
            let stored = try await db.rows(
                """
                INSERT INTO event (device_id, time, kind, app_id, result, utc_offset, duration, bytes, value)
                SELECT \(deviceID), t, k, a, NULLIF(r, -1), NULLIF(o, -2147483648), NULLIF(d, 'NaN'),
                    NULLIF(b, -9223372036854775808), NULLIF(v, '')
                FROM unnest(\(times)::BIGINT[], \(kinds)::SMALLINT[], \(apps)::BIGINT[], \(results)::SMALLINT[],
                    \(offsets)::INTEGER[], \(durations)::DOUBLE PRECISION[], \(bytes)::BIGINT[], \(values)::TEXT[])
                    AS x(t, k, a, r, o, d, b, v)
                ON CONFLICT DO NOTHING
                RETURNING time, kind
                """
            ).map { try $0.decode((Int64, Int16).self) }
            if stored.count < events.count {
                // An event an import stored, recorded as well, outlives that import (import 0).
                try await db.changes(
                    """
                    INSERT INTO also_imported (device_id, time, kind, app_id, import_id)
                    SELECT event.device_id, event.time, event.kind, event.app_id, 0
                    FROM unnest(\(times)::BIGINT[], \(kinds)::SMALLINT[], \(apps)::BIGINT[]) AS x(t, k, a)
                    JOIN event ON event.device_id = \(deviceID) AND event.time = x.t AND event.kind = x.k
                        AND event.app_id = x.a
                    WHERE event.import_id IS NOT NULL
                    ON CONFLICT DO NOTHING
                    """)
            }
            var written = StoredEvents()
            for (time, code) in stored {
                if let kind = EventKind(storeCode: code) { written.stored(kind, at: time, device: deviceID) }
            }
            let versions = try await StoreRules.afterStoring(written, in: PostgresStoredEvents(db: db))
            let version: Int64
            if let bumped = versions[deviceID] {
                version = bumped
            } else {
                version = try await db.value("SELECT version FROM device WHERE id = \(deviceID)") ?? 0
            }
            return RecordedBatch(stored: stored.count, duplicates: events.count - stored.count, version: version)
        }
    }

    /// The id of a device, created when new: in `timeZone`, else with no zone. The device's row
    /// stays locked until the transaction ends, before anything else of the device is written:
    /// a write's triggers lock the device's kept wake both when an app is created and when the
    /// device's version moves, and two writers of one device that took those in turns deadlocked
    /// (`concurrentWritersLoseNothing`, once in three runs).
    static func deviceID(_ name: String, timeZone: String? = nil, _ db: Transaction) async throws -> Int64 {
        if let id = try await lockedDeviceID(name, db) { return id }
        _ = try await db.changes(
            """
            INSERT INTO device (name, tenant, time_zone, version)
            VALUES (\(name), \(DeviceIdentity(stored: name).tenant), \(timeZone), \(unescaped: firstVersionSQL))
            ON CONFLICT (name) DO NOTHING
            """)
        guard let id = try await lockedDeviceID(name, db) else {
            throw StoreError.unknownDevice(name)
        }
        return id
    }

    /// The version a new device starts at, as SQL: past every version of a device erased, so
    /// that an instance holding the model of an erased device never takes a new device of the
    /// same name for it.
    static let firstVersionSQL =
        "(SELECT COALESCE(max(value::BIGINT), 0) FROM store_setting WHERE key = 'firstDeviceVersion')"

    /// A device's id, its row locked for an update until the transaction ends; `nil` when there
    /// is no such device.
    private static func lockedDeviceID(_ name: String, _ db: Transaction) async throws -> Int64? {
        try await db.value("SELECT id FROM device WHERE name = \(name) FOR NO KEY UPDATE", as: Int64.self)
    }

    /// A device's id, `nil` when there is no such device. A statement on the device's events that
    /// names its id, not its name, is planned over its one partition instead of all of them.
    static func existingDeviceID(_ name: String, _ db: Transaction) async throws -> Int64? {
        try await db.value("SELECT id FROM device WHERE name = \(name)", as: Int64.self)
    }

    /// The ids of a device's apps by name, each created with the default settings when new.
    static func appIDs(_ names: [String], device: Int64, _ db: Transaction) async throws -> [String: Int64] {
        try await appIDs(names.map { AppName(device: device, name: $0) }, db)[device] ?? [:]
    }

    /// An app of a device, by name.
    struct AppName: Hashable {
        var device: Int64
        var name: String
    }

    /// The ids of apps of several devices, by device and name, each created with the default
    /// settings when new, in one statement, in the order of device and name, so that two writers
    /// take their locks in one order.
    static func appIDs(_ apps: some Collection<AppName>, _ db: Transaction) async throws -> [Int64: [String: Int64]] {
        guard !apps.isEmpty else { return [:] }
        let devices = apps.map(\.device)
        let names = apps.map(\.name)
        try await db.changes(
            """
            INSERT INTO app (device_id, name)
            SELECT device_id, name FROM unnest(\(devices)::BIGINT[], \(names)::TEXT[]) AS new (device_id, name)
            ORDER BY device_id, name COLLATE "C"
            ON CONFLICT (device_id, name) DO NOTHING
            """)
        var ids: [Int64: [String: Int64]] = [:]
        for row in try await db.rows(
            """
            SELECT app.device_id, app.name, app.id
            FROM app JOIN unnest(\(devices)::BIGINT[], \(names)::TEXT[]) AS new (device_id, name)
                ON app.device_id = new.device_id AND app.name = new.name
            """)
        {
            let (device, name, id) = try row.decode((Int64, String, Int64).self)
            ids[device, default: [:]][name] = id
        }
        return ids
    }

    public func eventCount(
        device: String, after time: Milliseconds, through end: Milliseconds, atMost limit: Int
    ) async throws -> Int {
        guard limit > 0 else { return 0 }
        return try await read { db in
            guard let id = try await Self.existingDeviceID(device, db) else { return 0 }
            return try await Self.eventCount(device: id, after: time, through: end, atMost: limit, db)
        }
    }

    /// ``eventCount(device:after:through:atMost:)`` of the device of id `id`, in a transaction of
    /// the caller's.
    static func eventCount(
        device id: Int64, after time: Milliseconds, through end: Milliseconds, atMost limit: Int, _ db: Transaction
    ) async throws -> Int {
        guard limit > 0 else { return 0 }
        let count: Int64? = try await db.value(
            """
            SELECT count(*) FROM (SELECT 1 FROM event
                WHERE event.device_id = \(id) AND event.time > \(time) AND event.time <= \(end)
                    AND event.kind IN \(unescaped: Self.learnedKindsSQL)
                LIMIT \(Int64(limit))) AS counted
            """)
        return Int(count ?? 0)
    }

    public func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        // The rows of one device after a cached model are few: read them, then call `body`.
        // By the device's id, not its name: planned over its one partition, and over its own apps
        // (named in the join, else the planner may hash every device's apps).
        let rows = try await read { db -> [PostgresRow] in
            guard let id = try await Self.existingDeviceID(device, db) else { return [] }
            return try await db.streamedRows(
                """
                SELECT event.kind, coalesce(app.name, ''), event.time, event.utc_offset, event.result, event.duration,
                    event.value
                FROM event LEFT JOIN app ON app.id = event.app_id AND app.device_id = \(id)
                WHERE event.device_id = \(id) AND event.time > \(time) AND event.time <= \(end)
                    AND event.kind IN \(unescaped: Self.learnedKindsSQL)
                ORDER BY event.time, event.kind, coalesce(app.name, '') COLLATE "C"
                """)
        }
        // Learning from many rows is work of seconds: on a thread of Dispatch's, not the caller's.
        try await Blocking.offPool {
            for row in rows {
                let (code, app, time, offset, result, duration, value) = try row.decode(
                    (Int16, String, Int64, Int32?, Int16?, Double?, String?).self)
                guard let kind = EventKind(storeCode: code) else { continue }
                try body(
                    Event(
                        kind: kind, app: app, time: time, utcOffset: offset.map(Int.init),
                        result: try result.map(Self.result(code:)), duration: duration, value: value))
            }
        }
    }

    /// The fetch result of a stored code.
    static func result(code: Int16) throws -> FetchResult {
        guard let result = FetchResult(storeCode: code) else {
            throw StoreError.damaged(path: "event", detail: "the fetch result \(code) is none of 0, 1, 2")
        }
        return result
    }

    public func apps(device: String?, asOf time: Date?) async throws -> [AppSummary] {
        let limit = time?.knownThrough ?? Milliseconds.max
        let (launch, fetch, notification) = (
            "\(EventKind.launch.storeCode)", "\(EventKind.fetch.storeCode)", "\(EventKind.notification.storeCode)"
        )
        let (newData, noData, failed) = (
            "\(FetchResult.newData.storeCode)", "\(FetchResult.noData.storeCode)", "\(FetchResult.failed.storeCode)"
        )
        return try await transaction(snapshot: true) { db in
            let storeDefault = try await Self.storeDefaultInterval(db, location: location)
            let rows = try await db.rows(
                """
                SELECT device.name, app.name, device.default_interval,
                    count(*) FILTER (WHERE event.kind = \(unescaped: launch)),
                    count(*) FILTER (WHERE event.kind = \(unescaped: fetch) AND event.result = \(unescaped: newData)),
                    count(*) FILTER (WHERE event.kind = \(unescaped: fetch) AND event.result = \(unescaped: noData)),
                    count(*) FILTER (WHERE event.kind = \(unescaped: fetch) AND event.result = \(unescaped: failed)),
                    count(*) FILTER (WHERE event.kind = \(unescaped: notification)),
                    min(event.time) FILTER (WHERE event.kind IN (\(unescaped: launch), \(unescaped: fetch))),
                    max(event.time) FILTER (WHERE event.kind IN (\(unescaped: launch), \(unescaped: fetch))),
                    \(unescaped: AppSettingsColumns.list("app"))
                FROM app JOIN device ON device.id = app.device_id
                LEFT JOIN event ON event.device_id = app.device_id AND event.app_id = app.id AND event.time <= \(limit)
                WHERE (\(device)::TEXT IS NULL OR device.name = \(device))
                GROUP BY device.name, app.id, app.name, \(unescaped: AppSettingsColumns.list("app")), device.default_interval
                HAVING count(event.time) > 0 OR \(unescaped: AppSettingsColumns.ownSettingSQL)
                ORDER BY device.name COLLATE "C", 4 DESC, app.name COLLATE "C"
                """)
            return try rows.map { row in
                let columns = row.makeRandomAccess()
                let c = try (
                    columns[0].decode(String.self), columns[1].decode(String.self), columns[2].decode(String?.self),
                    columns[3].decode(Int.self), columns[4].decode(Int.self), columns[5].decode(Int.self),
                    columns[6].decode(Int.self), columns[7].decode(Int.self), columns[8].decode(Int64?.self),
                    columns[9].decode(Int64?.self)
                )
                let settings = try AppSettingsColumns.settings(
                    device: c.0, app: c.1, Self.cells(columns, from: 10), location: location)
                let deviceDefault = try c.2.map { try StoreRules.storedInterval($0, location: location) }
                return AppSummary(
                    device: c.0, app: c.1, interval: settings.interval ?? deviceDefault ?? storeDefault,
                    intervalIsDefault: settings.interval == nil,
                    enabled: settings.enabled, launches: c.3, fetchesNewData: c.4, fetchesNoData: c.5,
                    fetchesFailed: c.6, notifications: c.7, firstSeen: c.8.map { Date(milliseconds: $0) },
                    lastSeen: c.9.map { Date(milliseconds: $0) }, constraints: settings.constraints)
            }
        }
    }
}

extension PostgresEventStore {
    public func forEachStoredEvent(
        device: String? = nil, from start: Milliseconds? = nil, to end: Milliseconds? = nil,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        // A cursor, read a few thousand rows at a time: memory stays flat for any number.
        try await transaction(snapshot: true) { db in
            try await db.changes(
                """
                DECLARE stored_events NO SCROLL CURSOR FOR
                SELECT device.name, kind.name, coalesce(app.name, ''), event.time, event.utc_offset, event.result,
                    event.duration, event.bytes, event.value
                FROM event JOIN device ON device.id = event.device_id LEFT JOIN app ON app.id = event.app_id
                JOIN (VALUES \(unescaped: PostgresEventStore.kindNamesSQL)) AS kind (code, name) ON kind.code = event.kind
                WHERE (\(device)::TEXT IS NULL OR device.name = \(device))
                    AND event.time >= \(start ?? .min) AND event.time < \(end ?? .max)
                ORDER BY device.name COLLATE "C", event.time, kind.name COLLATE "C", coalesce(app.name, '') COLLATE "C"
                """)
            while true {
                let rows = try await db.rows("FETCH 5000 FROM stored_events")
                for row in rows {
                    let c = try row.decode(
                        (String, String, String, Int64, Int32?, Int16?, Double?, Int64?, String?).self)
                    guard let kind = EventKind(rawValue: c.1) else { continue }
                    try body(
                        Event(
                            kind: kind, app: c.2, time: c.3, utcOffset: c.4.map(Int.init),
                            result: try c.5.map(Self.result(code:)), duration: c.6, bytes: c.7, device: c.0, value: c.8)
                    )
                }
                if rows.count < 5000 { break }
            }
        }
    }
}

/// What follows a write of events, in PostgreSQL's SQL (``StoreRules/afterStoring(_:in:)``).
struct PostgresStoredEvents: StoredEventsFollowing {
    let db: Transaction

    func dropCachedModels(device: Int64, learnedFrom time: Milliseconds) async throws {
        try await db.changes("DELETE FROM model_cache WHERE device_id = \(device) AND as_of >= \(time)")
    }

    func bumpVersions(of devices: [Int64], scored: [Int64: ClosedRange<Milliseconds>]) async throws -> [Int64: Int64] {
        // least() and greatest() pass over NULLs: a device with no mark takes the batch's, a
        // batch with no launch or fetch (NULL here) leaves the mark as it was.
        // The arrays carry no NULLs: Int64.min stands for none.
        let froms = devices.map { scored[$0]?.lowerBound ?? .min }
        let throughs = devices.map { scored[$0]?.upperBound ?? .min }
        let rows = try await db.rows(
            """
            UPDATE device SET version = version + 1,
                freshness_from = least(freshness_from, NULLIF(batch.scored_from, -9223372036854775808)),
                freshness_through = greatest(freshness_through, NULLIF(batch.scored_through, -9223372036854775808))
            FROM unnest(\(devices)::BIGINT[], \(froms)::BIGINT[], \(throughs)::BIGINT[])
                AS batch (id, scored_from, scored_through)
            WHERE device.id = batch.id
            RETURNING device.id, device.version
            """)
        var versions: [Int64: Int64] = [:]
        for row in rows {
            let (device, version) = try row.decode((Int64, Int64).self)
            versions[device] = version
        }
        return versions
    }
}
