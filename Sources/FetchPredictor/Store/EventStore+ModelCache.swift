import Foundation
import GRDB

extension EventStore {
    /// The learned model of a device cached in the store, and the time of the last event it
    /// learned from; `nil` when there is none for this configuration.
    public func cachedModel(device: String, configuration key: String) throws -> CachedModel? {
        try read { db in try Self.cachedModel(device: device, configuration: key, db) }
    }

    /// A read by indexes, on the caller's thread, as the store's other short reads are.
    public func learningStart(
        device: String, configuration key: String, through end: Milliseconds, counting: LearningStart.Counting
    ) throws -> LearningStart {
        try read { db in
            var cached = try Self.cachedModel(device: device, configuration: key, db)
            if let model = cached, model.asOf > end { cached = nil }
            let later = try Self.eventCount(device: device, after: end, through: .max, atMost: 1, db) > 0
            let pending = try (later ? counting.whenLater : counting.whenLatest).map {
                try Self.eventCount(device: device, after: cached?.asOf ?? .min, through: end, atMost: $0, db)
            }
            return LearningStart(cached: cached, pending: pending, hasLaterEvents: later)
        }
    }

    /// ``cachedModel(device:configuration:)`` in a read of the caller's.
    private static func cachedModel(device: String, configuration key: String, _ db: Database) throws -> CachedModel? {
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
        let rows = try Row.fetchAll(
            db, sql: "SELECT app, model FROM appModelCache WHERE deviceId = ?", arguments: [row[0] as Int64])
        let encoded = EncodedModel(
            timeZone: zone, header: [UInt8](row[2] as Data), apps: rows.map { ($0[0], [UInt8]($0[1] as Data)) })
        guard let model = encoded.decoded() else { return nil }
        return CachedModel(asOf: row[1], model: model)
    }

    @discardableResult
    public func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) throws -> Bool {
        let encoded = EncodedModel(model)
        return try write { db in
            try Self.cache(encoded, asOf: asOf, device: device, configuration: key, version: version, db)
        }
    }

    /// `cacheModel(_:asOf:device:configuration:version:)` for async callers: written on GRDB's
    /// queue, the caller suspended meanwhile (and while another process's write holds the file).
    @discardableResult
    public func cacheModel(
        _ model: DeviceModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws -> Bool {
        try await cache(EncodedModel(model), asOf: asOf, device: device, configuration: key, version: version)
    }

    /// Keeps a model's bytes, as `cacheModel(_:asOf:device:configuration:version:)` does.
    @discardableResult
    package func cache(
        _ encoded: EncodedModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64
    ) async throws -> Bool {
        try await write { db in
            try Self.cache(encoded, asOf: asOf, device: device, configuration: key, version: version, db)
        }
    }

    private static func cache(
        _ encoded: EncodedModel, asOf: Milliseconds, device: String, configuration key: String, version: Int64,
        _ db: Database
    ) throws -> Bool {
        guard let record = try DeviceRecord.named(device, db), let id = record.id,
            encoded.mayBeKept(learnedAt: version, storedVersion: record.version, storedZone: record.timeZone)
        else { return false }
        try db.execute(sql: "DELETE FROM appModelCache WHERE deviceId = ?", arguments: [id])
        try db.execute(
            sql: "INSERT OR REPLACE INTO modelCache (deviceId, asOf, configuration, model) VALUES (?, ?, ?, ?)",
            arguments: [id, asOf, key, Data(encoded.header)])
        let insert = try db.makeStatement(sql: "INSERT INTO appModelCache (deviceId, app, model) VALUES (?, ?, ?)")
        for (app, bytes) in encoded.apps { try insert.execute(arguments: [id, app, Data(bytes)]) }
        return true
    }
}

extension EventStore {
    /// Forgets every cached learned model: the next scheduler learns from all events again.
    public func dropLearnedModels() throws {
        try write { db in try db.execute(sql: "DELETE FROM modelCache") }
    }
}
