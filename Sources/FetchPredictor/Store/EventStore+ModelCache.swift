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
            let encoded = EncodedModel(
                timeZone: zone, header: [UInt8](row[2] as Data), apps: rows.map { ($0[0], [UInt8]($0[1] as Data)) })
            guard let model = encoded.decoded() else { return nil }
            return CachedModel(asOf: row[1], model: model)
        }
    }

    public func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) throws {
        let encoded = EncodedModel(model)
        try write { db in try Self.cache(encoded, asOf: asOf, device: device, configuration: key, version: version, db)
        }
    }

    /// `cacheModel(_:asOf:device:configuration:version:)` for async callers: written on GRDB's
    /// queue, the caller suspended meanwhile (and while another process's write holds the file).
    public func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws {
        try await cache(EncodedModel(model), asOf: asOf, device: device, configuration: key, version: version)
    }

    /// Keeps a model's bytes, as `cacheModel(_:asOf:device:configuration:version:)` does.
    package func cache(
        _ encoded: EncodedModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws {
        try await write { db in
            try Self.cache(encoded, asOf: asOf, device: device, configuration: key, version: version, db)
        }
    }

    private static func cache(
        _ encoded: EncodedModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64,
        _ db: Database
    ) throws {
        guard let record = try DeviceRecord.named(device, db), let id = record.id,
            encoded.mayBeKept(learnedAt: version, storedVersion: record.version, storedZone: record.timeZone)
        else { return }
        try db.execute(sql: "DELETE FROM appModelCache WHERE deviceId = ?", arguments: [id])
        try db.execute(
            sql: "INSERT OR REPLACE INTO modelCache (deviceId, asOf, configuration, model) VALUES (?, ?, ?, ?)",
            arguments: [id, asOf, key, Data(encoded.header)])
        let insert = try db.makeStatement(sql: "INSERT INTO appModelCache (deviceId, app, model) VALUES (?, ?, ?)")
        for (app, bytes) in encoded.apps { try insert.execute(arguments: [id, app, Data(bytes)]) }
    }
}

extension EventStore {
    /// Forgets every cached learned model: the next scheduler learns from all events again.
    public func dropLearnedModels() throws {
        try write { db in try db.execute(sql: "DELETE FROM modelCache") }
    }
}
