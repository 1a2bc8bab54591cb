import Foundation
import Testing

/// What the tool writes and answers is never silently wrong: zones, exports, re-imports, the
/// devices of evaluated files.
struct TrustTests {
    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// Names that a careless writer would break: commas, quotes, any Unicode.
    static let hardNames = ["mail, work", "say \"hi\"", "Żółć 🎉 カメラ", "semi;colon", "plain"]

    /// A csv of launches, fetches with bytes, and unlocks of two devices.
    static func richLog() -> String {
        var lines = ["timestamp,app,event,result,duration,bytes,device"]
        for day in 1...3 {
            for (index, name) in hardNames.enumerated() {
                let field = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                lines.append("2024-05-0\(day)T0\(index + 1):00:00+02:00,\(field),launch,,12.5,,phone")
                lines.append("2024-05-0\(day)T0\(index + 1):30:00Z,\(field),fetch,noData,1.25,2048,phone")
            }
            lines.append("2024-05-0\(day)T07:59:00+02:00,,unlock,,,,phone")
            lines.append("2024-05-0\(day)T09:00:00Z,plain,launch,,,,\"tablet, old\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: ["csv", "jsonl"])
    func exportImportExportIsByteIdentical(format: String) throws {
        let folder = Tool.scratch()
        let log = folder.appendingPathComponent("rich.csv")
        try Self.richLog().write(to: log, atomically: true, encoding: .utf8)
        let first = folder.appendingPathComponent("first.sqlite").path
        let imported = try Tool.run(["import", log.path, "--db", first])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = folder.appendingPathComponent("export.\(format)").path
        let export = try Tool.run(["export", "--db", first, "--format", format, "--out", exported])
        #expect(export.status == 0, "\(export.stderr)")
        let second = folder.appendingPathComponent("second.sqlite").path
        let again = try Tool.run(["import", exported, "--db", second, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let exportedAgain = try Tool.run(["export", "--db", second, "--format", format])
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(exportedAgain.stdout == text)
        // The same events: 3 days × (5 launches, 5 fetches, 1 unlock) on the phone, 3 on the tablet.
        #expect(text.split(separator: "\n").count == 3 * 12 + (format == "csv" ? 1 : 0))
        for name in Self.hardNames {
            let apps = try Tool.run(["apps", "--db", second, "--device", "phone", "--json"])
            let list = try #require(try json(apps.stdout) as? [[String: Any]])
            let app = try #require(list.first { $0["app"] as? String == name }, "\(name) lost")
            #expect(app["launches"] as? Int == 3)
            #expect(app["fetchesNoData"] as? Int == 3)
        }
        #expect(text.contains("2048"))
        #expect(text.contains("unlock"))
        // A window of time, and one device.
        let window = try Tool.run([
            "export", "--db", first, "--device", "tablet, old", "--from", "2024-05-02T00:00:00Z", "--to",
            "2024-05-03T00:00:00Z", "--format", format,
        ])
        #expect(window.stdout.split(separator: "\n").count == 1 + (format == "csv" ? 1 : 0), "\(window.stdout)")
    }

    /// `schedule --now T` of a store with every event answers, to the byte, as a store of only
    /// the events before T does, though one event lies at T itself (issue 72's repro).
    @Test func anAnswerAsOfAnInstantKnowsOnlyTheEventsBeforeIt() throws {
        let folder = Tool.scratch()
        let log = try String(contentsOfFile: Tool.fixture("as-of-berlin-28d.csv"), encoding: .utf8)
        let lines = log.split(separator: "\n", omittingEmptySubsequences: true)
        let instant = "2024-04-08T09:00:00+02:00"
        // The fixture's timestamps share one offset form, and sort as they are written.
        let before = lines.prefix(1) + lines.dropFirst().filter { String($0.prefix(25)) < instant }
        #expect(lines.contains { $0.hasPrefix(instant) } && before.count < lines.count - 100)
        var answers: [String] = []
        for (name, text) in [("full", log), ("cut", before.joined(separator: "\n") + "\n")] {
            let file = folder.appendingPathComponent("\(name).csv").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let db = ["--db", folder.appendingPathComponent("\(name).sqlite").path]
            #expect(try Tool.run(["config", "--time-zone", "Europe/Berlin"] + db).status == 0)
            #expect(try Tool.run(["import", file] + db).status == 0)
            #expect(try Tool.run(["config", "com.hidden.news", "--interval", "minimum"] + db).status == 0)
            let schedule = try Tool.run(["schedule", "--now", instant, "--hours", "24", "--json"] + db)
            #expect(schedule.status == 0)
            answers.append(schedule.stdout)
        }
        #expect(answers[0].contains("expectedLaunches"))
        #expect(answers[0] == answers[1])
    }

    /// A French App Usage export from a Samsung phone labels its phone app "Appel": it is taken
    /// as the system's, and the import says so, in text and in JSON (issue 72).
    @Test func theImportSaysWhichAppsItTookAsTheSystems() throws {
        let folder = Tool.scratch()
        let file = folder.appendingPathComponent("Activité.csv").path
        var rows = ["App name,Date,Time,Duration"]
        for day in 11...14 {
            rows += [
                "Appel,\(day)/03/2024,08:00:00,0:02:00", "Horloge,\(day)/03/2024,07:00:00,0:00:10",
                "Le Monde,\(day)/03/2024,08:30:00,0:05:00",
            ]
        }
        try (rows.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let db = ["--db", folder.appendingPathComponent("store.sqlite").path, "--time-zone", "Europe/Paris"]
        let text = try Tool.run(["import", file, "--date-order", "dmy"] + db)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Taken as the system's"))
        #expect(text.stdout.contains("Appel (phone)") && text.stdout.contains("Horloge (clock)"))
        #expect(!text.stdout.contains("Le Monde ("))
        let json = try Tool.run(["import", file, "--date-order", "dmy", "--json"] + db)
        let summary = try #require(try self.json(json.stdout) as? [String: Any])
        let system = try #require(summary["systemApps"] as? [[String: String]])
        #expect(Set(system.map { $0["app"] ?? "" }) == ["Appel", "Horloge"])
        #expect(system.first { $0["app"] == "Appel" }?["role"] == "phone")
    }

    @Test func importsListsEachImportAndHowItReadItsFile() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        try Tool.run([
            "import", Tool.fixture("app-usage-dmy.csv"), "--db", db, "--time-zone", "Asia/Kolkata", "--device", "p",
        ])
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "p"])
        let listed = try Tool.run(["imports", "--db", db, "--json"])
        let imports = try #require(try json(listed.stdout) as? [[String: Any]])
        #expect(imports.map { $0["id"] as? Int } == [1, 2])
        #expect(imports.map { $0["format"] as? String } == ["app-usage", "csv"])
        #expect(imports[0]["timeZone"] as? String == "Asia/Kolkata")
        #expect(imports[0]["dateOrder"] as? String == "dmy")
        #expect(imports[1]["timeZone"] == nil)
        #expect((imports[1]["sha256"] as? String)?.count == 64)
        #expect(
            imports.allSatisfy { ($0["stored"] as? Int ?? 0) > 0 && $0["eventsKept"] as? Int == $0["stored"] as? Int })
        let text = try Tool.run(["imports", "--db", db])
        #expect(text.stdout.contains("Asia/Kolkata"))
        // It fits the terminal, as schedule does: a file by its name, columns left out and said so.
        for columns in [100, 80, 60] {
            let narrow = try Tool.run(["imports", "--db", db], environment: ["COLUMNS": String(columns)])
            let long = narrow.stdout.split(separator: "\n").filter { $0.count > columns }
            #expect(long.isEmpty, "at \(columns) columns: \(narrow.stdout)")
            #expect(narrow.stdout.contains("Left out to fit \(columns) columns"), "\(narrow.stdout)")
        }
        #expect(
            try Tool.run(["imports", "--db", db], environment: ["COLUMNS": "100"]).stdout.contains("commuter-28d.csv"))
        // Into a pipe, with no COLUMNS, nothing is left out: every column, whole paths.
        let piped = try Tool.run(["imports", "--db", db], environment: ["COLUMNS": ""]).stdout
        #expect(piped.contains("SHA-256") && piped.contains(Tool.fixture("app-usage-dmy.csv")), "\(piped)")
        #expect(!piped.contains("Left out"))
        // The columns line up: each row's time starts under WHEN, its id ends under ID.
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let when = try #require(lines.first?.range(of: "WHEN")).lowerBound.utf16Offset(in: lines[0])
        for row in lines.dropFirst().prefix(imports.count) {
            let time = try #require(row.range(of: "20[0-9][0-9]-", options: .regularExpression))
            #expect(time.lowerBound.utf16Offset(in: row) == when, "\(lines)")
            #expect(row.prefix(2).last != " ", "\(lines)")
        }
        // --device may name the import's own device, as a check; another is refused.
        let other = try Tool.run(["prune", "--import", "1", "--device", "q", "--db", db])
        #expect(other.status != 0)
        #expect(other.stderr.contains("Import 1 was imported for device p, not q"), "\(other.stderr)")
        #expect(try Tool.run(["imports", "--db", db, "--json"]).stdout == listed.stdout)
        // A dry run deletes nothing; the real one exactly that import's events.
        let dry = try Tool.run(["prune", "--import", "1", "--device", "p", "--dry-run", "--db", db, "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let would = try #require(try json(dry.stdout) as? [String: Any])
        #expect(would["dryRun"] as? Bool == true)
        #expect(try Tool.run(["imports", "--db", db, "--json"]).stdout == listed.stdout)
        let pruned = try Tool.run(["prune", "--import", "1", "--db", db])
        #expect(
            pruned.stdout.hasPrefix("Deleted \(would["launches"] as! Int + (would["deviceEvents"] as! Int)) events"))
        let left = try #require(try json(try Tool.run(["imports", "--db", db, "--json"]).stdout) as? [[String: Any]])
        #expect(left.map { $0["id"] as? Int } == [2])
        // Events that two imports hold stay when one of them goes.
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "p"])
        let again = try Tool.run(["prune", "--import", "2", "--db", db])
        #expect(again.stdout.hasPrefix("Deleted 0 events"), "\(again.stdout)")
        #expect(again.stdout.contains("; kept \(imports[1]["stored"] as! Int) that a later import also holds."))
        let last = try #require(try json(try Tool.run(["imports", "--db", db, "--json"]).stdout) as? [[String: Any]])
        #expect(last.map { $0["eventsKept"] as? Int } == [imports[1]["stored"] as? Int])
    }

