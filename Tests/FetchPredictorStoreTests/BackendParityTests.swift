import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictorPostgres

/// The same events give the same answers from every store: apps, peaks, next wakes, schedules.
@Suite struct BackendParityTests {
    let zone = TimeZone(identifier: "America/New_York")!

    /// Three weeks of a synthetic person, fetch results and device events included, recorded in
    /// batches into a new store of the backend.
    func store(_ backend: Backend, persona: Persona) async throws -> any EventStoring {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        try await store.setDefaultInterval(.minimum)
        try await store.setInterval(.seconds(3 * 3600), app: persona.apps[0].name, device: "phone")
        let events = SyntheticLog(persona: persona, days: 21, timeZone: zone, seed: 11).events()
        for start in stride(from: 0, to: events.count, by: 500) {
            try await store.record(Array(events[start..<min(start + 500, events.count)]), device: "phone")
        }
        return store
    }

    @Test(.enabled(if: Backend.available.contains(.postgres)), arguments: ["commuter", "night-owl"])
    func bothBackendsGiveTheSameAnswers(personaName: String) async throws {
        let persona = try #require(Persona.named(personaName))
        let stores = [try await store(.sqlite, persona: persona), try await store(.postgres, persona: persona)]
        await #expect(try stores[0].apps() == stores[1].apps())
        await #expect(try stores[0].appSettings(device: "phone") == stores[1].appSettings(device: "phone"))
        await #expect(
            try stores[0].planningSettings(device: "phone").policies
                == stores[1].planningSettings(device: "phone").policies)
        let schedulers = stores.map { FetchScheduler(store: $0) }
        let start = Date(milliseconds: DateFields(year: 2024, month: 1, day: 15).instant(in: zone).0)
        for hours in stride(from: 0.0, to: 48, by: 7.5) {
            let now = start.addingTimeInterval(hours * 3600)
            let wakes = [
                try await schedulers[0].nextWake(after: now, device: "phone"),
                try await schedulers[1].nextWake(after: now, device: "phone"),
            ]
            #expect(wakes[0] == wakes[1], "at \(now)")
            #expect(wakes[0] != nil)
        }
        var schedules: [Schedule] = []
        for scheduler in schedulers {
            schedules.append(
                try await scheduler.schedule(from: start, to: start.addingTimeInterval(86_400), device: "phone"))
        }
        #expect(schedules[0] == schedules[1])
        #expect(schedules[0].wakes.count >= 3)
        for app in try await schedulers[0].apps(device: "phone") {
            let profiles = [
                try await schedulers[0].profile(app: app, device: "phone"),
                try await schedulers[1].profile(app: app, device: "phone"),
            ]
            #expect(profiles[0] == profiles[1], "\(app)")
        }
    }
}

/// What only a server store does: its schema's versions, a server that is down, many writers.
@Suite(.enabled(if: Backend.available.contains(.postgres)))
struct PostgresStoreTests {
    @Test func aDatabaseMigratedByANewerVersionIsRefused() throws {
        let url = try TestCluster.shared.newDatabase()
        _ = try PostgresEventStore(url: url)
        try TestCluster.run([
            "psql", "-q", url, "-c", "INSERT INTO fetchpredict_migration (version, name) VALUES (99, 'v99')",
        ])
        #expect {
            _ = try PostgresEventStore(url: url)
        } throws: { error in
            guard case StoreError.newerSchema = error else { return false }
            return true
        }
    }

    @Test func manyStoresOpeningANewDatabaseAtOnceMigrateItOnce() async throws {
        let url = try TestCluster.shared.newDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { _ = try PostgresEventStore(url: url) } }
            try await group.waitForAll()
        }
        let count = try TestCluster.run(["psql", "-tA", url, "-c", "SELECT count(*) FROM fetchpredict_migration"])
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "\(PostgresEventStore.migrationCount)")
    }

    @Test func aServerThatDoesNotAnswerIsUnavailableNotAnotherError() throws {
        var limits = PostgresEventStore.Limits()
        limits.connectTimeout = 2
        #expect {
            _ = try PostgresEventStore(url: "postgres://nobody@127.0.0.1:1/none?sslmode=disable", limits: limits)
        } throws: { error in
            guard case StoreError.unavailable(let location, _) = error else { return false }
            return location == "postgres://nobody@127.0.0.1:1/none"
        }
    }

    @Test func aPasswordIsReadAsWrittenAndNeverReachesAMessage() throws {
        // Percent-encoded once, decoded once.
        let url = try DatabaseURL("postgres://app:100%25%2Fsure@db.internal:6432/fleet%5Fone")
        #expect(url.user == "app" && url.password == "100%/sure" && url.database == "fleet_one" && url.port == 6432)
        #expect(!url.location.contains("100"))
        // A URL that does not parse is not shown, since its password cannot be found to hide.
        #expect {
            _ = try PostgresEventStore(url: "postgres://app:s3cret@db:5432x/fp")
        } throws: { error in
            !"\(error)".contains("s3cret")
        }
        #expect {
            _ = try PostgresEventStore(url: "mysql://user:secret@host/db")
        } throws: { error in
            "\(error)".contains("***") && !"\(error)".contains("secret")
        }
    }

    /// Writers on many threads, each through its own store, into one device: every event is
    /// stored once, and the version counts every write that stored something.
    @Test func concurrentWritersLoseNothing() async throws {
        let url = try TestCluster.shared.newDatabase()
        let stores = try (0..<4).map { _ in try PostgresEventStore(url: url) }
        let base: Milliseconds = 1_800_000_000_000
        let batches = try await withThrowingTaskGroup(of: Int.self) { group in
            for (writer, store) in stores.enumerated() {
                group.addTask {
                    var written = 0
                    for batch in 0..<25 {
                        // Half of each batch every writer sends too: duplicates race as well.
                        let events = (0..<20).map { index -> Event in
                            .launch(
                                index < 10 ? "shared" : "app\(writer)", at: base + Milliseconds(batch * 1_000 + index))
                        }
                        if try await store.record(events, device: "phone").stored > 0 { written += 1 }
                    }
                    return written
                }
            }
            return try await group.reduce(0, +)
        }
        let apps = try await stores[0].apps(device: "phone")
        #expect(apps.count == 5)
        #expect(apps.allSatisfy { $0.launches == 25 * 10 })
        await #expect(try stores[0].planningSettings(device: "phone").version == Int64(batches))
    }
}
