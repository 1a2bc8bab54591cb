import FetchPredictorTestSupport
import Foundation
import GRDB
import Testing

@testable import FetchPredictor

/// Nothing silently wrong: no assumed zone, no file stored twice under two readings, every event
/// knowing its import, and answers as of a time that never read later events.
struct TrustworthyStoreTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func launchCount(_ store: EventStore, device: String) throws -> Int {
        try store.apps(device: device).reduce(0) { $0 + $1.launches }
    }

    @Test func instantsAreStoredButPlanningAsksForTheDevicesZone() async throws {
        let store = try EventStore.inMemory()
        let report = try await store.importFile(
            TestFiles.fixture("commuter-28d.csv"), options: ImportOptions(device: "phone"), now: Date())
        #expect(report.stored > 0)
        #expect(report.timeZone == nil)
        #expect(try store.timeZone(device: "phone") == nil)
        let scheduler = FetchScheduler(store: store)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        await #expect(throws: StoreError.self) { try await scheduler.nextWake(after: now, device: "phone") }
        await #expect(throws: StoreError.self) { try await store.backtestDevices(["phone"]) }
        try await store.setTimeZone(zone, device: "phone")
        _ = try await scheduler.nextWake(after: now, device: "phone")
        await #expect(try store.backtestDevices(["phone"]).first?.timeZone.identifier == zone.identifier)
    }

    /// A store cut short (a copy that stopped half-way) is refused as damaged, naming the file and
    /// its lengths, and left as it was: SQLite alone would answer from the pages it has, as a
    /// store with fewer events.
    @Test func aStoreCutShortIsRefusedAndLeftAsItWas() async throws {
        let folder = TestFiles.scratchFolder("cut")
        let whole = folder.appendingPathComponent("whole.sqlite").path
        do {
            let store = try EventStore(path: whole)
            _ = try await store.importFile(
                TestFiles.fixture("commuter-28d.csv"), options: ImportOptions(device: "phone"), now: Date())
        }
        #expect(!FileManager.default.fileExists(atPath: whole + "-wal"), "the store was not closed")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let pageSize = 4096
        #expect(bytes.count > 8 * pageSize)
        // Cut at a page's end, as a copy stops: every page SQLite reads first is whole.
        for kept in [bytes.count / pageSize / 2 * pageSize, bytes.count - pageSize] {
            let cut = folder.appendingPathComponent("cut-\(kept).sqlite").path
            try bytes.prefix(kept).write(to: URL(fileURLWithPath: cut))
            #expect {
                _ = try EventStore(path: cut, creating: false)
            } throws: { error in
                guard case .damaged(let path, let detail) = error as? StoreError else { return false }
                return path == cut && detail.contains("\(kept) bytes") && detail.contains("\(bytes.count)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: cut)) == bytes.prefix(kept))
        }
        // The whole store still opens.
        #expect(try launchCount(try EventStore(path: whole, creating: false), device: "phone") > 0)
    }

    /// A device the store does not have is answered as one with no events, in no zone: nothing
    /// is planned, and no model is learned for it.
    @Test func aDeviceTheStoreDoesNotHaveIsAnsweredInNoZone() async throws {
        let store = try EventStore.inMemory()
        try await store.setDefaultInterval(.minimum)
        let scheduler = FetchScheduler(store: store)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try await scheduler.nextWake(after: now, device: "tablet") == nil)
        #expect(try await scheduler.nextWake(after: now, device: "tablet", app: "news") == nil)
        #expect(
            try await scheduler.schedule(from: now, to: now.addingTimeInterval(86_400), device: "tablet").wakes.isEmpty)
        #expect(try await scheduler.profile(app: "news", device: "tablet") == .empty)
        #expect(try await scheduler.state(app: "news", device: "tablet", now: now) == .noHistory)
        #expect(try await scheduler.isColdStart(app: "news", device: "tablet"))
        #expect(try await scheduler.apps(device: "tablet").isEmpty)
        #expect(scheduler.loadedDeviceCount == 0)
    }

    @Test func aZoneThatContradictsTheDevicesIsRefusedEverywhere() async throws {
        let store = try EventStore.inMemory()
        try await store.setTimeZone(zone, device: "phone")
        let other = TimeZone(identifier: "Asia/Kolkata")!
        #expect(throws: StoreError.self) {
            try store.importFile(
                TestFiles.fixture("app-usage-mdy.csv"), options: ImportOptions(device: "phone", timeZone: other),
                now: Date())
        }
        await #expect(throws: StoreError.self) { try await store.backtestDevices(["phone"], timeZone: other) }
        #expect(try launchCount(store, device: "phone") == 0)
    }

    @Test func pruningByDateForgetsWhichImportsAlsoHeldTheEvents() async throws {
        let store = try EventStore.inMemory()
        try await store.setTimeZone(zone, device: "phone")
        let rows = "timestamp,app,event\n2024-05-01T08:00:00Z,news,launch\n2024-05-03T08:00:00Z,news,launch\n"
        for day in [4, 5] {
            _ = try await store.importFile(
                TestFiles.write(rows + "2024-05-0\(day)T08:00:00Z,news,launch\n"),
                options: ImportOptions(device: "phone"), now: Date())
        }
        _ = try await store.prune(before: 1_714_636_800_000, device: "phone")  // 2024-05-02
        await #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM alsoImported") } == 1)
    }

    @Test func aDateOrderTheRowsContradictIsRefused() throws {
        // Eleven days of August, day first: read month first, one day a month.
        var lines = ["App,Date,Time,Duration"]
        for day in 1...11 {
            lines.append("\(day % 2 == 0 ? "Chat" : "Mail"),\(String(format: "%02d", day))/08/2023,08:00:00,0:01:00")
        }
        let file = TestFiles.write(lines.joined(separator: "\n") + "\n")
        let store = try EventStore.inMemory()
        #expect {
            try store.importFile(file, options: ImportOptions(timeZone: zone, dateOrder: .mdy), now: Date())
        } throws: { "\($0)".contains("the file looks dmy") }
        #expect {
            try store.importFile(file, options: ImportOptions(timeZone: zone), now: Date())
        } throws: { error in
            guard case ImportError.ambiguousDates(_, _, _, .dmy) = error else { return false }
            return true
        }
        #expect(try store.devices().isEmpty)
        let read = try store.importFile(file, options: ImportOptions(timeZone: zone, dateOrder: .dmy), now: Date())
        #expect(read.stored == 11)
        // Dates the file itself gives day first are not read month first.
        let dayFirst = TestFiles.write("App,Date,Time,Duration\nChat,25/08/2023,08:00:00,0:01:00\n")
        #expect {
            try EventStore.inMemory().importFile(
                dayFirst, options: ImportOptions(timeZone: zone, dateOrder: .mdy), now: Date())
        } throws: { "\($0)".contains("contradicts") }
    }

    @Test func yearFirstDatesReadTheSameWhateverOrderIsGiven() throws {
        let file = TestFiles.write("App,Date,Time,Duration\nChat,2024-03-13,08:00:00,0:01:00\n")
        let store = try EventStore.inMemory()
        let first = try store.importFile(file, options: ImportOptions(timeZone: zone, dateOrder: .dmy), now: Date())
        #expect(first.dateOrder == nil)
        let again = try store.importFile(file, options: ImportOptions(timeZone: zone, dateOrder: .mdy), now: Date())
        #expect(again.duplicates == 1)
    }

    @Test func aSchedulerLearnsAgainWhenItsDevicesZoneChanges() async throws {
        let store = try EventStore.inMemory()
        // Instants with no offset of their own: their local times are the device's zone's.
        let events = SyntheticLog(persona: .commuter, days: 21, timeZone: zone, seed: 2).events().map {
            var event = $0
            event.utcOffset = nil
            return event
        }
        _ = try await store.importFile(
            TestFiles.write(EventLogWriter.csv(events)), options: ImportOptions(device: "phone", timeZone: zone),
            now: Date())
        let scheduler = FetchScheduler(store: store)
        let app = try await #require(try scheduler.apps(device: "phone").first)
        let before = try await scheduler.profile(app: app, device: "phone", days: .weekday)
        try await store.setTimeZone(TimeZone(identifier: "America/New_York")!, device: "phone")
        let after = try await scheduler.profile(app: app, device: "phone", days: .weekday)
        #expect(after.peaks.map(\.minute) != before.peaks.map(\.minute))
        let fresh = try await FetchScheduler(store: store).profile(app: app, device: "phone", days: .weekday)
        #expect(after == fresh)
    }

    @Test func eventsStoredBeforeProvenanceHaveNoImport() throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("v3.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try EventStore.migrator.migrate(queue, upTo: "v3: learned models per app")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO device (name, timeZone) VALUES ('phone', 'Europe/Warsaw')")
            try db.execute(sql: "INSERT INTO app (deviceId, name) VALUES (1, 'news')")
            try db.execute(sql: "INSERT INTO launch (appId, time) VALUES (1, 1714550400000)")
        }
        try queue.close()
        let store = try EventStore(path: path)
        #expect(try store.imports().isEmpty)
        #expect(try launchCount(store, device: "phone") == 1)
        let importID = try store.read { db in try Row.fetchOne(db, sql: "SELECT importId FROM launch")?[0] as Int64? }
        #expect(importID == nil)
    }
}

