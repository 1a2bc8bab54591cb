import Foundation
import GRDB

extension EventStore {
    /// The learned model of a device cached in the store, and the time of the last event it
    /// learned from; `nil` when there is none for this configuration.
    func cachedModel(device: String, configuration key: String) throws -> (asOf: Milliseconds, model: DeviceModel)? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT modelCache.asOf, modelCache.model FROM modelCache
                        JOIN device ON device.id = modelCache.deviceId
                        WHERE device.name = ? AND modelCache.configuration = ?
                        """, arguments: [device, key]),
                let model = DeviceModel(encoded: [UInt8](row["model"] as Data))
            else { return nil }
            return (row["asOf"], model)
        }
    }

    /// Caches a device's learned model, unless events older than `asOf` arrived meanwhile.
    func cacheModel(_ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String) throws {
        try write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device]) else {
                return
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO modelCache (deviceId, asOf, configuration, model) VALUES (?, ?, ?, ?)",
                arguments: [id, asOf, key, Data(model.encoded())])
        }
    }

    /// Calls `body` with every launch and fetch of a device after `time`, in time order.
    ///
    /// - Complexity: O(k log k) in the events after `time`, through the (app, time) keys.
    func forEachEvent(device: String, after time: Milliseconds, _ body: (Event) throws -> Void) throws {
        try read { db in
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT 0 AS kind, app.name AS app, launch.time AS time, launch.utcOffset AS utcOffset,
                        NULL AS result, launch.duration AS duration
                    FROM app JOIN launch ON launch.appId = app.id AND launch.time > ?2
                    WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1)
                    UNION ALL
                    SELECT 1, app.name, fetch.time, fetch.utcOffset, fetch.result, fetch.duration
                    FROM app JOIN fetch ON fetch.appId = app.id AND fetch.time > ?2
                    WHERE app.deviceId = (SELECT id FROM device WHERE name = ?1)
                    ORDER BY 3, 1
                    """, arguments: [device, time])
            while let row = try cursor.next() {
                let isFetch = (row[0] as Int) == 1
                try body(
                    Event(
                        kind: isFetch ? .fetch : .launch, app: row[1], time: row[2], utcOffset: row[3],
                        result: (row[4] as String?).flatMap(FetchResult.init(rawValue:)), duration: row[5]))
            }
        }
    }

    /// The policies of a device's apps that set their own interval or were disabled.
    func policies(device: String) throws -> [String: AppSettings] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT app.name, app.interval, app.enabled FROM app JOIN device ON device.id = app.deviceId
                    WHERE device.name = ? AND (app.interval IS NOT NULL OR app.enabled = 0)
                    """, arguments: [device])
            var result: [String: AppSettings] = [:]
            for row in rows {
                let name: String = row[0]
                result[name] = AppSettings(
                    device: device, app: name, interval: (row[1] as String?).flatMap { try? FetchInterval(parsing: $0) },
                    enabled: row[2])
            }
            return result
        }
    }
}
