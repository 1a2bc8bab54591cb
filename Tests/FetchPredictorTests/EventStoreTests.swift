import FetchPredictorTestSupport
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import Testing

@testable import FetchPredictor

struct EventStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A device's kept wake is read and kept through an index on its name, not by a scan of
    /// every device's plan (a cold start of 100,000 devices slowed from 100 to 54 a second as
    /// their plans filled the table).
    @Test func aKeptWakeIsFoundByItsDevicesIndex() throws {
        let store = try EventStore.inMemory()
        try store.record([.launch("a", at: 1_800_000_000_000)], device: "phone")
        for sql in [
            "SELECT * FROM keptWake WHERE device = 'phone'",
            "UPDATE keptWake SET time = 1 WHERE device = 'phone' AND generation = 0",
        ] {
            let plan = try store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("INDEX keptWakeByDevice") }, "\(sql): \(plan)")
        }
    }

    /// One device's apps are read through its name's index, not by a scan of every app of the
    /// store: an import of a file of 1,000 devices, which lists each one's apps, took 163 s,
    /// quadratic in its devices, when the condition also matched every device when none is named.
    /// A store of 30 devices, each with a launch and a fetch.
    func fleetStore() throws -> EventStore {
        let store = try EventStore.inMemory()
        for device in 0..<30 {
            try store.record(
                [
                    .launch("a", at: 1_800_000_000_000 + Int64(device)),
                    .fetch("b", at: 1_800_000_100_000, result: .noData),
                ],
                device: "fleet/\(device)")
        }
        return store
    }

    /// The query plans, as prepared (their parameters unknown, as the store's), of the statements
    /// holding `text` that `body` runs.
    func plans(of text: String, in store: EventStore, _ body: () throws -> Void) throws -> [[String]] {
        let statements = Mutex<[String]>([])
        try store.read { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
        }
        try body()
        return try store.read { db in
            db.trace(options: .statement, nil)
            return try statements.withLock { $0 }.filter { $0.contains(text) }.map { sql in
                let explain = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
                let count = Int(sqlite3_bind_parameter_count(explain.sqliteStatement))
                return try Row.fetchAll(
                    explain, arguments: StatementArguments(Array(repeating: DatabaseValue.null, count: count))
                )
                .map { $0["detail"] as String }
            }
        }
    }

    @Test func oneDevicesAppsAreFoundByItsIndexNotAScanOfEveryApp() throws {
        let store = try fleetStore()
        let plans = try plans(of: "count(*) FROM launch", in: store) {
            let apps = try store.apps(device: "fleet/7")
            #expect(apps.map(\.device) == ["fleet/7", "fleet/7"])
            #expect(apps.map(\.app) == ["a", "b"])
        }
        #expect(plans.count == 1)
        for plan in plans {
            #expect(!plan.contains { $0.hasPrefix("SCAN app") || $0.hasPrefix("SCAN device") }, "\(plan)")
        }
    }

    /// One device's events, as evaluate, freshness and its pass read them, are found by its
    /// name's index: a condition that took no device too made SQLite scan every device's, and
    /// the freshness pass of 2,000 devices took minutes.
    @Test func oneDevicesEventsAreReadByItsIndexNotAScanOfEveryDevice() throws {
        let store = try fleetStore()
        let plans = try plans(of: "FROM launch", in: store) {
            var events: [Event] = []
            try store.forEachStoredEvent(device: "fleet/7") { events.append($0) }
            #expect(events.map(\.app) == ["a", "b"])
            var bounded: [Event] = []
            try store.forEachStoredEvent(device: "fleet/7", from: 1_800_000_000_000, to: 1_800_000_100_000) {
                bounded.append($0)
            }
            #expect(bounded.map(\.app) == ["a"])
        }
        #expect(plans.count == 2)
        for plan in plans {
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }

    @Test func badStoredSettingsAreErrorsNotDefaults() async throws {
        let store = try EventStore.inMemory()
        try await store.setInterval(.seconds(3600), app: "com.example.news", device: "phone")
        try await store.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
        try await store.setDefaultInterval(.minimum)
        try await store.write { db in try db.execute(sql: "UPDATE app SET interval = 'sometimes'") }
        // Every read of a stored interval refuses it by one rule (StoreRules.storedInterval),
        // naming the text.
        for read in [
            { _ = try store.apps(device: "phone") }, { _ = try store.appSettings(device: "phone") },
            { _ = try store.settings(app: "com.example.news", device: "phone") },
        ] as [() throws -> Void] {
            let error = try #require(throws: StoreError.self) { try read() }
            #expect("\(error)".contains("the interval 'sometimes' is not an interval"), "\(error)")
        }
        try await store.write { db in try db.execute(sql: "UPDATE storeSetting SET value = '-5'") }
        let error = try #require(throws: StoreError.self) { try store.defaultInterval() }
        #expect("\(error)".contains("the interval '-5' is not an interval"), "\(error)")
        try await store.write { db in try db.execute(sql: "UPDATE device SET timeZone = 'Mars/Olympus'") }
        let zoneError = try #require(throws: StoreError.self) { try store.timeZone(device: "phone") }
        #expect("\(zoneError)".contains("Mars/Olympus"))
    }

    @Test func storeIsCreatedPrivate() throws {
        let folder = TestFiles.scratchFolder().appendingPathComponent("nested/fetchpredict")
        let path = folder.appendingPathComponent("events.sqlite").path
        _ = try EventStore(path: path)
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test func onlyAnEmptyStoreIsRemovedWithTheFoldersMadeForIt() async throws {
        let scratch = TestFiles.scratchFolder()
        let path = scratch.appendingPathComponent("a/b/events.sqlite").path
        let made = EventStore.missingFolders(for: path)
        #expect(made == [scratch.appendingPathComponent("a/b").path, scratch.appendingPathComponent("a").path])
        do { _ = try EventStore(path: path) }
        #expect(EventStore.removeIfEmpty(at: path, madeFolders: made))
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("a").path))
        // A store holding a device's settings and no event stays.
        do { try await EventStore(path: path).setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone") }
        #expect(!EventStore.removeIfEmpty(at: path, madeFolders: made))
        // A store holding an event stays, and so do its folders.
        do { try await EventStore(path: path).record(.launch("com.example.news", at: 0), device: "phone") }
        #expect(!EventStore.removeIfEmpty(at: path, madeFolders: made))
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func databaseFromANewerVersionIsRefused() throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path
        _ = try EventStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        try queue.close()
        let error = try #require(throws: StoreError.self) { try EventStore(path: path) }
        guard case .newerSchema = error else { Issue.record("\(error)"); return }
        #expect("\(error)".contains("newer version"))
    }

    @Test func fileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
        let path = TestFiles.write("timestamp,app,event\n", name: "notes.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) { try EventStore(path: path) }
        guard case .notADatabase = error else { Issue.record("\(error)"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func recordingTheSameEventTwiceStoresItOnce() async throws {
        let store = try EventStore.inMemory()
        await #expect(try store.record(.launch("a", at: 1_700_000_000_000), device: "phone"))
        await #expect(try !store.record(.launch("a", at: 1_700_000_000_000), device: "phone"))
        await #expect(try store.record(.launch("a", at: 1_700_000_000_000), device: "tablet"))
        await #expect(try store.record(.fetch("a", at: 1_700_000_000_000, result: .noData), device: "phone"))
        #expect(try store.eventCounts().launches == 2)
    }

    @Test func settingsDefaultToNeverAsOnIOS() async throws {
        let store = try EventStore.inMemory()
        _ = try await store.record(.launch("a", at: 1_700_000_000_000), device: "phone")
        #expect(try store.defaultInterval() == .never)
        await #expect(try store.apps(device: "phone").first?.interval == .never)
        try await store.setDefaultInterval(.minimum)
        try await store.setInterval(.seconds(3600), app: "b", device: "phone")
        try await store.setEnabled(false, app: "b", device: "phone")
        let apps = try await store.apps(device: "phone")
        #expect(apps.first { $0.app == "a" }?.interval == .minimum)
        #expect(apps.first { $0.app == "a" }?.intervalIsDefault == true)
        #expect(apps.first { $0.app == "b" }?.interval == .seconds(3600))
        #expect(apps.first { $0.app == "b" }?.enabled == false)
        try await store.setInterval(nil, app: "b", device: "phone")
        #expect(try store.settings(app: "b", device: "phone").interval == nil)
    }

    @Test func devicesKeepTheirOwnTimeZone() async throws {
        let store = try EventStore.inMemory()
        try await store.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
        try await store.setTimeZone(TimeZone(identifier: "Asia/Tokyo")!, device: "tablet")
        #expect(try store.timeZone(device: "phone")?.identifier == "Europe/Warsaw")
        #expect(try store.timeZone(device: "tablet")?.identifier == "Asia/Tokyo")
        #expect(try store.timeZone(device: "watch") == nil)
    }
}

/// The real logs in ../shared/datasets, read in place, give the counts their README describes.
@Suite(.enabled(if: TestFiles.datasetsPresent, "needs ../shared/datasets"))
struct RealLogImportTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func launchesAndApps(_ store: EventStore, _ device: String) throws -> (Int, Int) {
        let apps = try store.apps(device: device).filter { $0.launches > 0 }
        return (apps.reduce(0) { $0 + $1.launches }, apps.count)
    }

    @Test func activityWatchXiaomi() throws {
        let store = try EventStore.inMemory()
        let report = try store.importFile(
            TestFiles.dataset("activitywatch-android-1/export.json"), options: ImportOptions(device: "aw1"), now: now)
        #expect(report.rowsRead == 18_596 + 3_050)
        let (launches, apps) = try launchesAndApps(store, "aw1")
        #expect((6_500...7_500).contains(launches), "about 7,000 launches, got \(launches)")
        #expect((48...56).contains(apps), "about 53 apps, got \(apps)")
        #expect(try store.eventCounts().deviceEvents == 3_050)
        #expect(
            try !store.apps(device: "aw1").contains {
                ["com.miui.home", "net.activitywatch.android", "com.miui.global.packageinstaller"].contains($0.app)
            })
    }

    @Test func activityWatchSamsung() throws {
        let store = try EventStore.inMemory()
        _ = try store.importFile(
            TestFiles.dataset("activitywatch-android-2/export.json"), options: ImportOptions(device: "aw2"), now: now)
        let (launches, apps) = try launchesAndApps(store, "aw2")
        // 5,013 before a gap of over 5 minutes ended a visit; 5,740 since.
        #expect((5_300...6_200).contains(launches), "about 5,700 launches, got \(launches)")
        #expect((60...70).contains(apps), "about 67 apps, got \(apps)")
        #expect(try !store.apps(device: "aw2").contains { $0.app == "com.sec.android.app.launcher" })
    }

    @Test func appUsageExport() async throws {
        let store = try EventStore.inMemory()
        let path = TestFiles.dataset("app-usage-export-2023/Activity_history.csv")
        // Every date of the file has a day of 12 or less: the order must be given.
        #expect(throws: ImportError.self) { try store.importFile(path, options: ImportOptions(), now: now) }
        _ = try await store.importFile(
            path, options: ImportOptions(device: "au", timeZone: TimeZone(identifier: "UTC")!, dateOrder: .dmy),
            now: now)
        let (launches, apps) = try launchesAndApps(store, "au")
        #expect((1_950...2_250).contains(launches), "about 2,100 launches, got \(launches)")
        #expect((50...56).contains(apps), "about 53 apps, got \(apps)")
        await #expect(
            try !store.apps(device: "au").contains {
                ["App Usage", "Screen on (unlocked)", "Screen off (locked)"].contains($0.app)
            })
        let events = try await store.events(device: "au")
        let first = try #require(events.first), last = try #require(events.last)
        #expect(TimestampFormatter.iso(first.time).hasPrefix("2023-08-01"))
        #expect(TimestampFormatter.iso(last.time).hasPrefix("2023-08-11"))
    }
}

