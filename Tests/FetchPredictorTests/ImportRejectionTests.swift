import FetchPredictorTestSupport
import Foundation
import Synchronization
import Testing

@testable import FetchPredictor

/// Bad input is refused with the file, the line and the field, and nothing of it is stored; what
/// was stored before stays.
struct ImportRejectionTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A store that already holds one good file, so that each test can check nothing was lost.
    func storeWithHistory() throws -> (EventStore, (launches: Int, fetches: Int, deviceEvents: Int)) {
        let store = try EventStore.inMemory()
        _ = try store.importFile(TestFiles.fixture("commuter-28d.csv"), options: ImportOptions(), now: now)
        return (store, try store.eventCounts())
    }

    /// Imports `text` into a store with history, expects it refused, and returns the error.
    func refused(_ text: String, name: String = "bad.csv", _ options: ImportOptions = ImportOptions()) throws
        -> ImportError
    {
        let (store, before) = try storeWithHistory()
        let path = TestFiles.write(text, name: name)
        let error = try #require(throws: ImportError.self) {
            try store.importFile(path, options: options, now: now)
        }
        #expect(try store.eventCounts() == before, "nothing of a refused file is stored, nothing is lost")
        #expect("\(error)".contains(path), "the message names the file")
        return error
    }

    func firstRejection(_ error: ImportError) -> Rejection? {
        if case .invalidRows(_, _, let first) = error { return first.first }
        return nil
    }

    /// One App Usage date that is a day in neither order is that row's fault, named by its line
    /// and field; dates no export writes are refused, not read as the nearest date (issue 25:
    /// '13/13/24' was said of line 2 as 'the dates mix day/month and month/day orders', and
    /// '4//7/24' was read as 4/7/24). Four-digit years stay: the project's fixtures write them.
    @Test(arguments: [
        ("13/13/24", "neither as day/month nor as month/day"), ("4//7/24", "not a date as"),
        ("4/7/202", "not a date as"), ("123/7/24", "not a date as"), ("4/7/2", "not a date as"),
    ])
    func anAppUsageDateThatIsNoDateIsNamedByItsRow(date: String, says: String) throws {
        var rows = ["\"App name\",\"Date\",\"Time\",\"Duration\""]
        for day in 1...20 { rows.append("\"Slack\",\"4/\(day)/24\",\"9:00:00 am\",\"0:01:00\"") }
        rows.insert("\"Slack\",\"\(date)\",\"9:00:00 am\",\"0:01:00\"", at: 12)
        let error = try refused(
            rows.joined(separator: "\n") + "\n", name: "au-bad.csv",
            ImportOptions(format: .appUsage, timeZone: .gmt, dateOrder: .mdy))
        let rejection = try #require(firstRejection(error), "\(error)")
        #expect(rejection.line == 13)
        #expect(rejection.field == "Date")
        #expect(rejection.reason.contains(says), "\(rejection.reason)")
    }

    @Test func missingColumnIsRefusedAtTheHeader() throws {
        let error = try refused("timestamp,app\n2024-01-01T08:00:00Z,a\n")
        guard case .unknownFormat(_, let tried) = error else { Issue.record("\(error)"); return }
        #expect(tried.contains { $0.contains("csv (the header has no 'event' column)") })
        let given = try refused("timestamp,app\n2024-01-01T08:00:00Z,a\n", ImportOptions(format: .csv))
        guard case .malformed(_, let line, let reason) = given else { Issue.record("\(given)"); return }
        #expect(line == 1)
        #expect(reason.contains("'event'"))
    }

    @Test func badTimestampNamesLineAndField() throws {
        let error = try refused("timestamp,app,event\n2024-01-01T08:00:00Z,a,launch\nyesterday,b,launch\n")
        let rejection = try #require(firstRejection(error))
        #expect(rejection.line == 3)
        #expect(rejection.field == "timestamp")
        #expect("\(error)".contains(":3: field 'timestamp'"))
    }

    @Test func timestampWithoutOffsetIsRefused() throws {
        let error = try refused("timestamp,app,event\n2024-01-01T08:00:00,a,launch\n")
        #expect(firstRejection(error)?.reason.contains("no Z and no UTC offset") == true)
    }

    @Test func unknownEventIsRefused() throws {
        let error = try refused("timestamp,app,event\n2024-01-01T08:00:00Z,a,open\n")
        #expect(firstRejection(error)?.field == "event")
        #expect(firstRejection(error)?.line == 2)
    }

    @Test func fetchWithoutResultIsRefused() throws {
        let error = try refused("timestamp,app,event,result\n2024-01-01T08:00:00Z,a,fetch,\n")
        #expect(firstRejection(error)?.field == "result")
        let jsonl = try refused(
            #"{"timestamp":"2024-01-01T08:00:00Z","app":"a","event":"fetch"}"# + "\n", name: "bad.jsonl")
        #expect(firstRejection(jsonl)?.field == "result")
    }

    @Test func unreadableFileIsRefused() throws {
        let (store, before) = try storeWithHistory()
        let missing = TestFiles.scratchFolder().appendingPathComponent("missing.csv").path
        let error = try #require(throws: ImportError.self) {
            try store.importFile(missing, options: ImportOptions(format: .csv), now: now)
        }
        #expect("\(error)".contains("Cannot read \(missing)"))
        let folder = TestFiles.scratchFolder().path
        #expect(throws: ImportError.self) { try store.importFile(folder, options: ImportOptions(), now: now) }
        #expect(try store.eventCounts() == before)
    }

    @Test func ambiguousDatesAskForTheOrder() throws {
        let (store, before) = try storeWithHistory()
        let error = try #require(throws: ImportError.self) {
            try store.importFile(
                TestFiles.fixture("app-usage-ambiguous.csv"), options: ImportOptions(timeZone: .gmt), now: now)
        }
        guard case .ambiguousDates(_, let example, let line, _) = error else { Issue.record("\(error)"); return }
        #expect(example == "05/06/2024")
        #expect(line == 2)
        #expect("\(error)".contains("read as day/month or month/day alike"))
        #expect(!"\(error)".contains("--"), "the library names no flag of the tool")
        #expect(try store.eventCounts() == before)
    }

    @Test func binaryJunkIsRefusedAsNotText() throws {
        let (store, before) = try storeWithHistory()
        var random = SeededGenerator(seed: 9)
        let junk = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) } + [0]
        let path = TestFiles.write(bytes: junk)
        let error = try #require(throws: ImportError.self) {
            try store.importFile(path, options: ImportOptions(), now: now)
        }
        guard case .notText = error else { Issue.record("\(error)"); return }
        let asCSV = try #require(throws: ImportError.self) {
            try store.importFile(path, options: ImportOptions(format: .csv), now: now)
        }
        #expect("\(asCSV)".contains(path))
        #expect(try store.eventCounts() == before)
    }

    @Test(arguments: ["", "\n\n", "timestamp,app,event\n"])
    func emptyFileIsRefused(_ text: String) throws {
        let error = try refused(text)
        guard case .empty = error else { Issue.record("\(error)"); return }
    }

    @Test func ambiguousFormatIsRefused() throws {
        // A line that is a jsonl event and the start of an ActivityWatch export. (A header of both
        // the csv format and App Usage is not ambiguous any more: the csv format refuses a column
        // it does not know, as App Usage's Date.)
        let error = try refused(
            #"{"timestamp": "2024-01-01T08:00:00Z", "app": "a", "event": "launch", "buckets": 1}"# + "\n")
        guard case .ambiguousFormat(_, let candidates) = error else { Issue.record("\(error)"); return }
        #expect(Set(candidates) == [.jsonl, .activitywatch])
    }

    @Test func everyBadRowIsReported() throws {
        var text = "timestamp,app,event\n"
        for index in 0..<30 {
            text += index.isMultiple(of: 2) ? "2024-01-01T08:\(10 + index):00Z,a,launch\n" : "bad,a,launch\n"
        }
        let error = try refused(text)
        guard case .invalidRows(_, let count, _) = error else { Issue.record("\(error)"); return }
        #expect(count == 15)
    }

    /// A zone that contradicts the device's is refused, naming both, and stores nothing (it was
    /// ignored without a word, and a second import stored every event again, shifted).
    @Test func aZoneThatContradictsTheDevicesIsRefused() throws {
        let store = try EventStore.inMemory()
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        _ = try store.importFile(
            TestFiles.fixture("app-usage-dmy.csv"), options: ImportOptions(device: "phone", timeZone: kolkata), now: now
        )
        let before = try store.eventCounts()
        let error = try #require(throws: StoreError.self) {
            try store.importFile(
                TestFiles.fixture("app-usage-dmy.csv"),
                options: ImportOptions(device: "phone", timeZone: TimeZone(identifier: "Europe/Warsaw")!), now: now)
        }
        #expect("\(error)".contains("Asia/Kolkata") && "\(error)".contains("Europe/Warsaw"))
        #expect(try store.eventCounts() == before)
        // The same zone again: every event a duplicate.
        let again = try store.importFile(
            TestFiles.fixture("app-usage-dmy.csv"), options: ImportOptions(device: "phone", timeZone: kolkata), now: now
        )
        #expect(again.stored == 0)
    }

    @Test func skipInvalidStoresTheValidRowsAndReportsTheRest() async throws {
        let store = try EventStore.inMemory()
        let path = TestFiles.write(
            "timestamp,app,event,result\n2024-01-01T08:00:00Z,a,launch,\nbad,a,launch,\n2024-01-01T09:00:00Z,a,fetch,maybe\n2024-01-01T10:00:00Z,a,fetch,noData\n"
        )
        let refused = Mutex<[Rejection]>([])
        let report = try await store.importFile(
            path, options: ImportOptions(skipInvalid: true), now: now,
            onReject: { rejection in
                refused.withLock { $0.append(rejection) }
            })
        let all = refused.withLock { $0 }
        #expect(report.stored == 2)
        #expect(report.rejected == 2)
        #expect(all.map(\.line) == [3, 4])
        #expect(all.map(\.field) == ["timestamp", "result"])
    }

    @Test func oddAppNamesAreRefusedWithAReason() throws {
        let long = String(repeating: "x", count: 10_000)
        for (name, reason) in [
            ("\"\"", "empty"), ("\"a\u{7}b\"", "control character"), (long, "bytes long"),
            // 'é' as 'e' and a combining accent: the same name to a reader, other bytes to the store.
            ("cafe\u{301}", "normal form C"),
        ] {
            let error = try refused("timestamp,app,event\n2024-01-01T08:00:00Z,\(name),launch\n")
            #expect(firstRejection(error)?.field == "app")
            #expect(firstRejection(error)?.reason.contains(reason) == true, "\(error)")
        }
    }

    @Test func namesWithQuotesAndSQLAreStoredAsTheyAre() throws {
        let store = try EventStore.inMemory()
        let path = TestFiles.write(
            "timestamp,app,event\n2024-01-01T08:00:00Z,\"Robert'); DROP TABLE launch;--\",launch\n2024-01-01T08:00:00Z,\"say \"\"hi\"\"\",launch\n"
        )
        _ = try store.importFile(path, options: ImportOptions(), now: now)
        #expect(try Set(store.apps().map(\.app)) == ["Robert'); DROP TABLE launch;--", "say \"hi\""])
    }

    @Test func timesOutside1970To2099AreRefused() throws {
        let before = try refused("timestamp,app,event\n1969-12-31T23:59:59Z,a,launch\n")
        #expect(firstRejection(before)?.reason.contains("before 1970") == true)
        let after = try refused("timestamp,app,event\n2100-01-01T00:00:00Z,a,launch\n")
        #expect(firstRejection(after)?.reason.contains("after 2099") == true)
    }

    @Test func lineOverOneMebibyteIsRefused() throws {
        let error = try refused(
            "timestamp,app,event\n2024-01-01T08:00:00Z," + String(repeating: "a", count: 1_100_000) + ",launch\n")
        guard case .lineTooLong(_, let line, _) = error else { Issue.record("\(error)"); return }
        #expect(line == 2)
    }

    @Test func deeplyNestedJSONIsRefused() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let jsonl = try refused(
            #"{"timestamp":"2024-01-01T08:00:00Z","app":"a","event":"launch","x":"# + deep + "}\n",
            name: "deep.jsonl", ImportOptions(format: .jsonl))
        #expect(firstRejection(jsonl)?.reason.contains("nests deeper") == true)
        let aw = try refused(#"{"buckets":{"b":{"type":"currentwindow","events":["# + deep + "]}}}", name: "deep.json")
        guard case .malformed(_, _, let reason) = aw else { Issue.record("\(aw)"); return }
        #expect(reason.contains("nests deeper"))
    }

    @Test func activityWatchEventWithoutAppNamesItsLine() throws {
        let text = """
            {"buckets":{"w":{"type":"currentwindow","events":[
            {"timestamp":"2024-03-01T07:30:00Z","duration":5,"data":{"package":"com.a"}},
            {"timestamp":"2024-03-01T07:40:00Z","duration":5,"data":{}}
            ]}}}
            """
        let error = try refused(text, name: "window.json")
        #expect(firstRejection(error)?.line == 3)
        #expect(firstRejection(error)?.field == "data.package")
    }

    @Test func truncatedActivityWatchExportIsRefused() throws {
        let text = try String(contentsOfFile: TestFiles.fixture("activitywatch-small.json"), encoding: .utf8)
        let error = try refused(String(text.prefix(text.count / 2)), name: "cut.json")
        guard case .malformed(_, let line, _) = error else { Issue.record("\(error)"); return }
        #expect(line > 1)
    }
}
