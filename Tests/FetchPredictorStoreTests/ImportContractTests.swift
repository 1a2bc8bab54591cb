import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

/// Imports, their log and pruning, on each backend: every event knows its import, no file is
/// stored twice under two readings, and pruning an import deletes exactly what it alone holds.
@Suite struct ImportContractTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func launchCount(_ store: any EventStoring, device: String) async throws -> Int {
        try await store.apps(device: device).reduce(0) { $0 + $1.launches }
    }

    /// A file longer than the PostgreSQL loader's chunk of 50,000 events: stored whole (the
    /// server stores one chunk while the next is read), or, with a bad row at its end, read after
    /// chunks were sent, not at all.
    @Test(arguments: Backend.available)
    func aFileOfManyChunksIsStoredWholeOrNotAtAll(backend: Backend) async throws {
        let store = try backend.makeStore()
        let rows = 120_001
        var text = "timestamp,app,event,device\n"
        for index in 0..<rows {
            text += "\(1_704_067_200 + index * 7),com.example.app\(index % 40),launch,d\(index % 3)\n"
        }
        let bad = TestFiles.write(text + "not-a-time,com.example.app0,launch,d0\n")
        await #expect(throws: ImportError.self) {
            try await store.importFile(bad, options: ImportOptions(timeZone: zone), now: now)
        }
        #expect(try await store.devices().isEmpty)
        #expect(try await store.imports().isEmpty)
        let good = TestFiles.write(text)
        let report = try await store.importFile(good, options: ImportOptions(timeZone: zone), now: now)
        #expect(report.stored == rows && report.duplicates == 0)
        #expect(try await store.devices() == ["d0", "d1", "d2"])
        await #expect(try launchCount(store, device: "d0") == 40_001)
        await #expect(try launchCount(store, device: "d1") == 40_000)
        let again = try await store.importFile(good, options: ImportOptions(timeZone: zone), now: now)
        #expect(again.stored == 0 && again.duplicates == rows)
        #expect(try await store.imports().map(\.eventsKept) == [rows, 0])
    }

    /// A device whose App Usage file was read in the wrong zone moves to the right one in one
    /// step: its local-time imports are read again in the new zone, instants stay; a file that
    /// changed or went away since refuses the move, and nothing changes.
    @Test(arguments: Backend.available)
    func localTimesAreReadAgainInANewZoneInOneStep(backend: Backend) async throws {
        let store = try backend.makeStore()
        let folder = TestFiles.scratchFolder("reread")
        let file = folder.appendingPathComponent("usage.csv").path
        try FileManager.default.copyItem(atPath: TestFiles.fixture("app-usage-dmy.csv"), toPath: file)
        let utc = TimeZone(identifier: "UTC")!, kolkata = TimeZone(identifier: "Asia/Kolkata")!
        let first = try await store.importFile(file, options: ImportOptions(device: "phone", timeZone: utc), now: now)
        // An event of an instant, recorded: it stays as it is.
        try await store.record([.launch("com.example.recorded", at: 1_710_000_000_000)], device: "phone")
        let before = try await store.events(device: "phone")
        let state = {
            await (
                try await store.events(device: "phone"), try await store.imports(), try store.timeZone(device: "phone")
            )
        }
        // Refused while the file is not the one read: changed, then gone.
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        try (original + Data("\"Chat\",\"14/03/24\",\"9:00:00 am\",\"0:00:10\"\n".utf8)).write(
            to: URL(fileURLWithPath: file))
        let unchanged = try await state()
        await #expect {
            try await store.reread(device: "phone", in: kolkata, now: now)
        } throws: { error in
            guard case StoreError.importedFileChanged(file, let id) = error else { return false }
            return id == unchanged.1.first?.id
        }
        try FileManager.default.removeItem(atPath: file)
        await #expect(throws: (any Error).self) { try await store.reread(device: "phone", in: kolkata, now: now) }
        let after = try await state()
        #expect(after.0 == unchanged.0 && after.1.map(\.id) == unchanged.1.map(\.id) && after.2 == utc)
        // Back as it was: moved, every local time now 5 h 30 min earlier, the recorded one not.
        try original.write(to: URL(fileURLWithPath: file))
        let reports = try await store.reread(device: "phone", in: kolkata, now: now)
        #expect(reports.count == 1 && reports[0].stored == first.stored && reports[0].timeZone == "Asia/Kolkata")
        await #expect(try store.timeZone(device: "phone") == kolkata)
        let moved = try await store.events(device: "phone")
        #expect(moved.count == before.count)
        let shift = Milliseconds(5 * 3600 + 1800) * 1000
        let expected = before.map { event in
            var event = event
            if event.app != "com.example.recorded" { event.time -= shift }
            return event
        }
        #expect(
            Set(moved.map { "\($0.app) \($0.kind) \($0.time)" })
                == Set(expected.map { "\($0.app) \($0.kind) \($0.time)" }))
        let imports = try await store.imports()
        #expect(imports.count == 1 && imports[0].id != unchanged.1[0].id && imports[0].timeZone == "Asia/Kolkata")
    }

    /// A script that prunes an import by its id must never reach another file's events: an id
    /// is given once, also after the import that had the highest was pruned.
    @Test(arguments: Backend.available)
    func importIDsAreNeverGivenTwice(backend: Backend) async throws {
        let store = try backend.makeStore()
        var ids: [Int64] = []
        for day in 1...3 {
            let file = TestFiles.write("timestamp,app,event\n2024-01-0\(day)T08:00:00Z,com.example.news,launch\n")
            _ = try await store.importFile(file, options: ImportOptions(device: "phone", timeZone: zone), now: now)
            ids.append(try #require(try await store.imports().last?.id))
            // The newest import pruned each time: its id is the one a rowid would give again.
            if day < 3 { _ = try await store.prune(importID: ids.last!) }
        }
        #expect(Set(ids).count == 3, "\(ids)")
        #expect(try await store.imports().map(\.id) == [ids[2]])
        await #expect {
            try await store.prune(importID: ids[1])
        } throws: { error in
            guard case StoreError.unknownImport(let id) = error else { return false }
            return id == ids[1]
        }
    }

    @Test(arguments: Backend.available)
    func localTimesInNoNamedZoneAreRefusedAndNothingIsStored(backend: Backend) async throws {
        let store = try backend.makeStore()
        await #expect {
            try await store.importFile(
                TestFiles.fixture("app-usage-mdy.csv"), options: ImportOptions(device: "phone"), now: Date())
        } throws: { error in
            guard case ImportError.needsTimeZone(_, .appUsage) = error else { return false }
            // The library says what is missing; the tool's flag for it is the tool's to add.
            return "\(error)".contains("writes local times with no time zone") && !"\(error)".contains("--")
        }
        #expect(try await store.devices().isEmpty)
        #expect(try await store.imports().isEmpty)
    }

    @Test(arguments: Backend.available)
    func theSameFileReadAnotherWayIsRefusedNamingTheEarlierImport(backend: Backend) async throws {
        let store = try backend.makeStore()
        let file = TestFiles.fixture("app-usage-mdy.csv")
        let first = try await store.importFile(
            file, options: ImportOptions(device: "phone", timeZone: TimeZone(identifier: "UTC")), now: Date())
        let stored = try await launchCount(store, device: "phone")
        #expect(first.stored > 0)
        // The device's zone cannot move under the local times read in it (issue 25)...
        await #expect(throws: StoreError.self) {
            try await store.setTimeZone(TimeZone(identifier: "Asia/Kolkata")!, device: "phone")
        }
        // ...and another zone for them, on another device, is refused.
        for (device, zone) in [("tablet", TimeZone(identifier: "Asia/Kolkata"))] {
            await #expect {
                try await store.importFile(file, options: ImportOptions(device: device, timeZone: zone), now: Date())
            } throws: { error in
                guard case StoreError.importedOtherwise(_, let earlier, _, let differences) = error else {
                    return false
                }
                return earlier == 1 && differences.contains { $0.hasPrefix("time zone") }
                    && "\(error)".contains("imported as import 1") && !"\(error)".contains("--")
            }
        }
        #expect(try await launchCount(store, device: "phone") == stored)
        #expect(try await store.devices() == ["phone"])
        #expect(try await store.imports().count == 1)
        // Read as before, every row is a duplicate.
        try await store.setTimeZone(TimeZone(identifier: "UTC")!, device: "phone")
        let again = try await store.importFile(file, options: ImportOptions(device: "phone"), now: Date())
        #expect(again.stored == 0 && again.duplicates == first.events)
        #expect(try await store.imports().count == 2)
        // Pruning the first import leaves the events to the second, which holds them too; once
        // both are gone, the file can be read the other way.
        // (A refused import may have used a number: PostgreSQL's sequences do not go back.)
        let ids = try await store.imports().map(\.id)
        #expect(try await store.prune(importID: ids[0]).kept == first.stored)
        #expect(try await launchCount(store, device: "phone") == stored)
        #expect(try await store.prune(importID: ids[1]).kept == 0)
        #expect(try await launchCount(store, device: "phone") == 0)
        let kolkata = try await store.importFile(
            file, options: ImportOptions(device: "tablet", timeZone: TimeZone(identifier: "Asia/Kolkata")), now: Date())
        #expect(kolkata.stored == first.stored)
    }

    @Test(arguments: Backend.available)
    func everyEventKeepsItsImportAndPruneByImportDeletesExactlyThose(backend: Backend) async throws {
        let store = try backend.makeStore()
        let first = TestFiles.write(
            """
            timestamp,app,event,result,bytes
            2024-05-01T08:00:00Z,news,launch,,
            2024-05-01T09:00:00Z,news,fetch,newData,512
            2024-05-01T10:00:00Z,,unlock,,
            """)
        // The second shares one launch with the first, and adds its own.
        let second = TestFiles.write(
            """
            timestamp,app,event
            2024-05-01T08:00:00Z,news,launch
            2024-05-02T08:00:00Z,news,launch
            2024-05-02T08:05:00Z,"mail, work",launch
            """)
        try await store.setTimeZone(zone, device: "phone")
        _ = try await store.importFile(first, options: ImportOptions(device: "phone"), now: Date())
        _ = try await store.importFile(second, options: ImportOptions(device: "phone"), now: Date())
        _ = try await store.record(Event(kind: .launch, app: "news", time: 1_714_723_200_000), device: "phone")
        let imports = try await store.imports()
        #expect(imports.map(\.eventsKept) == [3, 2])
        #expect(imports.map(\.stored) == [3, 2])
        #expect(imports.map(\.duplicates) == [0, 1])
        let provenance = try await backend.count(
            in: store, sqlite: "SELECT count(*) FROM launch WHERE importId IS NULL",
            postgres: "SELECT count(*) FROM event WHERE kind = 0 AND import_id IS NULL")
        #expect(provenance == 1)

        let before = try await store.apps(device: "phone")
        let dry = try await store.prune(importID: 2, dryRun: true)
        #expect(dry == PruneReport(launches: 2, fetches: 0, deviceEvents: 0))
        await #expect(try store.apps(device: "phone") == before)
        await #expect(try store.imports().count == 2)

        let pruned = try await store.prune(importID: 2)
        #expect(pruned == dry)
        let apps = try await store.apps(device: "phone")
        #expect(apps.map(\.app) == ["news"])
        #expect(apps.first?.launches == 2)  // the first file's, and the recorded one
        #expect(apps.first?.fetchesNewData == 1)
        await #expect(try store.imports().map(\.id) == [1])
        await #expect(throws: StoreError.self) { try await store.prune(importID: 2) }
        // A dry prune by date changes nothing either.
        let byDate = try await store.prune(before: .max, device: "phone", dryRun: true)
        #expect(byDate.total == 4)
        await #expect(try store.apps(device: "phone") == apps)
    }

    @Test(arguments: Backend.available)
    func pruningAnImportKeepsWhatAnotherImportAlsoHolds(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        let shared = """
            2024-05-01T08:00:00Z,news,launch,
            2024-05-01T09:00:00Z,news,fetch,newData
            2024-05-01T09:30:00Z,news,notification,
            2024-05-01T10:00:00Z,,unlock,
            2024-05-01T10:30:00Z,,screenOff,
            """
        // Three files hold the shared events; each also has one launch of its own, and the second
        // holds one of its launches twice.
        let files = [
            "\(shared)\n2024-05-02T08:00:00Z,news,launch,",
            "\(shared)\n2024-05-03T08:00:00Z,mail,launch,\n2024-05-03T08:00:00Z,mail,launch,",
            "\(shared)\n2024-05-04T08:00:00Z,news,launch,",
        ].map { TestFiles.write("timestamp,app,event,result\n" + $0) }
        for file in files { _ = try await store.importFile(file, options: ImportOptions(device: "phone"), now: Date()) }
        #expect(try await store.imports().map(\.eventsKept) == [6, 1, 1])
        #expect(try await launchCount(store, device: "phone") == 4)

        // The first import's own launch goes; what the others also hold stays, now theirs.
        let dry = try await store.prune(importID: 1, dryRun: true)
        #expect(dry == PruneReport(launches: 1, fetches: 0, deviceEvents: 0, notifications: 0, kept: 5))
        #expect(try await store.prune(importID: 1) == dry)
        #expect(try await store.imports().map(\.eventsKept) == [6, 1])
        #expect(try await launchCount(store, device: "phone") == 3)
        #expect(try await store.apps(device: "phone").first { $0.app == "news" }?.fetchesNewData == 1)
        // Then the second's: the shared events pass to the third, and the app only it held goes.
        #expect(
            try await store.prune(importID: 2) == PruneReport(launches: 1, fetches: 0, deviceEvents: 0, kept: 5))
        #expect(try await store.imports().map(\.eventsKept) == [6])
        #expect(try await store.apps(device: "phone").map(\.app) == ["news"])
        // The last one holding them takes them all.
        await #expect(
            try store.prune(importID: 3)
                == PruneReport(launches: 2, fetches: 1, deviceEvents: 2, notifications: 1, kept: 0))
        #expect(try await store.apps(device: "phone").isEmpty)
        let held = try await backend.count(
            in: store, sqlite: "SELECT count(*) FROM alsoImported", postgres: "SELECT count(*) FROM also_imported")
        #expect(held == 0)
    }

    @Test(arguments: Backend.available)
    func anEventRecordedAsWellOutlivesTheImportThatStoredIt(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        let file = TestFiles.write(
            "timestamp,app,event\n2024-05-01T08:00:00Z,news,launch\n2024-05-02T08:00:00Z,news,launch\n")
        _ = try await store.importFile(file, options: ImportOptions(device: "phone"), now: Date())
        let recorded = try await store.record(
            Event(kind: .launch, app: "news", time: 1_714_550_400_000), device: "phone")
        #expect(!recorded)  // 2024-05-01T08:00Z, already stored by the import
        await #expect(try store.prune(importID: 1) == PruneReport(launches: 1, fetches: 0, deviceEvents: 0, kept: 1))
        await #expect(try launchCount(store, device: "phone") == 1)
        let imported = try await backend.count(
            in: store, sqlite: "SELECT count(*) FROM launch WHERE importId IS NOT NULL",
            postgres: "SELECT count(*) FROM event WHERE import_id IS NOT NULL")
        #expect(imported == 0)
    }

    @Test(arguments: Backend.available)
    func aDeviceWithNoZoneTakesTheImportsAndOtherDevicesOfTheFileNone(backend: Backend) async throws {
        let store = try backend.makeStore()
        let rows = TestFiles.write(
            """
            timestamp,app,event,device
            2024-05-01T08:00:00Z,news,launch,phone
            2024-05-01T09:00:00Z,news,launch,tablet
            """)
        _ = try await store.importFile(rows, options: ImportOptions(device: "phone"), now: Date())
        #expect(try await store.timeZone(device: "phone") == nil)
        // The zone named for the phone's local times becomes its zone; the tablet, only named by a
        // row of another import, gets none.
        _ = try await store.importFile(
            TestFiles.fixture("app-usage-mdy.csv"), options: ImportOptions(device: "phone", timeZone: zone), now: Date()
        )
        #expect(try await store.timeZone(device: "phone")?.identifier == zone.identifier)
        let more = TestFiles.write("timestamp,app,event,device\n2024-05-02T09:00:00Z,news,launch,laptop\n")
        _ = try await store.importFile(more, options: ImportOptions(device: "phone", timeZone: zone), now: Date())
        #expect(try await store.timeZone(device: "laptop") == nil)
        #expect(try await store.timeZone(device: "tablet") == nil)
        // A second file of local times read in another zone is refused.
        let other = TestFiles.write(
            "App,Date,Time,Duration\nChat,3/13/2024,08:00:00,0:01:00\n", name: "usage.csv")
        await #expect(throws: StoreError.self) {
            try await store.importFile(
                other, options: ImportOptions(device: "phone", timeZone: TimeZone(identifier: "Asia/Kolkata")),
                now: Date())
        }
    }

    @Test(arguments: Backend.available)
    func theSameFileWithOtherLabelsOrIgnoredPackagesIsRefused(backend: Backend) async throws {
        let store = try backend.makeStore()
        let file = TestFiles.fixture("app-usage-notifications.csv")
        let plain = ImportOptions(device: "fr", timeZone: zone)
        _ = try await store.importFile(file, options: plain, now: Date())
        var labelled = plain
        labelled.rowLabels = ["Powiadomienie": .notification]
        await #expect {
            try await store.importFile(file, options: labelled, now: Date())
        } throws: { "\($0)".contains("label powiadomienie=notification") || "\($0)".contains("Powiadomienie") }
        var ignoring = plain
        ignoring.extraIgnoredPackages = ["Video"]
        await #expect(throws: StoreError.self) { try await store.importFile(file, options: ignoring, now: Date()) }
        #expect(try await store.importFile(file, options: plain, now: Date()).stored == 0)
    }

    @Test(arguments: Backend.available)
    func secondImportOfTheSameFileStoresNothing(backend: Backend) async throws {
        let store = try backend.makeStore()
        let first = try await store.importFile(
            TestFiles.fixture("commuter-28d.csv"), options: ImportOptions(), now: now)
        let second = try await store.importFile(
            TestFiles.fixture("commuter-28d.csv"), options: ImportOptions(), now: now)
        #expect(first.stored == first.events)
        #expect(second.stored == 0)
        #expect(second.duplicates == first.events)
        #expect(second.sha256 == first.sha256)
    }

    @Test(arguments: Backend.available)
    func importLogRecordsEachImport(backend: Backend) async throws {
        let store = try backend.makeStore()
        let report = try await store.importFile(
            TestFiles.fixture("app-usage-dmy.csv"), options: ImportOptions(timeZone: .gmt), now: now)
        let imports = try await store.imports()
        #expect(imports.count == 1)
        #expect(imports.first?.sha256 == report.sha256)
        #expect(imports.first?.format == "app-usage")
        #expect(imports.first?.stored == report.stored)
        #expect(imports.first?.eventsKept == report.stored)
        #expect(imports.first?.importedAt == now)
        #expect(imports.first?.timeZone == "GMT", "the import log keeps the stored identifier")
    }

    /// A stored setting that is not a valid value is an error, never read as the default.

    /// A device's settings change in one transaction: a zone refused (imports of the device read
    /// local times in its present one) leaves its interval and budget as they were too.
    @Test(arguments: Backend.available)
    func aDevicesSettingsChangeWhollyOrNotAtAll(backend: Backend) async throws {
        let store = try backend.makeStore()
        _ = try await store.importFile(
            TestFiles.fixture("app-usage-dmy.csv"),
            options: ImportOptions(device: "phone", timeZone: zone, dateOrder: .dmy), now: now)
        let before = try await store.planningSettings(device: "phone")
        await #expect(throws: StoreError.self) {
            try await store.changeDevice(
                DeviceSettingsChange(
                    timeZone: TimeZone(identifier: "Asia/Tokyo")!, defaultInterval: .some(.minimum),
                    wakesPerHour: .some(3)),
                device: "phone")
        }
        let after = try await store.planningSettings(device: "phone")
        #expect(after.timeZone == zone && after.defaultInterval == before.defaultInterval)
        #expect(after.wakesPerHour == nil && after.version == before.version)
        // The same change in its own zone is made whole.
        try await store.changeDevice(
            DeviceSettingsChange(timeZone: zone, defaultInterval: .some(.minimum), wakesPerHour: .some(3)),
            device: "phone")
        let made = try await store.planningSettings(device: "phone")
        #expect(made.defaultInterval == .minimum && made.wakesPerHour == 3 && made.timeZone == zone)
    }
}
