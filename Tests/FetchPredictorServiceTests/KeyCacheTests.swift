import FetchPredictor
import FetchPredictorPostgres
import FetchPredictorTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import FetchPredictorService

/// A request's key costs the store no call between the checks of its revocations, and a key
/// revoked by any process is refused within the check's interval.
struct KeyCacheTests {
    /// Both stores, PostgreSQL when the tests have a server.
    static let onPostgres = [false] + (TestCluster.shared.isAvailable ? [true] : [])

    /// A warm next-wake over HTTP makes one store call: the device's settings, which say whether
    /// another instance wrote the device. The key comes from memory.
    @Test(arguments: onPostgres)
    func aWarmNextWakeMakesOneStoreCall(postgres: Bool) async throws {
        var settings = ServiceSettings()
        settings.keyCheckInterval = .seconds(600)
        let service = try await LiveService(settings: settings, postgres: postgres)
        try await service.setUpPhone()
        #expect(try await service.post(LiveService.weeksOfLaunches(days: 14)).status == 200)
        let calls = service.served.calls
        // The first check of the revocations, made as the service starts.
        for _ in 0..<500 where calls.counts["keyRevocations", default: 0] == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let path = "/v1/devices/phone/next-wake?now=2024-01-15T0"
        #expect(try await service.request("GET", path + "6:00:00Z", key: service.acme).status == 200)
        for hour in 7...9 {
            let before = calls.counts
            let answer = try await service.request("GET", path + "\(hour):00:00Z", key: service.acme)
            #expect(answer.status == 200)
            #expect(calls.made(since: before) == ["planningSettings": 1], "at \(hour):00")
        }
        await service.stop()
    }

