import Foundation
import GRDB

extension EventStore {
    /// The learned model of a device cached in the store, with all its apps or only those named,
    /// and the time of the last event it learned from; `nil` when there is none for this
    /// configuration.
    public func cachedModel(
        device: String, configuration key: String, apps only: [String]?
    ) throws -> CachedModel? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT modelCache.deviceId, modelCache.asOf, modelCache.model, device.timeZone FROM modelCache
                        JOIN device ON device.id = modelCache.deviceId
                        WHERE device.name = ? AND modelCache.configuration = ?
                        """, arguments: [device, key])
            else { return nil }
            // The model was learned in the device's zone: a change of zone drops the cache.
            guard let zoneName: String = row[3], let zone = TimeZone(identifier: zoneName) else { return nil }
            let deviceID: Int64 = row[0]
            var apps: [String: AppModel] = [:]
            let rows: [Row]
            if let only {
                rows = try only.compactMap {
                    try Row.fetchOne(
                        db, sql: "SELECT app, model FROM appModelCache WHERE deviceId = ? AND app = ?",
                        arguments: [deviceID, $0])
                }
            } else {
                rows = try Row.fetchAll(
                    db, sql: "SELECT app, model FROM appModelCache WHERE deviceId = ?", arguments: [deviceID])
            }
            for appRow in rows {
                guard let model = AppModel(encoded: [UInt8](appRow[1] as Data)) else { return nil }
                apps[appRow[0]] = model
            }
            guard let model = DeviceModel(encodedHeader: [UInt8](row[2] as Data), apps: apps, timeZone: zone) else {
                return nil
            }
            return CachedModel(asOf: row[1], model: model)
        }
    }

    public func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) throws {
        try write { db in
            guard let record = try DeviceRecord.named(device, db), let id = record.id, record.version == version,
                record.timeZone.flatMap(TimeZone.init(identifier:)) == model.timeZone
            else { return }
            try db.execute(sql: "DELETE FROM appModelCache WHERE deviceId = ?", arguments: [id])
            try db.execute(
                sql: "INSERT OR REPLACE INTO modelCache (deviceId, asOf, configuration, model) VALUES (?, ?, ?, ?)",
                arguments: [id, asOf, key, Data(model.encodedHeader())])
            let insert = try db.makeStatement(sql: "INSERT INTO appModelCache (deviceId, app, model) VALUES (?, ?, ?)")
            for (app, appModel) in model.apps {
                try insert.execute(arguments: [id, app, Data(appModel.encoded())])
            }
        }
    }

    /// Whether a device has a launch, fetch or event of its state after `time`, up to `end`
    /// (included).
    public func hasEvents(device: String, after time: Milliseconds, through end: Milliseconds) throws -> Bool {
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM app JOIN launch ON launch.appId = app.id
                            AND launch.time > ?2 AND launch.time <= ?3
                        WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1))
                    OR EXISTS (SELECT 1 FROM app JOIN fetch ON fetch.appId = app.id
                            AND fetch.time > ?2 AND fetch.time <= ?3
                        WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1))
                    OR EXISTS (SELECT 1 FROM deviceEvent WHERE deviceId = (SELECT id FROM device WHERE name = ?1)
                            AND kind IN \(Self.stateKindsSQL) AND time > ?2 AND time <= ?3)
                    """, arguments: [device, time, end]) ?? false
        }
    }

    /// Calls `body` with every launch, fetch and event of the device's state after `time`, up to
    /// `end` (included), in time order, then by kind (`EventKind.storeCode`: a launch before a
    /// fetch before the state), then by app: the order ``FetchScheduler`` learns a batch in.
    ///
    /// - Complexity: O(k log k) in the events after `time`, through the (app, time) keys.
    public func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds, _ body: (Event) throws -> Void
    ) throws {
        try read { db in
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
                        AND kind IN \(Self.stateKindsSQL) AND time > ?2 AND time <= ?3
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
    }
}

extension EventStore {
    /// The device's state kinds as an SQL list of their names: `('powerConnected', ...)`.
    static let stateKindsSQL =
        "(" + EventKind.deviceKinds.filter(\.isDeviceState).map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
}

extension EventStore {
    /// Forgets every cached learned model: the next scheduler learns from all events again.
    public func dropLearnedModels() throws {
        try write { db in try db.execute(sql: "DELETE FROM modelCache") }
    }
}

extension EventStore {
    /// What planning needs to know of a device's settings, read in one transaction.
    public func planningSettings(device: String) throws -> PlanningSettings {
        try read { db in
            let record = try DeviceRecord.named(device, db)
            // The device's own default, read with its row, else the store's.
            let defaultInterval =
                try record?.defaultInterval.map { try Self.interval($0, path: path) }
                ?? Self.defaultInterval(db, path: path)
            let policies = Dictionary(
                uniqueKeysWithValues: try Self.appSettings(db, device: device, ownOnly: true).map { ($0.app, $0) })
            // The device's own budget, else its scope's, else the store's.
            let scope = DeviceScope.of(device)
            let wakesPerHour =
                try record?.wakesPerHour
                ?? Self.defaultWakesPerHour(db, scopes: scope.isEmpty ? [""] : [scope, ""])
            return PlanningSettings(
                defaultInterval: defaultInterval, timeZone: try record?.zone(path: path), exists: record != nil,
                policies: policies, version: record?.version ?? 0, wakesPerHour: wakesPerHour)
        }
    }
}