    @Test func noCommandReadsTimeInAZoneNobodyNamed() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let local = try Tool.run(["import", Tool.fixture("app-usage-mdy.csv"), "--db", db])
        #expect(local.status != 0)
        #expect(local.stderr.contains("--time-zone"))
        let instants = try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db])
        #expect(instants.status == 0)
        #expect(instants.stderr.contains("config --time-zone"))
        for command in [["peaks"], ["next"], ["schedule"], ["evaluate"]] {
            let now = command == ["evaluate"] ? [] : ["--now", "2024-01-29T00:00:00Z"]
            let result = try Tool.run(command + ["--db", db] + now)
            #expect(result.status != 0, "\(command)")
            #expect(result.stderr.contains("has no time zone"), "\(command): \(result.stderr)")
        }
        // A local --now, as --at and --from take, needs the device's zone: none, no answer.
        let localNow = try Tool.run(["next", "--db", db, "--now", "2024-01-29 08:00"])
        #expect(localNow.status != 0)
        #expect(localNow.stderr.contains("has no time zone"), "\(localNow.stderr)")
        let keysNow = try Tool.run(["keys", "create", "--tenant", "t", "--db", db, "--now", "2024-01-29 08:00"])
        #expect(keysNow.status != 0 && keysNow.stderr.contains("is a local time"), "\(keysNow.stderr)")
        let badNow = try Tool.run(["next", "--db", db, "--now", "yesterday"])
        #expect(badNow.status != 0 && badNow.stderr.contains("--now takes"), "\(badNow.stderr)")
        let file = try Tool.run(["evaluate", Tool.fixture("commuter-28d.csv")])
        #expect(file.status != 0)
        #expect(file.stderr.contains("--time-zone"))
        try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--db", db])
        let next = try Tool.run(["schedule", "--db", db, "--now", "2024-01-29T08:00:00Z", "--from", "2024-01-29 08:00"])
        #expect(next.status == 0, "\(next.stderr)")
        // Once it has one, a local --now is read in it: the same answers as the instant.
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        for command in [["next", "--json"], ["schedule", "--json"], ["peaks", "--json"], ["apps", "--json"]] {
            let local = try Tool.run(command + ["--db", db, "--now", "2024-01-29 08:00"])
            let instant = try Tool.run(command + ["--db", db, "--now", "2024-01-29T08:00:00+01:00"])
            #expect(local.status == 0, "\(command): \(local.stderr)")
            #expect(local.stdout == instant.stdout, "\(command)")
        }
    }

    @Test func evaluatedFilesAreTheDevicesTheyName() throws {
        let folder = Tool.scratch()
        // Two phones in one csv, and a file that names none.
        let commuter = try String(contentsOfFile: Tool.fixture("commuter-28d.csv"), encoding: .utf8)
        // The commuter's rows end with an empty device field: give each to one of the two.
        let rows = commuter.split(separator: "\n").dropFirst().enumerated().map {
            $0.element + ($0.offset % 2 == 0 ? "alice" : "bob")
        }
        let both = folder.appendingPathComponent("family.csv")
        try (["timestamp,app,event,result,duration,bytes,value,device"] + rows + ["garbage,a,launch,,,,,alice"])
            .joined(separator: "\n").write(to: both, atomically: true, encoding: .utf8)
        let refused = try Tool.run(["evaluate", both.path, "--time-zone", "Europe/Warsaw"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--skip-invalid"))
        let evaluated = try Tool.run([
            "evaluate", both.path, Tool.fixture("commuter-28d.csv"), "--time-zone", "Europe/Warsaw", "--skip-invalid",
            "--json",
        ])
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        #expect(evaluated.stderr.contains("garbage"))
        let report = try #require(try json(evaluated.stdout) as? [String: Any])
        let devices = try #require(report["devices"] as? [[String: Any]])
        #expect(devices.map { $0["device"] as? String } == ["alice", "bob", "commuter-28d"])
        let one = try Tool.run([
            "evaluate", both.path, "--time-zone", "Europe/Warsaw", "--skip-invalid", "--device", "bob", "--json",
        ])
        let bob = try #require(try json(one.stdout) as? [String: Any])
        #expect((bob["devices"] as? [[String: Any]])?.map { $0["device"] as? String } == ["bob"])
    }

    @Test func wakesOutQuotesNamesAsRFC4180Says() throws {
        let folder = Tool.scratch()
        let log = folder.appendingPathComponent("log.csv")
        let commuter = try String(contentsOfFile: Tool.fixture("commuter-28d.csv"), encoding: .utf8)
        try commuter.replacingOccurrences(of: "com.example.news", with: "\"news, daily\"")
            .write(to: log, atomically: true, encoding: .utf8)
        let settings = folder.appendingPathComponent("apps.json")
        try #"{"apps": {"news, daily": "minimum"}}"#.write(to: settings, atomically: true, encoding: .utf8)
        let wakes = folder.appendingPathComponent("wakes.csv").path
        let result = try Tool.run([
            "evaluate", log.path, "--time-zone", "Europe/Warsaw", "--settings", settings.path, "--wakes-out", wakes,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: wakes, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 10)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("log,\"news, daily\",") }, "\(lines.prefix(3))")
    }

    /// `--now T` answers, in text and JSON, as a store holding only the events up to T does.
    @Test func answersAsOfNowAreThoseOfAStoreWithoutLaterEvents() throws {
        let folder = Tool.scratch()
        let full = folder.appendingPathComponent("full.sqlite").path
        let truncated = folder.appendingPathComponent("truncated.sqlite").path
        let now = "2024-01-15T06:00:00Z"
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", full, "--time-zone", "Europe/Warsaw"])
        let early = folder.appendingPathComponent("early.csv").path
        // Export's --to is exclusive: events up to now, included.
        let export = try Tool.run(["export", "--db", full, "--to", "2024-01-15T06:00:00.001Z", "--out", early])
        #expect(export.status == 0, "\(export.stderr)")
        try Tool.run(["import", early, "--db", truncated, "--time-zone", "Europe/Warsaw"])
        for db in [full, truncated] { try Tool.run(["config", "--default-interval", "minimum", "--db", db]) }
        var compared = 0
        for command in [
            ["apps"], ["peaks"], ["peaks", "com.example.news"], ["next"], ["next", "com.example.news"], ["schedule"],
        ] {
            for json in [[], ["--json"]] {
                let arguments = command + json + ["--now", now]
                let expected = try Tool.run(arguments + ["--db", truncated])
                let actual = try Tool.run(arguments + ["--db", full])
                #expect(expected.status == 0, "\(arguments): \(expected.stderr)")
                #expect(actual.stdout == expected.stdout, "\(arguments)")
                compared += 1
            }
        }
        #expect(compared == 12)
        // Later events do change the answer without --now in the past.
        let later = try Tool.run(["schedule", "--json", "--now", "2024-01-29T06:00:00Z", "--db", full])
        let earlier = try Tool.run(["schedule", "--json", "--now", "2024-01-29T06:00:00Z", "--db", truncated])
        #expect(later.stdout != earlier.stdout)
    }

    /// The reliability evaluate prints is that of the run it writes out, at --budget, whether or
    /// not the budget is one of the frontier's levels; the JSON names that run too.
    @Test(arguments: ["0.85", "0.9"])
    func reliabilityIsOfTheRunWrittenOut(budget: String) throws {
        let folder = Tool.scratch()
        let launches = folder.appendingPathComponent("launches.csv").path
        let arguments = [
            "evaluate", Tool.fixture("commuter-28d.csv"), "--time-zone", "Europe/Warsaw", "--budget", budget,
            "--launches-out", launches,
        ]
        let text = try Tool.run(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        let fresh = try String(contentsOfFile: launches, encoding: .utf8).split(separator: "\n").filter {
            $0.hasSuffix(",true")
        }.count
        #expect(fresh > 0)
        let header = text.stdout.split(separator: "\n").first { $0.hasPrefix("Reliability at budget") } ?? ""
        let level = String(format: "%.2f", Double(budget) ?? 0)
        #expect(header.hasPrefix("Reliability at budget \(level): "), "\(header)")
        #expect(header.contains(" \(fresh) served ("), "\(header), \(fresh) fresh in --launches-out")
        let json = try #require(try self.json(try Tool.run(arguments + ["--json"]).stdout) as? [String: Any])
        let reported = try #require(json["reported"] as? [String: Any])
        #expect(reported["budget"] as? Double == Double(budget))
        #expect(reported["freshLaunches"] as? Int == fresh)
    }

    /// imports --device lists that device's imports only; prune counts in words that agree with
    /// the numbers; a file that names its devices is followed by a note for each without a zone,
    /// or by one note that counts them when there are many.
    @Test func importsPruneAndZoneNotesSayWhatIsTrue() throws {
        let folder = Tool.scratch()
        let db = folder.appendingPathComponent("events.sqlite").path
        let multi = folder.appendingPathComponent("multi.csv").path
        try "timestamp,app,event,device\n2026-01-01T10:00:00Z,a,launch,phone\n2026-01-01T11:00:00Z,b,launch,tablet\n"
            .write(toFile: multi, atomically: true, encoding: .utf8)
        let imported = try Tool.run(["import", multi, "--db", db])
        for device in ["phone", "tablet"] {
            #expect(imported.stderr.contains("Note: device \(device) has no time zone."), "\(imported.stderr)")
        }
        #expect(!imported.stderr.contains("device default"), "\(imported.stderr)")
        // The summary names the devices the rows went into, not the one no row named.
        #expect(imported.stdout.contains("(csv, detected) into 2 devices (phone, tablet): "), "\(imported.stdout)")
        let phoneOnly = folder.appendingPathComponent("phone-only.csv").path
        try "timestamp,app,event,device\n2026-01-02T10:00:00Z,a,launch,phone\n".write(
            toFile: phoneOnly, atomically: true, encoding: .utf8)
        let paris = folder.appendingPathComponent("paris.sqlite").path
        try Tool.run(["import", phoneOnly, "--db", paris])
        try Tool.run(["config", "--db", paris, "--device", "phone", "--time-zone", "Europe/Paris"])
        let again = try Tool.run(["import", multi, "--db", paris, "--device", "nobody"])
        #expect(again.stdout.contains("into 2 devices (phone, tablet): "), "\(again.stdout)")
        try "timestamp,app,event,device\n2026-01-03T10:00:00Z,a,launch,phone\n".write(
            toFile: phoneOnly, atomically: true, encoding: .utf8)
        let zoned = try Tool.run(["import", phoneOnly, "--db", paris, "--device", "nobody"])
        #expect(zoned.stdout.contains("into device phone (Europe/Paris): "), "\(zoned.stdout)\(zoned.stderr)")
        // A fleet's file: one note that counts the devices, not one line for each.
        let fleet = folder.appendingPathComponent("fleet.csv").path
        try (["timestamp,app,event,device"] + (1...12).map { "2026-01-01T10:00:00Z,a,launch,d\($0)" })
            .joined(separator: "\n").write(toFile: fleet, atomically: true, encoding: .utf8)
        let fleetDB = folder.appendingPathComponent("fleet.sqlite").path
        let fleetNotes = try Tool.run(["import", fleet, "--db", fleetDB]).stderr.split(separator: "\n")
        #expect(fleetNotes.filter { $0.hasPrefix("Note:") }.count == 1, "\(fleetNotes)")
        #expect(fleetNotes.contains { $0.hasPrefix("Note: 12 devices have no time zone (d1, d10, d11, ...)") })
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "p", "--time-zone", "UTC"])
        let listed = try #require(
            try json(try Tool.run(["imports", "--db", db, "--device", "p", "--json"]).stdout) as? [[String: Any]])
        #expect(listed.map { $0["id"] as? Int } == [2])
        #expect(try Tool.run(["imports", "--db", db, "--device", "nobody"]).status != 0)
        let one = try Tool.run(["prune", "--import", "1", "--dry-run", "--db", db])
        #expect(
            one.stdout.hasPrefix(
                "Would delete 2 events stored by import 1 (2 launches, 0 fetches, 0 notifications, 0 device events)"),
            "\(one.stdout)")
        let single = folder.appendingPathComponent("single.sqlite").path
        try Tool.run(["record", "launch", "a", "--at", "2026-01-01T10:00:00Z", "--db", single])
        let pruned = try Tool.run(["prune", "--before", "2026-02-01T00:00:00Z", "--db", single, "--dry-run"])
        #expect(pruned.stdout.hasPrefix("Would delete 1 event before"), "\(pruned.stdout)")
        #expect(pruned.stdout.contains("(1 launch, 0 fetches, 0 notifications, 0 device events)"), "\(pruned.stdout)")
    }

    @Test func configWithoutAChangeMakesNoStore() throws {
        let db = Tool.scratch().appendingPathComponent("none.sqlite").path
        let shown = try Tool.run(["config", "--db", db])
        #expect(shown.status != 0)
        #expect(shown.stderr.contains("There is no store at"))
        #expect(!FileManager.default.fileExists(atPath: db))
        let changed = try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--db", db])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(FileManager.default.fileExists(atPath: db))
    }
}
