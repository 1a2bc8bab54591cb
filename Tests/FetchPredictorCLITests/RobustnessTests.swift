import FetchPredictor
import Foundation
import Testing

/// What must survive bad files, killed processes and many writers at once, end to end.
struct RobustnessTests {
    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    func launches(_ db: String, device: String = "default") throws -> Int {
        let apps = try Tool.run(["apps", "--db", db, "--device", device, "--json"])
        return (try json(apps.stdout) as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["launches"] as? Int ?? 0) }
    }

    /// A csv of `count` launches of 50 apps, one every 30 seconds from 2024-01-01.
    static func bigLog(_ count: Int) -> String {
        let path = Tool.scratch().appendingPathComponent("big.csv").path
        var text = "timestamp,app,event\n"
        text.reserveCapacity(count * 45)
        let start = 1_704_067_200
        for index in 0..<count {
            text += "\(start + index * 30),com.example.app\(index % 50),launch\n"
        }
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func damagedDatabasesAreRefusedAndLeftAsTheyWere() throws {
        let folder = Tool.scratch()
        let good = folder.appendingPathComponent("good.sqlite").path
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", good])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        var random = SeededGenerator(seed: 3)
        let cases: [(String, Data)] = [
            ("truncated", bytes.prefix(bytes.count / 3)),
            ("header only", bytes.prefix(100)),
            ("random bytes", Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: random.next()) })),
            ("text", Data("timestamp,app,event\n".utf8)),
        ]
        for (name, content) in cases {
            let path = folder.appendingPathComponent("\(name).sqlite").path
            try content.write(to: URL(fileURLWithPath: path))
            let result = try Tool.run(["apps", "--db", path])
            #expect(result.status != 0, "\(name)")
            #expect(result.stderr.contains(path), "\(name): \(result.stderr)")
            #expect(
                result.stderr.contains("damaged") || result.stderr.contains("not a FetchPredictor database")
                    || result.stderr.contains("could not be used"), "\(name): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content, "\(name) was changed")
            let imported = try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", path])
            #expect(imported.status != 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content, "\(name) was changed by an import")
        }
    }

    /// `export | head`: when the reader goes away the export stops at once and quietly, with the
    /// status of a Unix tool that SIGPIPE ends (141), on any store; so does a command that prints.
    @Test func anExportWhoseReaderGoesAwayStopsQuietly() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try #require(try Tool.run(["import", Self.bigLog(20_000), "--db", db, "--time-zone", "UTC"]).status == 0)
        for arguments in [
            ["export", "--db", db, "--format", "jsonl"],
            // A command that prints its output in one piece: not a success that lost it.
            ["generate", "--persona", "commuter", "--days", "400", "--time-zone", "UTC"],
        ] {
            let (process, out, err) = try Tool.start(arguments)
            #expect(out.fileHandleForReading.readData(ofLength: 100).count == 100)
            try out.fileHandleForReading.close()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(stderr.isEmpty, "\(arguments[0]): \(stderr)")
            #expect(process.terminationReason == .exit && process.terminationStatus == 141, "\(arguments[0])")
        }
    }

    /// An import killed at random moments leaves the database whole, holding exactly what the
    /// committed imports stored; the import run again completes it.
    @Test func killedImportsLeaveTheDatabaseWhole() throws {
        let log = Self.bigLog(150_000)
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db])
        let committed = try launches(db)
        var random = SeededGenerator(seed: 5)
        for _ in 0..<4 {
            let (process, _, _) = try Tool.start(["import", log, "--db", db])
            usleep(UInt32(50_000 + random.next() % 400_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let check = try Tool.run(["apps", "--db", db, "--json"])
            #expect(check.status == 0, "\(check.stderr)")
            let count = try launches(db)
            #expect(
                count == committed || count == committed + 150_000, "a killed import left \(count - committed) launches"
            )
            let integrity = Process()
            integrity.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            integrity.arguments = [db, "PRAGMA integrity_check"]
            let out = Pipe()
            integrity.standardOutput = out
            if (try? integrity.run()) != nil {
                integrity.waitUntilExit()
                #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "ok\n")
            }
        }
        let finish = try Tool.run(["import", log, "--db", db])
        #expect(finish.status == 0)
        #expect(try launches(db) == committed + 150_000)
    }

    /// Processes recording at once, beside an import and schedule queries: every event stored
    /// exactly once, and no "database is locked" reaches a user.
    @Test func concurrentWritersLoseNothing() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let log = Self.bigLog(60_000)
        try Tool.run(["config", "--default-interval", "minimum", "--db", db, "--device", "phone"])
        try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--db", db, "--device", "phone"])
        let writers = 6, eventsEach = 15
        var processes: [(Process, Pipe, Pipe)] = [try Tool.start(["import", log, "--db", db, "--device", "bulk"])]
        for writer in 0..<writers {
            let script =
                (0..<eventsEach).map { index in
                    "\(Tool.path) record launch app\(writer) --at \(1_704_067_200 + index * 60) --db \(db) --device phone || exit 1"
                }.joined(separator: "\n")
                + "\n\(Tool.path) schedule --db \(db) --device phone --now 2024-01-02T00:00:00Z > /dev/null || exit 1"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            processes.append((process, out, err))
        }
        for (process, out, err) in processes {
            _ = out.fileHandleForReading.readDataToEndOfFile()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(errors)")
            #expect(!errors.contains("locked"))
        }
        #expect(try launches(db, device: "phone") == writers * eventsEach)
        #expect(try launches(db, device: "bulk") == 60_000)
    }

    @Test func pruneDeletesForGoodAndSaysHowMany() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let old = Tool.scratch().appendingPathComponent("old.csv").path
        try
            "timestamp,app,event\n2023-06-01T08:00:00Z,org.example.secretdiary,launch\n2023-06-02T08:00:00Z,org.example.secretdiary,launch\n"
            .write(toFile: old, atomically: true, encoding: .utf8)
        try Tool.run(["import", old, "--db", db, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db])
        let before = try launches(db)
        let pruned = try Tool.run(["prune", "--before", "2024-01-01", "--db", db, "--json"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let report = try #require(try json(pruned.stdout) as? [String: Any])
        #expect(report["launches"] as? Int == 2)
        #expect(try launches(db) == before - 2)
        // Nothing of the deleted events stays in the file.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        #expect(bytes.range(of: Data("secretdiary".utf8)) == nil)
    }

    /// `prune --device D --all` erases a device: its events, apps, settings and imports, and
    /// itself; nothing of it stays in the file, and the other devices are as they were. It must
    /// be named: the default device is never erased by omission.
    @Test func pruneAllErasesADeviceAndOnlyIt() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let diary = Tool.scratch().appendingPathComponent("diary.csv").path
        try "timestamp,app,event\n2024-01-02T08:00:00Z,org.example.secretdiary,launch\n"
            .write(toFile: diary, atomically: true, encoding: .utf8)
        try Tool.run(["import", diary, "--db", db, "--device", "old-phone", "--time-zone", "Europe/Warsaw"])
        try Tool.run([
            "config", "org.example.secretdiary", "--interval", "minimum", "--device", "old-phone", "--db", db,
        ])
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", "Europe/Warsaw"])
        let kept = try launches(db, device: "default")
        let unnamed = try Tool.run(["prune", "--all", "--db", db])
        #expect(unnamed.status != 0)
        #expect(unnamed.stderr.contains("name it with --device"), "\(unnamed.stderr)")
        let dry = try Tool.run(["prune", "--device", "old-phone", "--all", "--dry-run", "--db", db, "--json"])
        #expect((try json(dry.stdout) as? [String: Any])?["launches"] as? Int == 1, "\(dry.stdout) \(dry.stderr)")
        let erased = try Tool.run(["prune", "--device", "old-phone", "--all", "--db", db])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(erased.stdout.contains("Deleted 1 event and device old-phone itself"), "\(erased.stdout)")
        let devices = try Tool.run(["apps", "--db", db, "--json"]).stdout
        #expect(!devices.contains("old-phone"))
        #expect(!(try Tool.run(["imports", "--db", db]).stdout.contains("diary.csv")))
        #expect(try launches(db, device: "default") == kept)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        #expect(bytes.range(of: Data("secretdiary".utf8)) == nil)
        #expect(bytes.range(of: Data("old-phone".utf8)) == nil)
        let again = try Tool.run(["prune", "--device", "old-phone", "--all", "--db", db])
        #expect(again.status != 0)
        #expect(again.stderr.contains("old-phone"), "\(again.stderr)")
    }

    /// An import that stores nothing into a --db that did not exist leaves no database behind;
    /// one into an existing store leaves it as it was, and a new store with one good file stays.
    @Test func aFailedImportLeavesNoEmptyStoreBehind() throws {
        let folder = Tool.scratch()
        let bad = folder.appendingPathComponent("bad.csv").path
        try "timestamp,app,event\n2026-01-01T10:00:00Z,a,launch\nnot a time,b,launch\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let typo = folder.appendingPathComponent("typo.sqlite").path
        let failed = try Tool.run(["import", bad, "--db", typo])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("bad.csv:3"), "\(failed.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("typo") }
        #expect(left.isEmpty, "an empty store was left: \(left)")
        // The bad row is said once, in the sentence.
        #expect(failed.stderr.components(separatedBy: "bad.csv:3").count == 2, "\(failed.stderr)")
        // Nor the folders made for it.
        let deep = folder.appendingPathComponent("new/deeper/events.sqlite").path
        #expect(try Tool.run(["import", bad, "--db", deep]).status != 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new").path))

        let existing = folder.appendingPathComponent("events.sqlite").path
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", existing])
        let before = try launches(existing)
        #expect(try Tool.run(["import", bad, "--db", existing]).status != 0)
        #expect(try launches(existing) == before)

        let mixed = folder.appendingPathComponent("mixed.sqlite").path
        #expect(try Tool.run(["import", Tool.fixture("commuter-28d.csv"), bad, "--db", mixed]).status != 0)
        #expect(try launches(mixed) == before, "the good file's launches were lost with the bad one")
    }

    /// A path evaluate cannot write is said before the replay, naming the option; a folder is
    /// named as a folder, for evaluate's files, export's and the database alike.
    @Test func unwritablePathsAreSaidAtOnce() throws {
        let folder = Tool.scratch()
        let log = Tool.fixture("commuter-28d.csv")
        let missing = folder.appendingPathComponent("no/such/w.csv").path
        for option in ["--wakes-out", "--launches-out", "--report"] {
            let result = try Tool.run(["evaluate", log, "--time-zone", "UTC", option, missing])
            #expect(result.status != 0)
            #expect(result.stderr.contains("Cannot write \(option) \(missing)"), "\(option): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
            #expect(!result.stdout.contains("fresh@4"), "\(option): the replay ran first")
            let asFolder = try Tool.run(["evaluate", log, "--time-zone", "UTC", option, folder.path])
            #expect(asFolder.stderr.contains("it is a folder"), "\(option): \(asFolder.stderr)")
        }
        let db = folder.appendingPathComponent("events.sqlite").path
        try Tool.run(["import", log, "--db", db])
        #expect(try Tool.run(["export", "--db", db, "--out", folder.path]).stderr.contains("it is a folder"))
        let asDatabase = try Tool.run(["apps", "--db", folder.path])
        #expect(asDatabase.status != 0)
        #expect(asDatabase.stderr.contains("is a folder: name the database file in it"), "\(asDatabase.stderr)")
    }

    /// A file given with a --format it is not in is refused naming the format it reads as; a
    /// file of a header alone is said to hold no events, not to be empty.
    @Test func aWrongFormatIsNamedWithTheRightOne() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let cases = [
            ("commuter-28d.csv", "jsonl", "csv"), ("activitywatch-small.json", "csv", "activitywatch"),
            ("night-owl-14d.jsonl", "app-usage", "jsonl"),
        ]
        for (fixture, given, detected) in cases {
            let result = try Tool.run(["import", Tool.fixture(fixture), "--format", given, "--db", db])
            #expect(result.status != 0)
            #expect(
                result.stderr.contains("is not \(given), as --format says: it reads as \(detected)"),
                "\(fixture): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db))
        let header = Tool.scratch().appendingPathComponent("header.csv").path
        try "timestamp,app,event\n".write(toFile: header, atomically: true, encoding: .utf8)
        let result = try Tool.run(["import", header, "--db", db])
        #expect(result.stderr.contains("holds no events (it is empty, or a header alone)"), "\(result.stderr)")
    }

    /// evaluate names what is wrong with the files it is given, as evaluate (not import) says it,
    /// and an option's missing file as missing.
    @Test func evaluateSaysWhatIsWrongWithItsFiles() throws {
        let folder = Tool.scratch()
        let bad = folder.appendingPathComponent("bad.csv").path
        try "timestamp,app,event\n2026-01-01T10:00:00Z,a,launch\nnot a time,b,launch\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let invalid = try Tool.run(["evaluate", bad, "--time-zone", "UTC"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("bad.csv was not evaluated: 1 invalid row"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("bad.csv:3: field 'timestamp'"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("--skip-invalid to replay"), "\(invalid.stderr)")
        #expect(!invalid.stderr.contains("Skipped"), "rows said skipped that were not: \(invalid.stderr)")
        #expect(!invalid.stderr.contains("not imported"), "\(invalid.stderr)")

        let skipping = try Tool.run(["evaluate", bad, "--time-zone", "UTC", "--skip-invalid"])
        #expect(
            skipping.stderr.contains("Skipped \(bad):3") || skipping.stderr.contains("Skipped bad.csv:3"),
            "\(skipping.stderr)")

        let missing = folder.appendingPathComponent("missing.json").path
        for option in ["--settings", "--scenario"] {
            let result = try Tool.run([
                "evaluate", Tool.fixture("commuter-28d.csv"), "--time-zone", "UTC", option, missing,
            ])
            #expect(result.status != 0)
            #expect(
                result.stderr.contains("\(option) \(missing): there is no such file."), "\(option): \(result.stderr)")
        }
        let settings = try Tool.run([
            "evaluate", Tool.fixture("commuter-28d.csv"), "--time-zone", "UTC", "--settings", bad,
        ])
        #expect(settings.stderr.contains("is not a settings file"), "\(settings.stderr)")
        // A settings file with one app's interval wrong names the app and the value
        let wrong = folder.appendingPathComponent("wrong.json")
        try Data(#"{"apps": {"com.example.news": "minimum", "com.example.mail": "sometimes"}}"#.utf8).write(to: wrong)
        let named = try Tool.run([
            "evaluate", Tool.fixture("commuter-28d.csv"), "--time-zone", "UTC", "--settings", wrong.path,
        ])
        #expect(named.status != 0)
        #expect(named.stderr.contains("the interval of com.example.mail, \"sometimes\", is refused"), "\(named.stderr)")
    }
}

struct PrivacyTests {
    /// Importing, planning and pruning write nothing but the store and its WAL beside it.
    @Test func nothingIsWrittenOutsideTheChosenPath() throws {
        let folder = Tool.scratch()
        let temporary = Tool.scratch()
        let db = folder.appendingPathComponent("events.sqlite").path
        let environment = ["TMPDIR": temporary.path, "HOME": temporary.path, "XDG_DATA_HOME": temporary.path]
        for arguments in [
            ["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", "Europe/Warsaw"],
            ["config", "--default-interval", "minimum", "--db", db],
            ["schedule", "--db", db, "--now", "2024-01-29T00:00:00Z"], ["prune", "--before", "2024-01-10", "--db", db],
        ] {
            let result = try Tool.run(arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.allSatisfy { $0.hasPrefix("events.sqlite") }, "\(files)")
    }
}
