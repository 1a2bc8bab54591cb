import FetchPredictorTestSupport
import Foundation
import GRDB
import Testing

@testable import FetchPredictor

/// An erasure on SQLite gives its space back by what it freed, not by a rewrite of the whole
/// file: the request that asks for it holds no other writer behind a VACUUM; and what it erased
/// is not left in the file.
struct ErasureSpaceTests {
    let base: Milliseconds = 1_700_000_000_000

    /// A store in a new file with two devices; the first's app names are a mark to look for.
    func store() async throws -> EventStore {
        let store = try EventStore(path: TestFiles.scratchFolder("erasure").path + "/events.sqlite")
        for device in ["gone", "kept"] {
            let events = (0..<3000).map { index in
                Event(
                    kind: .launch, app: "com.example.\(device)-mark-\(index % 40)",
                    time: base + Milliseconds(index) * 60_000)
            }
            _ = try await store.record(events, device: device)
        }
        return store
    }

    /// The statements the store's writer runs from now on.
    func statements(of store: EventStore) async throws -> Statements {
        let seen = Statements()
        try await store.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { seen.add(statement.sql) }
            }
        }
        return seen
    }

    @Test func anErasureVacuumsWhatItFreedNotTheFile() async throws {
        let store = try await store()
        await #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 2)
        let seen = try await statements(of: store)
        _ = try await store.eraseDevice("gone", dryRun: false)
        #expect(!seen.all.contains { $0.uppercased().hasPrefix("VACUUM") }, "\(seen.all)")
        #expect(seen.all.contains { $0.contains("incremental_vacuum") })
        await #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") } == 0)
        // Once the log is checkpointed, nothing of the erased device is in the file.
        try await store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(bytes.range(of: Data("gone-mark".utf8)) == nil, "the erased device's app names are in the file")
        #expect(bytes.range(of: Data("kept-mark".utf8)) != nil)
        await #expect(try store.apps(device: "kept").count == 40)
    }

    /// A store made before vacuumed whole: its first compaction turns it incremental.
    @Test func aStoreMadeBeforeIsTurnedIncrementalOnce() async throws {
        let store = try await store()
        try await store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = NONE")
            try db.execute(sql: "VACUUM")
        }
        await #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 0)
        _ = try await store.prune(before: base + 60_000 * 10, device: "kept", dryRun: false)
        await #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 2)
        let seen = try await statements(of: store)
        _ = try await store.eraseDevice("gone", dryRun: false)
        #expect(!seen.all.contains { $0.uppercased().hasPrefix("VACUUM") })
    }

    final class Statements: @unchecked Sendable {
        private let lock = NSLock()
        private var sql: [String] = []
        func add(_ statement: String) { lock.withLock { sql.append(statement) } }
        var all: [String] { lock.withLock { sql } }
    }
}

/// A schedule written as CSV for a spreadsheet runs nothing: a name that begins as a formula
/// does is written as text.
struct ScheduleCSVTests {
    @Test func namesThatLookLikeFormulasAreWrittenAsText() throws {
        let time = Date(timeIntervalSince1970: 1_706_000_000)
        let apps = ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "com.example.news"].map {
            AppWake(app: $0, plannedTime: time, expectedLaunches: 0.5, reasons: [])
        }
        let csv = WakeCalendar.csv([DeviceWake(device: "=phone", time: time, apps: apps)])
        let rows = csv.split(separator: "\n").dropFirst().map(String.init)
        #expect(rows.count == 5)
        for row in rows {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells[1] == "'=phone")
            #expect(cells[2].first == "'" || cells[2].first == "\"" || cells[2] == "com.example.news", "\(row)")
            #expect(!"=+-@".contains(cells[2].first!), "\(row)")
        }
        #expect(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\""))
        #expect(csv.contains(",'-2,"))
    }
}
