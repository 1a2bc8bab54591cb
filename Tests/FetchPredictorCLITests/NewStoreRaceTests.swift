import Foundation
import Testing

/// Processes that create the same new store at once wait for each other: every one succeeds and
/// every event is stored (issue 25: in 7 of 15 runs of three `record`s, one failed with
/// 'duplicate column name' or 'table device already exists', and its launch was lost).
struct NewStoreRaceTests {
    @Test func processesCreatingOneStoreAtOnceAllSucceed() throws {
        for round in 0..<4 {
            // Given a store that does not exist yet
            let store = Tool.scratch().appendingPathComponent("race.sqlite").path
            // When 8 records and 2 imports start at once
            var started: [(Process, Pipe, Pipe)] = []
            for index in 0..<8 {
                started.append(
                    try Tool.start([
                        "record", "launch", "app\(index)", "--at", "2024-01-01T00:00:0\(index)Z", "--device", "d",
                        "--db", store,
                    ]))
            }
            for _ in 0..<2 {
                started.append(
                    try Tool.start([
                        "import", Tool.fixture("commuter-28d.csv"), "--device", "phone", "--time-zone",
                        "Europe/Warsaw", "--db", store,
                    ]))
            }
            // Then every one succeeds
            for (process, out, err) in started {
                _ = out.fileHandleForReading.readDataToEndOfFile()
                let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "round \(round): \(process.arguments ?? []): \(said)")
            }
            // And every launch recorded is there
            let apps = try Tool.run(["apps", "--device", "d", "--db", store, "--json"])
            for index in 0..<8 { #expect(apps.stdout.contains("\"app\" : \"app\(index)\""), "round \(round)") }
        }
    }
}

/// A device's zone is where its local times were read: it does not move under them.
struct ZoneChangeTests {
    @Test func aZoneThatLocalTimesWereReadInIsNotChanged() throws {
        // Given an App Usage export, whose times are local, read in Asia/Kolkata
        let store = Tool.scratch().appendingPathComponent("zones.sqlite").path
        let imported = try Tool.run([
            "import", Tool.fixture("app-usage-mdy.csv"), "--date-order", "mdy", "--time-zone", "Asia/Kolkata",
            "--device", "phone", "--db", store,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the help's own example moves the device to another zone
        let moved = try Tool.run([
            "config", "--default-interval", "minimum", "--time-zone", "Europe/Warsaw", "--device", "phone", "--db",
            store,
        ])
        // Then it is refused, naming both zones and what to do, and nothing changed
        #expect(moved.status != 0)
        #expect(moved.stderr.contains("Asia/Kolkata") && moved.stderr.contains("Europe/Warsaw"), "\(moved.stderr)")
        #expect(moved.stderr.contains("prune --import"), "\(moved.stderr)")
        let shown = try Tool.run(["config", "--device", "phone", "--db", store, "--json"])
        #expect(shown.stdout.contains("\"timeZone\" : \"Asia\\/Kolkata\"") || shown.stdout.contains("Asia/Kolkata"))
        #expect(shown.stdout.contains("\"defaultInterval\" : \"never\""), "\(shown.stdout)")
        // And the same zone, or a device whose times were all instants, may be set
        #expect(
            try Tool.run(["config", "--time-zone", "Asia/Kolkata", "--device", "phone", "--db", store]).status == 0)
        _ = try Tool.run(["record", "launch", "a", "--at", "2024-01-01T00:00:00Z", "--device", "tablet", "--db", store])
        #expect(
            try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--device", "tablet", "--db", store]).status == 0)
        #expect(
            try Tool.run(["config", "--time-zone", "America/New_York", "--device", "tablet", "--db", store]).status == 0
        )
    }
}

/// Small things a new user tripped on (issue 25), each seen on the main of the time.
struct NewUserTrialTests {
    /// A store with device phone (no zone, one launch) and the commuter's weeks on tablet.
    static func store() throws -> String {
        let store = Tool.scratch().appendingPathComponent("trial.sqlite").path
        _ = try Tool.run(["record", "launch", "a", "--at", "2024-01-01T00:00:00Z", "--device", "phone", "--db", store])
        let imported = try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--device", "tablet", "--time-zone", "Europe/Warsaw", "--db",
            store,
        ])
        #expect(imported.status == 0)
        // The note about a device with no zone is about the devices this import wrote into.
        #expect(!imported.stderr.contains("device phone has no time zone"), "\(imported.stderr)")
        return store
    }

    @Test func anImportNotesOnlyItsOwnDevicesWithoutAZone() throws {
        let store = try Self.store()
        let into = try Tool.run(["import", Tool.fixture("night-owl-14d.jsonl"), "--device", "laptop", "--db", store])
        #expect(into.stderr.contains("device laptop has no time zone"), "\(into.stderr)")
        #expect(!into.stderr.contains("device phone"), "\(into.stderr)")
    }

    @Test func configOfADeviceTheStoreDoesNotHaveSaysSo() throws {
        let store = try Self.store()
        let shown = try Tool.run(["config", "--default-interval", "minimum", "--db", store])
        #expect(shown.status == 0)
        #expect(!shown.stdout.contains("time zone not set"), "\(shown.stdout)")
        #expect(shown.stdout.contains("device default: not in the store"), "\(shown.stdout)")
    }

    @Test func peaksTakesSeveralApps() throws {
        let store = try Self.store()
        let both = try Tool.run([
            "peaks", "com.example.news", "com.example.chat", "--device", "tablet", "--db", store, "--json",
            "--now", "2024-01-29T06:00:00Z",
        ])
        #expect(both.status == 0, "\(both.stderr)")
        let apps = (try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [[String: Any]])?.compactMap {
            $0["app"] as? String
        }
        #expect(apps == ["com.example.news", "com.example.chat"])
    }
}

extension NewUserTrialTests {
    @Test func anEvaluationWithNoScoredDayShowsNoEmptyTable() throws {
        let folder = Tool.scratch()
        let log = folder.appendingPathComponent("short.csv").path
        let generated = try Tool.run([
            "generate", "--persona", "commuter", "--days", "5", "--time-zone", "Europe/Warsaw",
        ])
        try generated.stdout.write(toFile: log, atomically: true, encoding: .utf8)
        let evaluated = try Tool.run(["evaluate", log, "--time-zone", "Europe/Warsaw"])
        #expect(evaluated.stdout.contains("No day of it was scored"), "\(evaluated.stdout)")
        #expect(!evaluated.stdout.contains("Reliability at budget"), "\(evaluated.stdout)")
        #expect(!evaluated.stdout.contains("FORECAST PER WAKE"), "\(evaluated.stdout)")
    }
}