/// Reads held open as long as learns (GRDB's readers, one each) leave readers for the short reads
/// every request makes: with GRDB's default of 5, the sixth learn would make every key lookup wait.
struct ManyReadersTests {
    @Test(.hangLimit) func aShortReadIsAnsweredWhileTwelveLongReadsHoldReaders() async throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path
        let store = try EventStore(path: path)
        try await store.record(.launch("a", at: 1_700_000_000_000), device: "phone")
        let holding = 12
        let entered = Counted(), release = DispatchSemaphore(value: 0)
        for _ in 0..<holding {
            Task.detached {
                try await store.read { _ in
                    entered.add()
                    release.wait()
                }
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while entered.value < holding, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let allHeld = entered.value == holding
        if !allHeld { for _ in 0..<holding { release.signal() } }
        #expect(allHeld, "only \(entered.value) of \(holding) reads found a reader")
        // A short read, as a request's, with every one of those reads held.
        #expect(try store.planningSettings(device: "phone").exists)
        if allHeld { for _ in 0..<holding { release.signal() } }
    }
}

/// A count that tasks add to.
private final class Counted: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

struct BusyStoreTests {
    /// A write that waits past the busy timeout says who held the store and what to do.
    @Test func heldStoreIsReportedAsBusy() throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path
        let holder = try EventStore(path: path)
        let waiter = try EventStore(path: path, busyTimeout: 0.2)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? holder.write { _ in
                started.signal()
                release.wait()
            }
        }
        thread.start()
        started.wait()
        let error = #expect(throws: StoreError.self) {
            try waiter.record(.launch("a", at: 1_700_000_000_000), device: "phone")
        }
        release.signal()
        #expect(error.map { "\($0)".contains("held by another writer") } == true)
        #expect(error.map { "\($0)".contains("locked") } == false)
    }

    /// SQLite answers busy at once where waiting could deadlock it (seen in CI: two of eight
    /// processes creating one store failed with the message of a 300-second wait): before the
    /// access has begun, it is tried again until the busy timeout is spent.
    @Test func aBusyAnswerBeforeTheAccessBeganIsTriedAgain() throws {
        let store = try EventStore(
            path: TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path, busyTimeout: 5)
        var tries = 0
        let answer = try store.retryingBusy { began in
            tries += 1
            if tries < 3 { throw DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked") }
            began()
            return 7
        }
        #expect(answer == 7 && tries == 3)
    }

    /// After the access began, a busy answer is not hidden by trying again (the access may have
    /// read its input), and it is said as SQLite said it, not as a wait that did not happen.
    @Test func aBusyAnswerAfterTheAccessBeganIsSaidAsItIs() throws {
        let store = try EventStore(
            path: TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path, busyTimeout: 5)
        var tries = 0
        let error = #expect(throws: StoreError.self) {
            try store.retryingBusy { began in
                tries += 1
                began()
                throw DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked")
            }
        }
        #expect(tries == 1)
        let said = error.map { "\($0)" } ?? ""
        #expect(said.contains("database is locked (SQLite code 5, after 0.0 s)"), "\(said)")
        #expect(!said.contains("held by another writer"), "\(said)")
    }

    /// Busy answers until the timeout is spent are the store held by another writer.
    @Test func busyAnswersUntilTheTimeoutAreAHeldStore() throws {
        let store = try EventStore(
            path: TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path, busyTimeout: 0.2)
        var tries = 0
        let started = ContinuousClock.now
        let error = #expect(throws: StoreError.self) {
            try store.retryingBusy { _ -> Int in
                tries += 1
                throw DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked")
            }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(tries > 1)
        #expect(error.map { "\($0)".contains("held by another writer") } == true)
    }
}
