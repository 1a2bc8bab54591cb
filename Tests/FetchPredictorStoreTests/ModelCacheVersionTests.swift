import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor
@testable import FetchPredictorPostgres

/// A model cached by an older version of the package is refused and learned again, on both
/// backends: never read as a model of this version.
struct ModelCacheVersionTests {
    /// A cache as version 19 of the encoding wrote it (``fixtures/model-cache-v19.json`` says how
    /// it was made): bytes written field by field, by position.
    struct OldCache: Decodable {
        var asOf: Int64
        var configuration: String
        var header: String
        var apps: [String: String]

        static func load() throws -> OldCache {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("model-cache-v19.json")))
            return try JSONDecoder().decode(OldCache.self, from: data)
        }

        func encoded(in zone: TimeZone) throws -> EncodedModel {
            let apps = try apps.sorted { $0.key < $1.key }.map { name, text in
                (name: name, bytes: [UInt8](try #require(Data(base64Encoded: text))))
            }
            return EncodedModel(timeZone: zone, header: [UInt8](try #require(Data(base64Encoded: header))), apps: apps)
        }
    }

    @Test(arguments: Backend.available)
    func anOldCacheIsLearnedAgainNeverMisread(backend: Backend) async throws {
        // Given two stores with the same week of a commuter's events, one of them holding a
        // cache of the device's model written by the older encoding, under the key this
        // version looks for and as of the last event.
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let log = SyntheticLog(persona: .commuter, days: 7, timeZone: zone, seed: 19)
        let forecaster = TreesForecaster(model: .prior)
        var answers: [DeviceWake?] = []
        for withOldCache in [false, true] {
            let store = try backend.makeStore()
            try await store.setTimeZone(zone, device: "phone")
            try await store.record(log.events(), device: "phone")
            try await store.setDefaultInterval(.minimum)
            let scheduler = FetchScheduler(store: store, forecaster: forecaster)
            let key = forecaster.learningKey(scheduler.configuration)
            let last = try #require(try await store.events(device: "phone").last).time
            if withOldCache {
                let old = try OldCache.load()
                let version = try await store.planningSettings(device: "phone").version
                try await backend.keep(try old.encoded(in: zone), in: store, asOf: last, key: key, version: version)
                // Then the store finds the cache, and refuses it rather than read it.
                #expect(try await backend.hasCache(in: store))
                #expect(try await store.cachedModel(device: "phone", configuration: key) == nil)
            }
            // When the next wake is asked for.
            answers.append(try await scheduler.nextWake(after: Date(milliseconds: last + 60_000), device: "phone"))
            // Then the model learned again is cached in this version's bytes, and reads back.
            if withOldCache {
                let cached = try #require(try await store.cachedModel(device: "phone", configuration: key))
                #expect(cached.asOf <= last)
            }
        }
        // And the answer is the one of a store that never had the old cache.
        #expect(answers[0] != nil)
        #expect(answers[1] == answers[0])
    }
}

extension Backend {
    /// Keeps a model's bytes in a store's cache, as they are.
    func keep(_ encoded: EncodedModel, in store: any EventStoring, asOf: Int64, key: String, version: Int64)
        async throws
    {
        switch self {
        case .sqlite:
            try await #require(store as? EventStore).cache(
                encoded, asOf: asOf, device: "phone", configuration: key, version: version)
        case .postgres:
            try await #require(store as? PostgresEventStore).cache(
                encoded, asOf: asOf, device: "phone", configuration: key, version: version)
        }
    }

    /// Whether the store holds a cached model, read from its tables.
    func hasCache(in store: any EventStoring) async throws -> Bool {
        try await count(
            in: store, sqlite: "SELECT count(*) FROM modelCache", postgres: "SELECT count(*)::BIGINT FROM model_cache")
            == 1
    }
}