/// `--now T` answers as of T: the same answer, to the byte, as a store holding only the events
/// before T gives (an event at T itself is not known yet), whatever the learned-model cache holds.
struct AsOfTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// The store of a log, and a second store holding only its events before `time`.
    func stores(_ file: String, timeZone: TimeZone, asOf time: Date) throws -> (full: EventStore, truncated: EventStore)
    {
        let folder = TestFiles.scratchFolder()
        let full = try EventStore(path: folder.appendingPathComponent("full.sqlite").path)
        _ = try full.importFile(file, options: ImportOptions(device: "phone", timeZone: timeZone), now: Date())
        var kept: [Event] = []
        try full.forEachStoredEvent(device: "phone", to: time.milliseconds) { kept.append($0) }
        let truncated = try EventStore(path: folder.appendingPathComponent("truncated.sqlite").path)
        _ = try truncated.importFile(
            TestFiles.write(EventLogWriter.csv(kept)), options: ImportOptions(device: "phone", timeZone: timeZone),
            now: Date())
        for store in [full, truncated] { try store.setDefaultInterval(.minimum) }
        return (full, truncated)
    }

    /// The events of the store's device in `[from, to)`.
    func count(_ store: EventStore, from: Milliseconds, to: Milliseconds) throws -> Int {
        var count = 0
        try store.forEachStoredEvent(device: "phone", from: from, to: to) { _ in count += 1 }
        return count
    }

    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every answer of the library as of `time`.
    func answers(_ store: EventStore, asOf time: Date) async throws -> [String] {
        let scheduler = FetchScheduler(store: store)
        let apps = try await scheduler.apps(device: "phone", asOf: time)
        var said = await [
            try json(apps), try json(store.apps(device: "phone", asOf: time)),
            try json(scheduler.schedule(from: time, to: time.addingTimeInterval(86_400), device: "phone")),
            try json(scheduler.nextWake(after: time, device: "phone")),
        ]
        for app in apps.prefix(5) {
            await said.append(try json(scheduler.profile(app: app, device: "phone", days: .weekday, asOf: time)))
            await said.append(try json(scheduler.state(app: app, device: "phone", now: time)))
            await said.append(try json(scheduler.nextWake(after: time, device: "phone", app: app)))
        }
        return said
    }

    func check(_ file: String, timeZone: TimeZone, asOf time: Date) async throws {
        let (full, truncated) = try stores(file, timeZone: timeZone, asOf: time)
        let expected = try await answers(truncated, asOf: time)
        // A fresh store, then one whose cache learned every event, then a scheduler that answered
        // later questions first.
        await #expect(try answers(full, asOf: time) == expected)
        _ = try await FetchScheduler(store: full).schedule(
            from: time.addingTimeInterval(86_400 * 400), to: time.addingTimeInterval(86_400 * 401), device: "phone")
        await #expect(try answers(full, asOf: time) == expected)
        let scheduler = FetchScheduler(store: full)
        _ = try await scheduler.nextWake(after: time.addingTimeInterval(86_400 * 400), device: "phone")
        await #expect(
            try json(scheduler.schedule(from: time, to: time.addingTimeInterval(86_400), device: "phone"))
                == expected[2])
        // And the answer after the last event is not the one as of T.
        await #expect(try answers(full, asOf: time.addingTimeInterval(86_400 * 400)) != expected)
    }

    @Test(arguments: [1, 2])
    func syntheticAnswersAreAsOfNow(seed: UInt64) async throws {
        let log = SyntheticLog(persona: .commuter, days: 28, timeZone: zone, seed: seed)
        let file = TestFiles.write(EventLogWriter.csv(log.events()))
        let time = Date(milliseconds: DateFields(year: 2024, month: 1, day: 15, hour: 7).instant(in: zone).0)
        try await check(file, timeZone: zone, asOf: time)
    }

    /// The issue's case: four weeks in Europe/Berlin across a DST change, a habit that crosses
    /// midnight, an app used every 15-30 minutes, and a launch at T itself, which an answer as of
    /// T read (the next day's expected launches differed in the third digit).
    @Test func anEventAtTheInstantIsNotKnownAsOfIt() async throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let time = Date(milliseconds: DateFields(year: 2024, month: 4, day: 8, hour: 9).instant(in: berlin).0)
        let file = TestFiles.fixture("as-of-berlin-28d.csv")
        let (full, _) = try stores(file, timeZone: berlin, asOf: time)
        #expect(try count(full, from: time.milliseconds, to: time.milliseconds + 1) == 1, "a launch at T")
        try await check(file, timeZone: berlin, asOf: time)
    }

    @Test(.enabled(if: TestFiles.datasetsPresent))
    func realLogAnswersAreAsOfNow() async throws {
        // The moment the issue saw: only cold-start wakes from the whole Xiaomi log.
        try await check(
            TestFiles.dataset("activitywatch-android-1/export.json"), timeZone: zone,
            asOf: Date(timeIntervalSince1970: 1_641_661_200))
    }
}
