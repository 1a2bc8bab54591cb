import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func cachedModel(device: String, configuration key: String) async throws -> CachedModel? {
        // The device's row and its apps' rows of one snapshot: a cache written meanwhile is read
        // whole or not at all, never a header of one model with the apps of another.
        try await transaction(snapshot: true) { db in try await Self.cachedModel(device: device, configuration: key, db)
        }
    }

    public func learningStart(
        device: String, configuration key: String, through end: Milliseconds, counting: LearningStart.Counting
    ) async throws -> LearningStart {
        try await transaction(snapshot: true) { db in
            guard let id = try await Self.existingDeviceID(device, db) else {
                return LearningStart(cached: nil, pending: counting.whenLatest.map { _ in 0 }, hasLaterEvents: false)
            }
            var cached = try await Self.cachedModel(device: device, configuration: key, db)
            if let model = cached, model.asOf > end { cached = nil }
            let later = try await Self.eventCount(device: id, after: end, through: .max, atMost: 1, db) > 0
            var pending: Int?
            if let limit = later ? counting.whenLater : counting.whenLatest {
                pending = try await Self.eventCount(
                    device: id, after: cached?.asOf ?? .min, through: end, atMost: limit, db)
            }
            return LearningStart(cached: cached, pending: pending, hasLaterEvents: later)
        }
    }

    /// ``cachedModel(device:configuration:)`` in a transaction of the caller's.
    private static func cachedModel(device: String, configuration key: String, _ db: Transaction) async throws
        -> CachedModel?
    {
        guard
            let row = try await db.rows(
                """
                SELECT model_cache.device_id, model_cache.as_of, model_cache.model, device.time_zone
                FROM model_cache JOIN device ON device.id = model_cache.device_id
                WHERE device.name = \(device) AND model_cache.configuration = \(key)
                """
            ).first
        else { return nil }
        let (deviceID, asOf, header, zoneName) = try row.decode((Int64, Int64, ByteBuffer, String?).self)
        // The model was learned in the device's zone: a change of zone drops the cache.
        guard let zoneName, let zone = TimeZone(identifier: zoneName) else { return nil }
        let rows = try await db.rows("SELECT app, model FROM app_model_cache WHERE device_id = \(deviceID)")
        let apps = try rows.map { appRow in
            let (app, bytes) = try appRow.decode((String, ByteBuffer).self)
            return (app, Array(bytes.readableBytesView))
        }
        let encoded = EncodedModel(timeZone: zone, header: Array(header.readableBytesView), apps: apps)
        guard let model = encoded.decoded() else { return nil }
        return CachedModel(asOf: asOf, model: model)
    }

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
        try await transaction { db in
            guard
                let row = try await db.rows(
                    "SELECT id, time_zone, version FROM device WHERE name = \(device) FOR UPDATE"
                )
                .first
            else { return false }
            let (id, zone, stored) = try row.decode((Int64, String?, Int64).self)
            guard encoded.mayBeKept(learnedAt: version, storedVersion: stored, storedZone: zone) else { return false }
            try await db.changes("DELETE FROM app_model_cache WHERE device_id = \(id)")
            try await db.changes(
                """
                INSERT INTO model_cache (device_id, as_of, configuration, model)
                VALUES (\(id), \(asOf), \(key), \(ByteBuffer(bytes: encoded.header)))
                ON CONFLICT (device_id) DO UPDATE
                SET as_of = excluded.as_of, configuration = excluded.configuration, model = excluded.model
                """)
            let names = encoded.apps.map(\.name)
            let blobs = encoded.apps.map { ByteBuffer(bytes: $0.bytes) }
            try await db.changes(
                """
                INSERT INTO app_model_cache (device_id, app, model)
                SELECT \(id), a, m FROM unnest(\(names)::TEXT[], \(blobs)::BYTEA[]) AS x(a, m)
                """)
            return true
        }
    }

    public func dropLearnedModels() async throws {
        try await transaction { db in try await db.changes("DELETE FROM model_cache") }
    }
}