    /// A key revoked by another process (as `fetchpredict keys revoke` does) is refused within
    /// the interval, though the service served it from memory until then.
    @Test(arguments: onPostgres)
    func aKeyRevokedElsewhereIsRefusedWithinTheInterval(postgres: Bool) async throws {
        var settings = ServiceSettings()
        settings.keyCheckInterval = .milliseconds(200)
        let service = try await LiveService(settings: settings, postgres: postgres)
        let path = "/v1/devices"
        #expect(try await service.request("GET", path, key: service.acme).status == 200)
        let before = service.served.calls.counts
        #expect(try await service.request("GET", path, key: service.acme).status == 200)
        #expect(service.served.calls.made(since: before)["tenant"] == nil, "the key was looked up again")
        let elsewhere: any EventStoring =
            try service.databaseURL.map { try PostgresEventStore(url: $0) } ?? EventStore(path: service.store.path)
        let id = try #require(try await elsewhere.keys().first { $0.tenant == "acme" }?.id)
        try await elsewhere.revokeKey(id: id, now: Date())
        let revoked = ContinuousClock.now
        var status = 200
        while status == 200, ContinuousClock.now - revoked < .seconds(10) {
            status = try await service.request("GET", path, key: service.acme).status
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(status == 401)
        // The other tenant's key is still served.
        #expect(try await service.request("GET", path, key: service.other).status == 200)
        await service.stop()
    }

    /// What a check vouches for: a key found is kept while checks answer, forgotten when a key
    /// was revoked, and looked up on every request when the last check is two intervals old.
    @Test func aKeyIsKeptOnlyWhileAFreshCheckVouchesForIt() async throws {
        let keys = FakeKeys()
        let cache = KeyCache(store: keys, interval: .milliseconds(100), logger: Logger(label: "test"))
        let digest = "digest"
        // No check yet: looked up each time.
        _ = try await cache.tenant(forKey: "k", digest: digest)
        _ = try await cache.tenant(forKey: "k", digest: digest)
        #expect(keys.lookups == 2)
        await cache.check()
        #expect(try await cache.tenant(forKey: "k", digest: digest) == "acme")
        #expect(try await cache.tenant(forKey: "k", digest: digest) == "acme")
        #expect(keys.lookups == 3)
        // Revoked: the next check forgets it, and the lookup refuses it.
        keys.revoke()
        await cache.check()
        #expect(try await cache.tenant(forKey: "k", digest: digest) == nil)
        #expect(keys.lookups == 4)
        // A check that fails vouches for nothing: two intervals after the last that answered,
        // every request looks its key up.
        keys.unrevoke()
        await cache.check()
        _ = try await cache.tenant(forKey: "k", digest: digest)
        keys.failing = true
        try await Task.sleep(for: .milliseconds(250))
        await cache.check()
        let lookups = keys.lookups
        _ = try await cache.tenant(forKey: "k", digest: digest)
        _ = try await cache.tenant(forKey: "k", digest: digest)
        #expect(keys.lookups == lookups + 2)
    }

    /// With no interval, there is no cache: every request looks its key up, and a key revoked
    /// is refused at once.
    @Test func withNoIntervalEveryKeyIsLookedUp() async throws {
        let keys = FakeKeys()
        let cache = KeyCache(store: keys, interval: .zero, logger: Logger(label: "test"))
        await cache.check()
        _ = try await cache.tenant(forKey: "k", digest: "digest")
        keys.revoke()
        #expect(try await cache.tenant(forKey: "k", digest: "digest") == nil)
        #expect(keys.lookups == 2)
    }
}

extension KeyCacheTests {
    /// An operator sees the checks fail and answer again, once each, not at every interval.
    @Test func aFailingCheckIsLoggedOnceAndSoIsItsRecovery() async throws {
        let keys = FakeKeys()
        let records = LogRecords()
        let cache = KeyCache(
            store: keys, interval: .milliseconds(100), logger: Logger(label: "test") { _ in records })
        await cache.check()
        keys.failing = true
        for _ in 0..<3 { await cache.check() }
        #expect(records.lines.count == 1)
        #expect(records.lines.first?.hasPrefix("warning the check of revoked keys failed") == true)
        #expect(records.lines.first?.contains("down") == true, "the store's error is named")
        keys.failing = false
        for _ in 0..<3 { await cache.check() }
        #expect(records.lines.count == 2)
        #expect(records.lines.last?.hasPrefix("notice the check of revoked keys answers again") == true)
    }
}

/// Each message logged, as "LEVEL MESSAGE METADATA".
private final class LogRecords: LogHandler, Sendable {
    private let recorded = Mutex<[String]>([])
    var lines: [String] { recorded.withLock { $0 } }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) {
        let details = (event.metadata ?? [:]).map { "\($0)=\($1)" }.sorted().joined(separator: " ")
        recorded.withLock { $0.append("\(event.level) \(event.message) \(details)") }
    }
}

/// Keys of one tenant, `acme`, whose revocation a test sets, and whose checks may fail.
private final class FakeKeys: APIKeyKeeping {
    private struct State {
        var revoked = false
        var revocations: Int64 = 0
        var lookups = 0
        var failing = false
    }
    private let state = Mutex(State())

    var lookups: Int { state.withLock { $0.lookups } }
    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }
    func revoke() { state.withLock { ($0.revoked, $0.revocations) = (true, $0.revocations + 1) } }
    /// A new key of the same tenant, for the rest of a test.
    func unrevoke() { state.withLock { ($0.revoked, $0.revocations) = (false, $0.revocations + 1) } }

    func tenant(forKey key: String) async throws -> String? {
        state.withLock { state in
            state.lookups += 1
            return state.revoked ? nil : "acme"
        }
    }

    func keyRevocations() async throws -> KeyRevocations {
        let (failing, revoked) = state.withLock { ($0.failing, $0.revocations) }
        if failing { throw StoreError.unavailable(location: "fake", detail: "down") }
        return KeyRevocations(keys: 1, revoked: revoked, latest: revoked)
    }

    func createKey(tenant: String, now: Date) async throws -> (key: String, info: APIKeyInfo) {
        throw StoreError.unavailable(location: "fake", detail: "no keys made here")
    }
    func keys() async throws -> [APIKeyInfo] { [] }
    func revokeKey(id: Int64, now: Date) async throws -> Bool { false }
    func cursorSecret() async throws -> [UInt8] { [] }
}
