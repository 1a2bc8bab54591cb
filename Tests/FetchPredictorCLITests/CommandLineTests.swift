import Foundation
import Testing

/// The tool end to end: the built binary on fixtures, with --now, compared with what users see.
struct CommandLineTests {
    let db = Tool.scratch().appendingPathComponent("events.sqlite").path

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func versionAndHelp() throws {
        let version = try Tool.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
        for command in [
            [], ["import"], ["record"], ["record", "launch"], ["record", "fetch"], ["config"], ["apps"], ["generate"],
        ] {
            let help = try Tool.run(command + ["--help"])
            #expect(help.status == 0)
            #expect(
                help.stdout.contains("Example"),
                "fetchpredict \(command.joined(separator: " ")) --help shows an example")
        }
    }

    /// An App Usage file read in the wrong zone: config --time-zone refuses and names the one
    /// command that moves the device, which reads the file again in the right zone.
    @Test func aDeviceMovesToItsRightZoneInOneCommand() throws {
        let file = Tool.scratch().appendingPathComponent("usage.csv")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Tool.fixture("app-usage-dmy.csv")), to: file)
        try Tool.run(["import", file.path, "--db", db, "--device", "phone", "--time-zone", "UTC"])
        let export = { try Tool.run(["export", "--db", db, "--device", "phone", "--format", "jsonl"]).stdout }
        let before = try export()
        let refused = try Tool.run(["config", "--time-zone", "Asia/Kolkata", "--device", "phone", "--db", db])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("fetchpredict config --time-zone Asia/Kolkata --device phone --reread"),
            "\(refused.stderr)")
        let moved = try Tool.run(["config", "--time-zone", "Asia/Kolkata", "--device", "phone", "--reread", "--db", db])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(
            moved.stdout.hasPrefix("Device phone is in Asia/Kolkata now; 1 import of local times read again in it:"),
            "\(moved.stdout)")
        #expect(moved.stdout.contains("into device phone (Asia/Kolkata)"), "\(moved.stdout)")
        let after = try export()
        #expect(after != before)
        // The first event, 2024-03-13 12:31 local, is now read at 07:01Z, not 12:31Z.
        #expect(before.contains("2024-03-13T12:31:00") && after.contains("2024-03-13T07:01:00"), "\(after.prefix(400))")
        let imports = try Tool.run(["imports", "--db", db, "--json"]).stdout
        #expect(imports.contains("Asia/Kolkata") && !imports.contains("\"UTC\""), "\(imports)")
    }

    /// A second phone's log imported with no --device is refused when the default device holds
    /// logs of another kind of source, saying what it holds and what to give; --device or
    /// --same-device imports it. Logs of the same kind go in as before.
    @Test func anotherPhonesFileIsNotMixedIntoTheDefaultDevice() throws {
        let first = try Tool.run([
            "import", Tool.fixture("app-usage-dmy.csv"), "--db", db, "--time-zone", "Europe/Warsaw",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("into device default (Europe/Warsaw)"), "\(first.stdout)")
        let launches = try Tool.run(["apps", "--db", db, "--json"]).stdout
        let other = try Tool.run(["import", Tool.fixture("activitywatch-small.json"), "--db", db])
        #expect(other.status != 0)
        #expect(
            other.stderr.contains(
                "is a log of ActivityWatch (activitywatch), and device default holds App Usage logs (app-usage-dmy.csv, import 1): nothing was stored"
            ), "\(other.stderr)")
        #expect(other.stderr.contains("--device NAME") && other.stderr.contains("--same-device"))
        #expect(try Tool.run(["apps", "--db", db, "--json"]).stdout == launches)
        #expect(try Tool.run(["imports", "--db", db, "--json"]).stdout.contains("activitywatch-small") == false)
        // Into a device of its own, or confirmed as this phone's.
        let own = try Tool.run(["import", Tool.fixture("activitywatch-small.json"), "--db", db, "--device", "pixel"])
        #expect(own.status == 0, "\(own.stderr)")
        let confirmed = try Tool.run([
            "import", Tool.fixture("activitywatch-small.csv"), "--db", db, "--same-device",
        ])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        // Another App Usage file is of the same kind: no question.
        let same = try Tool.run(["import", Tool.fixture("app-usage-mdy.csv"), "--db", db, "--date-order", "mdy"])
        #expect(same.status == 0, "\(same.stderr)")
        // In one command too: the first file made the device's holdings, the second is refused.
        let fresh = Tool.scratch().appendingPathComponent("fresh.sqlite").path
        let both = try Tool.run([
            "import", Tool.fixture("app-usage-dmy.csv"), Tool.fixture("activitywatch-small.json"), "--db", fresh,
            "--time-zone", "Europe/Warsaw",
        ])
        #expect(both.status != 0)
        #expect(
            both.stderr.contains(
                "device default holds App Usage logs (app-usage-dmy.csv, import 1): nothing was stored"),
            "\(both.stderr)")
        #expect(try Tool.run(["imports", "--db", fresh, "--json"]).stdout.contains("activitywatch-small") == false)
    }

    @Test func importThenAppsInJSON() throws {
        let first = try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--db", db, "--json", "--now", "2024-02-01T00:00:00Z",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let report = try #require((try json(first.stdout) as? [String: Any])?["imports"] as? [[String: Any]])
        #expect(report.first?["stored"] as? Int == 1182)
        #expect(report.first?["format"] as? String == "csv")

        let again = try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db])
        // The summary names the device it went into and the device's zone.
        #expect(again.stdout.contains("(csv, detected) into device default (no time zone): "), "\(again.stdout)")
        #expect(again.stdout.hasSuffix("1182 rows read, 1182 events: 0 stored, 1182 already stored, 0 rejected.\n"))

        let apps = try Tool.run(["apps", "--db", db, "--json"])
        let list = try #require(try json(apps.stdout) as? [[String: Any]])
        #expect(
            list.map { $0["app"] as? String } == [
                "com.example.chat", "com.example.news", "com.example.mail", "com.example.podcasts",
            ])
        #expect(list.first?["interval"] as? String == "never")
        #expect(list.first?["launches"] as? Int == 130)
    }

    @Test func recordConfigAndAppsInText() throws {
        let env = ["FETCHPREDICT_DB": db]
        try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--device", "phone"], environment: env)
        let launch = try Tool.run(
            ["record", "launch", "com.example.news", "--at", "2024-05-01 08:30", "--device", "phone"], environment: env)
        #expect(launch.stdout == "Recorded launch of com.example.news at 2024-05-01T06:30:00Z on phone.\n")
        let fetch = try Tool.run(
            ["record", "fetch", "com.example.news", "--result", "noData", "--at", "1714545000", "--device", "phone"],
            environment: env)
        #expect(fetch.status == 0)
        let config = try Tool.run(
            ["config", "com.example.news", "--interval", "3600", "--device", "phone"], environment: env)
        #expect(config.stdout.contains("com.example.news: interval 3600, background fetch enabled"))
        let apps = try Tool.run(["apps", "--device", "phone"], environment: env)
        #expect(
            apps.stdout == """
                DEVICE  APP               INTERVAL  ENABLED  LAUNCHES  NEWDATA  NODATA  FAILED  NOTIFIED  FIRST SEEN        LAST SEEN
                phone   com.example.news  3600      yes             1        0       1       0         0  2024-05-01 08:30  2024-05-01 08:30

                """)
    }

    /// `record state` stores the device's state; a bad value is refused and stores nothing; with
    /// Low Power Mode on, `next` says why there is no wake, in text and in JSON.
    @Test func recordStateAndNextSaysLowPowerMode() throws {
        let env = ["FETCHPREDICT_DB": db]
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--time-zone", "Europe/Warsaw"], environment: env)
        try Tool.run(["config", "--default-interval", "minimum"], environment: env)
        let last = "2024-01-28T23:00:00Z"
        #expect(try Tool.run(["next", "--now", last], environment: env).stdout.contains("Next wake"))
        for (arguments, sentence) in [
            (["battery", "140"], "not a battery level"), (["network", "wifi"], "not a network"),
            (["battery"], "needs a value"), (["launch"], "not a state of the device"),
            (["lowPowerOn", "1"], "takes no value"),
        ] {
            let result = try Tool.run(["record", "state"] + arguments, environment: env)
            #expect(result.status != 0 && result.stderr.contains(sentence), "\(arguments): \(result.stderr)")
        }
        let battery = try Tool.run(["record", "state", "battery", "57.0", "--at", last], environment: env)
        #expect(battery.stdout == "Recorded battery 57 at 2024-01-28T23:00:00Z on default.\n")
        let on = try Tool.run(["record", "state", "lowPowerOn", "--at", last, "--json"], environment: env)
        let recorded = try #require(try json(on.stdout) as? [String: Any])
        #expect(
            recorded["event"] as? String == "lowPowerOn" && recorded["app"] == nil
                && recorded["stored"] as? Bool == true)
        let next = try Tool.run(["next", "--now", "2024-01-28T23:05:00Z"], environment: env)
        #expect(next.stdout.contains("Low Power Mode is on on device default since"), "\(next.stdout)")
        let answer = try #require(
            try json(Tool.run(["next", "--now", "2024-01-28T23:05:00Z", "--json"], environment: env).stdout)
                as? [String: Any])
        #expect(answer["noWake"] as? String == "low-power-mode" && answer["wake"] == nil)
        #expect((answer["lowPowerMode"] as? [String: Any])?["since"] as? String == last)
        let exported = try Tool.run(["export", "--format", "jsonl"], environment: env)
        #expect(exported.stdout.contains(#""event":"battery","value":57"#), "\(exported.stdout.suffix(300))")
    }

    /// `state` shows the last state and the chances by hour learned from the spans between the
    /// events, in text and JSON (by five minutes), as of --now; a device that told none says how.
    @Test func stateShowsWhatTheEventsSay() throws {
        let env = ["FETCHPREDICT_DB": db]
        var rows = ["timestamp,app,event,value", "2024-01-01T06:00:00Z,com.example.news,launch,"]
        for day in 1...9 {
            let date = String(format: "2024-01-%02d", day)
            rows += [
                "\(date)T06:00:00Z,,powerDisconnected,", "\(date)T07:30:00Z,,network,metered",
                "\(date)T17:00:00Z,,network,unmetered", "\(date)T22:00:00Z,,powerConnected,",
                "\(date)T22:00:00Z,,battery,35",
            ]
        }
        let file = Tool.scratch().appendingPathComponent("state.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let none = try Tool.run(["state", "--now", "2024-01-01T05:00:00Z"], environment: env)
        #expect(none.status != 0, "no device yet")
        try Tool.run(["import", file.path, "--time-zone", "UTC"], environment: env)
        let before = try Tool.run(["state", "--now", "2024-01-01T05:00:00Z"], environment: env)
        #expect(before.stdout.contains("has told no state as of 2024-01-01 05:00"), "\(before.stdout)")
        let text = try Tool.run(["state", "--now", "2024-01-10T03:00:00Z"], environment: env)
        #expect(text.stdout.contains("  power           on since 2024-01-09 22:00"), "\(text.stdout)")
        #expect(text.stdout.contains("  battery         35% at 2024-01-09 22:00"))
        // Hour 02 of weekdays on power every night, hour 12 never; the columns of the header.
        let hours = text.stdout.split(separator: "\n").filter { $0.hasPrefix("  02 ") || $0.hasPrefix("  12 ") }
        #expect(hours.map { $0.split(separator: " ").dropFirst().first } == ["100%", "0%"], "\(text.stdout)")
        let answer = try #require(
            try json(Tool.run(["state", "--now", "2024-01-10T03:00:00Z", "--json"], environment: env).stdout)
                as? [String: Any])
        let weekday = try #require(answer["weekday"] as? [String: Any])
        let power = try #require(weekday["onPower"] as? [Any])
        #expect(power.count == 288)
        #expect(power[2 * 12] as? Double == 1 && power[12 * 12] as? Double == 0)
        #expect((answer["network"] as? [String: Any])?["state"] as? String == "unmetered")
    }

    /// The spellings the help and the README show work as written (issue: `--enable` was
    /// `--enable-enable`, and negative numbers were read as option names).
    @Test func flagsAndValuesAsPeopleWriteThem() throws {
        let enable = try Tool.run(["config", "com.example.news", "--enable", "--db", db])
        #expect(enable.status == 0, "\(enable.stderr)")
        #expect(enable.stdout.contains("background fetch enabled"))
        let disable = try Tool.run(["config", "com.example.news", "--disable", "--db", db])
        #expect(disable.stdout.contains("background fetch disabled"))
        // A negative number reaches validation and gets its sentence, not "Missing value".
        for (arguments, sentence) in [
            (["config", "a", "--interval", "-5"], "positive number of seconds"),
            (["schedule", "--hours", "-1"], "--hours must be more than 0"),
            (["record", "fetch", "a", "--result", "noData", "--duration", "-3"], "0 or more"),
            (["record", "fetch", "a", "--result", "noData", "--bytes=-3"], "--bytes must be a whole number"),
        ] {
            let result = try Tool.run(arguments + ["--db", db])
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains(sentence), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
        let stored = try Tool.run(["apps", "--json", "--db", db])
        #expect(!stored.stdout.contains("\"fetchesNoData\" : 1"), "a refused fetch was stored")
        // An error found while the command runs shows the command's own usage.
        try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--db", db])
        let from = try Tool.run(["schedule", "--from", "garbage", "--db", db])
        #expect(from.stderr.contains("Usage: fetchpredict schedule"), "\(from.stderr)")
        // Sentences read as sentences.
        let record = try Tool.run(["record", "launch", "--help"])
        #expect(!record.stdout.contains("(default: now). (default: now)"))
        let bad = Tool.scratch().appendingPathComponent("no-offset.csv")
        try "timestamp,app,event\n2024-01-01T08:00:00,a,launch\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try Tool.run(["import", bad.path, "--db", db])
        #expect(refused.stderr.contains("'2024-01-01T08:00:00' is a time with no Z and no UTC offset"))
    }

    /// A negative number of refinement rounds is refused as such, not taken for an option.
    @Test func negativeRefinementsAreRefusedByName() throws {
        let log = Tool.fixture("commuter-28d.csv")
        for form in [["--refinements", "-1"], ["--refinements=-1"]] {
            let result = try Tool.run(["evaluate", log, "--time-zone", "UTC"] + form)
            #expect(result.status == 64, "\(form)")
            #expect(result.stderr.contains("--refinements must be 0 or more."), "\(form): \(result.stderr)")
        }
    }

    /// Commands that only read never make a store or a folder: a missing store is an error that
    /// says how to start one.
    @Test func readingNeverWrites() throws {
        let home = Tool.scratch()
        let nowhere = home.appendingPathComponent("some/new/dir/x.sqlite").path
        for command in [
            ["apps"], ["peaks"], ["next"], ["schedule"], ["evaluate"], ["prune", "--before", "2024-01-01"],
        ] {
            let result = try Tool.run(command + ["--db", nowhere])
            #expect(result.status != 0, "\(command)")
            #expect(result.stderr.contains("There is no store at \(nowhere)"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("fetchpredict import"), "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("some").path))
        let plain = try Tool.run(
            ["apps"], environment: ["HOME": home.path, "XDG_DATA_HOME": "", "FETCHPREDICT_DB": ""])
        #expect(plain.status != 0)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".local").path))
    }

    /// An unknown app or device in a command that reads is an error naming the nearest known
    /// ones; config may name an app not seen yet, and says so.
    @Test func unknownNamesSuggestTheNearest() throws {
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "phone"])
        let app = try Tool.run(["next", "com.example.nws", "--db", db, "--device", "phone"])
        #expect(app.status != 0)
        #expect(
            app.stderr.contains(
                "There is no app named 'com.example.nws' on device phone: did you mean 'com.example.news'?"))
        let peaks = try Tool.run(["peaks", "com.nosuch", "--db", db, "--device", "phone"])
        #expect(peaks.status != 0)
        #expect(peaks.stderr.contains("There is no app named 'com.nosuch' on device phone."))
        for command in [["prune", "--before", "2024-01-01"], ["schedule"], ["apps"]] {
            let device = try Tool.run(command + ["--db", db, "--device", "phne"])
            #expect(device.status != 0, "\(command)")
            #expect(device.stderr.contains("There is no device named 'phne' in the store: did you mean 'phone'?"))
        }
        let config = try Tool.run(["config", "com.example.new", "--interval", "60", "--db", db, "--device", "phone"])
        #expect(config.status == 0)
        #expect(config.stderr.contains("com.example.new is not in the store yet"))
    }

    /// A schedule reads as blocks that fit the width, and goes to other tools as CSV and as an
    /// iCalendar file that a real iCalendar parser reads (Python's icalendar, which .ci/run installs).
    @Test func schedulesInTextCSVAndICS() throws {
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let now = "2024-01-29T00:00:00+01:00"
        let json = try Tool.run(["schedule", "--db", db, "--now", now, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let wakes = try #require(object["wakes"] as? [[String: Any]])
        let fetches = wakes.reduce(0) { $0 + (($1["apps"] as? [Any])?.count ?? 0) }
        #expect(wakes.count >= 4)
        // Text: one block per wake, each app named once, no line wider than the width.
        let text = try Tool.run(["schedule", "--db", db, "--now", now], environment: ["COLUMNS": "100"])
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines.map(\.count).max() ?? 0)")
        #expect(
            lines.filter { $0.first?.isNumber == true && ($0.hasSuffix(" app") || $0.hasSuffix(" apps")) }.count
                == wakes.count)
        #expect(!text.stdout.contains("coalesced with"))
        // Later hours stand on no launch before them: the text says so, in words that wrap.
        let words = text.stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(words.contains("Each wake assumes no launch of its app before it"))
        // CSV: a header and one row per app fetch.
        let csv = try Tool.run(["schedule", "--db", db, "--now", now, "--format", "csv"])
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.first == "time,device,app,planned,expected_launches,reasons")
        #expect(rows.count == fetches + 1)
        // ICS: one event per device wake, read by a real parser.
        let ics = try Tool.run(["schedule", "--db", db, "--now", now, "--format", "ics"])
        #expect(ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(ics.stdout.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let file = Tool.scratch().appendingPathComponent("plan.ics")
        try ics.stdout.write(to: file, atomically: true, encoding: .utf8)
        let script = """
            import sys, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            events = calendar.walk('VEVENT')
            assert len(set(str(e['UID']) for e in events)) == len(events)
            assert all(e.decoded('DTSTART').tzinfo is not None and e.decoded('DTSTART').utcoffset().total_seconds() == 0 for e in events)
            assert all(str(e['SUMMARY']).startswith('Wake: com.example.') for e in events)
            assert all(':' in str(e['DESCRIPTION']) for e in events)
            print(len(events))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, file.path]
        let output = Pipe()
        python.standardOutput = output
        python.standardError = output
        try python.run()
        python.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(python.terminationStatus == 0, "icalendar (pip install icalendar): \(said)")
        #expect(said.trimmingCharacters(in: .whitespacesAndNewlines) == String(wakes.count))
    }

    /// The completion scripts the README's install section shows name every subcommand.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEverySubcommand(shell: String) throws {
        let script = try Tool.run(["--generate-completion-script", shell])
        #expect(script.status == 0)
        for command in [
            "import", "record", "config", "apps", "peaks", "next", "schedule", "evaluate", "generate", "prune",
        ] {
            #expect(script.stdout.contains(command), "\(shell) completion lacks \(command)")
        }
    }

    @Test func errorsAreOneSentenceAndNonZero() throws {
        let missing = try Tool.run(["import", "/nonexistent/log.csv", "--db", db])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("Cannot read /nonexistent/log.csv"))
        let interval = try Tool.run(["config", "a", "--interval=-5", "--db", db])
        #expect(interval.status != 0)
        #expect(interval.stderr.contains("positive number of seconds"))
        let zone = try Tool.run(["config", "--time-zone", "Mars/Olympus", "--db", db])
        #expect(zone.status != 0)
        #expect(zone.stderr.contains("not a known time zone"))
        // An abbreviation is refused, naming the places it may mean, and nothing is stored.
        let abbreviation = try Tool.run(["config", "--time-zone", "BST", "--device", "uk", "--db", db])
        #expect(abbreviation.status != 0)
        #expect(abbreviation.stderr.contains("it may mean Europe/London or Asia/Dhaka"), "\(abbreviation.stderr)")
        let offset = try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--time-zone", "UTC+5:30", "--db", db])
        #expect(offset.status != 0)
        #expect(offset.stderr.contains("is a fixed offset"), "\(offset.stderr)")
        let result = try Tool.run(["record", "fetch", "a", "--result", "maybe", "--db", db])
        #expect(result.status != 0)
    }

    @Test func badFileLeavesTheStoreAsItWas() throws {
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db])
        let bad = Tool.scratch().appendingPathComponent("bad.csv")
        try Data("timestamp,app,event\n2024-01-01T08:00:00Z,a,launch\nnot-a-time,b,launch\n".utf8).write(to: bad)
        let refused = try Tool.run(["import", bad.path, "--db", db])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("\(bad.path):3: field 'timestamp'"))
        // In JSON, the refused rows are fields, as a script reads them
        let refusedJSON = try Tool.run(["import", bad.path, "--db", db, "--json"])
        #expect(refusedJSON.status != 0)
        let answer = try #require(try json(refusedJSON.stdout) as? [String: Any], "\(refusedJSON.stdout)")
        let failure = try #require((answer["failures"] as? [[String: Any]])?.first)
        #expect(failure["rejected"] as? Int == 1)
        let rejection = try #require((failure["rejections"] as? [[String: Any]])?.first)
        #expect(rejection["line"] as? Int == 3)
        #expect(rejection["field"] as? String == "timestamp")
        let apps = try Tool.run(["apps", "--db", db, "--json"])
        let list = try #require(try json(apps.stdout) as? [[String: Any]])
        #expect(list.count == 4)
        let skipped = try Tool.run([
            "import", bad.path, "--db", db, "--skip-invalid", "--rejects", bad.path + ".rejects",
        ])
        #expect(skipped.status == 0)
        // The rejects are a csv: file, line, field, reason, quoted where they need it.
        let rejects = try String(contentsOfFile: bad.path + ".rejects", encoding: .utf8)
        let lines = rejects.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "file,line,field,reason")
        #expect(lines.last?.hasPrefix("\(bad.path),3,timestamp,'not-a-time' is ") == true, "\(rejects)")
    }

    /// A record whose time cannot be read makes no store: the folder and the file stay absent,
    /// as after a refused import.
    @Test func aRefusedRecordMakesNoStore() throws {
        let folder = Tool.scratch().appendingPathComponent("new")
        let path = folder.appendingPathComponent("events.sqlite").path
        for at in ["2024-05-01 08:30", "yesterday"] {
            let refused = try Tool.run(["record", "launch", "com.example.news", "--at", at, "--db", path])
            #expect(refused.status != 0, "\(at)")
            #expect(refused.stderr.contains("--at '\(at)'"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path), "\(at)")
        }
        // An instant needs no zone: it makes the store
        let recorded = try Tool.run([
            "record", "launch", "com.example.news", "--at", "2024-05-01T08:30:00Z", "--db", path,
        ])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// `config --default-interval` with --device sets that device's default alone; without, the
    /// store's, which a device with its own keeps out of.
    @Test func aDefaultIntervalWithADeviceIsThatDevicesAlone() throws {
        try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "phone", "--time-zone", "UTC",
        ])
        try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "tablet", "--time-zone", "UTC",
        ])
        let set = try Tool.run(["config", "--default-interval", "3600", "--device", "tablet", "--db", db, "--json"])
        #expect(set.status == 0, "\(set.stderr)")
        func defaultInterval(_ device: String) throws -> String? {
            let shown = try Tool.run(["config", "--device", device, "--db", db, "--json"])
            return try #require(try json(shown.stdout) as? [String: Any])["defaultInterval"] as? String
        }
        #expect(try defaultInterval("tablet") == "3600")
        #expect(try defaultInterval("phone") == "never")
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        #expect(try defaultInterval("phone") == "minimum")
        #expect(try defaultInterval("tablet") == "3600")
    }

    /// A replay refused for its invalid rows says why first, then the further rows, as import does.
    @Test func invalidRowsAreSaidAfterTheirHeadline() throws {
        let bad = Tool.scratch().appendingPathComponent("bad.csv")
        try Data(
            "timestamp,app,event\n2024-01-01T08:00:00Z,a,launch\nnot-a-time,b,launch\nalso-not,b,launch\n".utf8
        ).write(to: bad)
        let refused = try Tool.run(["evaluate", bad.path, "--time-zone", "UTC"])
        #expect(refused.status != 0)
        let headline = try #require(refused.stderr.range(of: "was not evaluated: 2 invalid rows"), "\(refused.stderr)")
        let second = try #require(refused.stderr.range(of: "\(bad.path):4"), "\(refused.stderr)")
        #expect(headline.lowerBound < second.lowerBound, "\(refused.stderr)")
    }

    @Test func databasePathFollowsTheEnvironment() throws {
        let home = Tool.scratch()
        try Tool.run(["record", "launch", "a", "--at", "now"], environment: ["HOME": home.path, "XDG_DATA_HOME": ""])
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/fetchpredict/events.sqlite"))
        let xdg = Tool.scratch()
        try Tool.run(["record", "launch", "a"], environment: ["XDG_DATA_HOME": xdg.path])
        let path = xdg.path + "/fetchpredict/events.sqlite"
        #expect(FileManager.default.fileExists(atPath: path))
        let mode =
            try FileManager.default.attributesOfItem(atPath: xdg.path + "/fetchpredict")[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func generateIsDeterministicAndMadeTheFixture() throws {
        let made = try Tool.run([
            "generate", "--persona", "commuter", "--days", "28", "--seed", "1", "--time-zone", "Europe/Warsaw",
        ])
        #expect(made.stdout == (try String(contentsOfFile: Tool.fixture("commuter-28d.csv"), encoding: .utf8)))
        let unknown = try Tool.run(["generate", "--persona", "astronaut"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("commuter, night-owl, irregular, shifting"))
    }

    @Test func processesRecordingAtTheSameMomentAllSucceed() throws {
        try Tool.run(["record", "launch", "warmup", "--db", db])
        let processes = try (0..<8).map { index in
            try Tool.start(["record", "launch", "app\(index)", "--at", "2024-01-01T08:00:00Z", "--db", db])
        }
        for (process, out, _) in processes {
            _ = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let apps = try Tool.run(["apps", "--db", db, "--json"])
        let list = try #require(try json(apps.stdout) as? [[String: Any]])
        #expect(list.count == 9)
        #expect(list.allSatisfy { $0["launches"] as? Int == 1 })
    }
}

/// The planning commands end to end.
struct PlanningCommandTests {
    let db = Tool.scratch().appendingPathComponent("events.sqlite").path

    func prepared() throws {
        try Tool.run(["import", Tool.fixture("commuter-28d.csv"), "--db", db, "--time-zone", "Europe/Warsaw"])
    }

    @Test func neverByDefaultSaysWhatToDo() throws {
        try prepared()
        let schedule = try Tool.run(["schedule", "--db", db, "--now", "2024-01-29T00:00:00+01:00"])
        #expect(schedule.status == 0)
        #expect(schedule.stdout.contains("0 device wakes"))
        #expect(schedule.stdout.contains("--default-interval minimum"))
    }

    /// An empty `next` says why when the settings explain it: every app at never or disabled, or
    /// no app at all; an app that may fetch takes the hint away, and JSON never carries it.
    @Test func anEmptyNextSaysWhyWhenTheSettingsExplainIt() throws {
        try prepared()
        let now = ["--db", db, "--now", "2024-01-29T00:00:00+01:00"]
        let never = "Every app's interval is never"
        // Given every app at never, the default
        for command in [["next"], ["next", "com.example.news"], ["schedule"]] {
            let result = try Tool.run(command + now)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            // Asked about one app, the answer is about that app.
            let expected =
                command.count == 2
                ? "The interval of com.example.news is never (the default, as on iOS) or its fetch is disabled: "
                    + "set one with fetchpredict config com.example.news --interval minimum" : never
            #expect(result.stdout.contains(expected), "\(command): \(result.stdout)")
        }
        // When the one app that may fetch is disabled, the hint stays
        try Tool.run(["config", "com.example.news", "--interval", "minimum", "--disable", "--db", db])
        #expect(try Tool.run(["next"] + now).stdout.contains(never))
        // An app that needs power, on a device that never told its state, keeps its wake; the
        // setting is shown, and lifted by its --no- form
        let constrained = try Tool.run(["config", "com.example.news", "--requires-power", "--enable", "--db", db])
        #expect(constrained.stdout.contains("background fetch enabled, woken only on power"), "\(constrained.stdout)")
        let woken = try Tool.run(["next"] + now).stdout
        #expect(woken.contains("com.example.news"), "\(woken)")
        // The reason says why the setting did not move the wake (the text wraps its lines).
        let words = woken.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("nothing the device told says for this time: woken as if it did not ask"), "\(woken)")
        let listed = try Tool.run(["apps", "--db", db]).stdout
        #expect(listed.contains("NEEDS") && listed.contains("power"), "\(listed)")
        let lifted = try Tool.run(["config", "com.example.news", "--no-requires-power", "--json", "--db", db])
        #expect(lifted.stdout.contains(#""requiresPower" : false"#), "\(lifted.stdout)")
        // And when it is enabled, there is a wake and no hint
        try Tool.run(["config", "com.example.news", "--enable", "--db", db])
        let enabled = try Tool.run(["next"] + now)
        #expect(enabled.stdout.contains("com.example.news"), "\(enabled.stdout)")
        #expect(!enabled.stdout.contains(never))
        // Months after the log ended, the device has gone silent: the answer says since when,
        // and how to ask about then
        let later = try Tool.run(["next", "--db", db, "--now", "2024-06-01T00:00:00Z"])
        #expect(
            later.stdout.contains(
                "device default went silent, with no launch since 2024-01-28 21:19; nothing unused for 14 days "
                    + "is woken (--silent-after), so no wake since 2024-02-11 21:19"),
            "\(later.stdout)")
        #expect(later.stdout.contains("--now 2024-01-28T20:19:56.987Z"), "\(later.stdout)")
        let laterJSON = try Tool.run(["next", "--db", db, "--now", "2024-06-01T00:00:00Z", "--json"])
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(laterJSON.stdout.utf8)) as? [String: Any])
        #expect(answer["noWake"] as? String == "silent")
        #expect((answer["silence"] as? [String: Any])?["since"] as? String == "2024-02-11T20:19:56.987Z")
        // With no silence limit, months-old habits are in a quiet spell
        let stale = try Tool.run([
            "next", "--db", db, "--now", "2024-06-01T00:00:00Z", "--budget", "0.5", "--silent-after", "never",
        ])
        #expect(
            stale.stdout.contains("the last event of device default was at 2024-01-28 23:45, 124 days before now"),
            "\(stale.stdout)")
        // A week after it, not yet
        let weekLater = try Tool.run(["next", "--db", db, "--now", "2024-02-03T00:00:00Z", "--budget", "0.5"])
        #expect(!weekLater.stdout.contains("the last event"), "\(weekLater.stdout)")
        // A device with a zone and no events has no apps yet
        try Tool.run(["config", "--time-zone", "Europe/Warsaw", "--device", "tablet", "--db", db])
        let empty = try Tool.run(["next", "--device", "tablet"] + now)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("No apps on device tablet yet"), "\(empty.stdout)")
        let json = try Tool.run(["next", "--device", "tablet", "--json"] + now)
        #expect(!json.stdout.contains("No apps"))
    }

    @Test func scheduleAndNextInTextAndJSON() throws {
        try prepared()
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let text = try Tool.run(["schedule", "--db", db, "--now", "2024-01-29T00:00:00+01:00"])
        #expect(text.stdout.hasPrefix("Schedule of device default (Europe/Warsaw) from 2024-01-29 00:00 for 24 h: "))
        #expect(text.stdout.contains("before its 07:2"))
        let json = try Tool.run(["schedule", "--db", db, "--now", "2024-01-29T00:00:00+01:00", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let wakes = try #require(object["wakes"] as? [[String: Any]])
        #expect(wakes.count >= 4)
        let times = wakes.compactMap { $0["time"] as? String }
        #expect(times == times.sorted())
        let next = try Tool.run([
            "next", "com.example.mail", "--db", db, "--now", "2024-01-29T00:00:00+01:00", "--json",
        ])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any])
        let wake = try #require(answer["wake"] as? [String: Any])
        let apps = try #require(wake["apps"] as? [[String: Any]])
        #expect(apps.contains { $0["app"] as? String == "com.example.mail" })
        // The same command prints the same thing every time.
        #expect(try Tool.run(["schedule", "--db", db, "--now", "2024-01-29T00:00:00+01:00"]).stdout == text.stdout)
    }

    /// `next` and the first wake of `schedule`, asked at the same --now, are the same wake, also
    /// when --now is itself the time of a planned wake: both plan strictly after --now.
    @Test func nextIsTheFirstWakeOfTheSchedule() throws {
        try prepared()
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        func firstWake(_ arguments: [String]) throws -> [String: Any]? {
            let result = try Tool.run(arguments + ["--db", db, "--json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            if let wakes = object["wakes"] as? [[String: Any]] { return wakes.first }
            return object["wake"] as? [String: Any]
        }
        var nows = ["2024-01-29T00:00:00+01:00", "2024-01-29T06:59:30+01:00", "2024-01-29T12:00:00+01:00"]
        // A wake's own time as --now: a wake at --now is no wake after it.
        let planned = try #require(try firstWake(["schedule", "--now", "2024-01-29T06:00:00+01:00"]))
        nows.append(try #require(planned["time"] as? String))
        for now in nows {
            let next = try #require(try firstWake(["next", "--now", now]), "\(now)")
            let scheduled = try #require(try firstWake(["schedule", "--now", now]), "\(now)")
            #expect(next["time"] as? String == scheduled["time"] as? String, "--now \(now)")
            let apps = { (wake: [String: Any]) in
                ((wake["apps"] as? [[String: Any]]) ?? []).compactMap { $0["app"] as? String }
            }
            #expect(apps(next) == apps(scheduled), "--now \(now)")
            #expect(next["time"] as? String != now, "--now \(now): a wake at --now itself")
        }
    }

    /// A system package (here the clock) is listed as one and never woken by default, whatever
    /// the default interval; an interval of its own, given in bulk by a pattern or a list file,
    /// wakes it as any other app.
    @Test func systemPackagesAreLeftOutOfPlansUntilGivenAnInterval() throws {
        let clock = "com.sec.android.app.clockpackage"
        let log = Tool.scratch().appendingPathComponent("phone.csv")
        let fixture = try String(contentsOfFile: Tool.fixture("commuter-28d.csv"), encoding: .utf8)
        try fixture.replacingOccurrences(of: "com.example.podcasts", with: clock)
            .write(to: log, atomically: true, encoding: .utf8)
        try Tool.run(["import", log.path, "--db", db, "--time-zone", "Europe/Warsaw"])
        try Tool.run(["config", "--default-interval", "minimum", "--db", db])
        let apps = try Tool.run(["apps", "--db", db])
        let clockRow = apps.stdout.split(separator: "\n").first { $0.contains(clock) } ?? ""
        #expect(clockRow.contains(" system "), "\(apps.stdout)")
        #expect(apps.stdout.contains("system: a system package"), "\(apps.stdout)")
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(try Tool.run(["apps", "--db", db, "--json"]).stdout.utf8))
                as? [[String: Any]])
        #expect(listed.first { $0["app"] as? String == clock }?["system"] as? Bool == true)
        #expect(listed.first { $0["app"] as? String == clock }?["interval"] as? String == "never")
        func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
        let range = ["--db", db, "--from", "2024-01-22 00:00", "--hours", "168", "--json"]
        func wakes(of app: String) throws -> Int {
            let schedule = try #require(
                try json(try Tool.run(["schedule"] + range).stdout) as? [String: Any])
            let device = schedule["wakes"] as? [[String: Any]] ?? []
            return device.flatMap { $0["apps"] as? [[String: Any]] ?? [] }.filter { $0["app"] as? String == app }.count
        }
        #expect(try wakes(of: clock) == 0)
        #expect(try wakes(of: "com.example.news") > 0)
        // In bulk, by a pattern: the clock is woken as any other app.
        let bulk = try Tool.run(["config", "--apps-matching", "*clockpackage", "--interval", "minimum", "--db", db])
        #expect(bulk.status == 0, "\(bulk.stderr)")
        #expect(bulk.stdout.contains("1 app of device default set to interval minimum: \(clock)."), "\(bulk.stdout)")
        #expect(try wakes(of: clock) > 0)
        // And back, from a list file.
        let list = Tool.scratch().appendingPathComponent("quiet.txt")
        try "# apps to leave alone\n\(clock)\ncom.example.ch*   # chat\n".write(
            to: list, atomically: true, encoding: .utf8)
        let fromFile = try Tool.run(["config", "--apps-file", list.path, "--interval", "never", "--db", db])
        #expect(fromFile.stdout.contains("2 apps of device default set to interval never"), "\(fromFile.stdout)")
        #expect(try wakes(of: clock) == 0 && wakes(of: "com.example.chat") == 0)
        let bad = try Tool.run(["config", "--apps-matching", "x*", "--db", db])
        #expect(
            bad.status != 0 && bad.stderr.contains("give --interval, --enable, --disable or a --requires- option"),
            "\(bad.stderr)")
    }

    @Test func peaksShowsTheChartAndPeaks() throws {
        try prepared()
        let peaks = try Tool.run(["peaks", "com.example.news", "--db", db])
        #expect(peaks.stdout.hasPrefix("com.example.news\n  weekdays, "))
        #expect(peaks.stdout.contains("peak 07:2"))
        #expect(peaks.stdout.contains("   0     3     6     9     12    15    18    21    24"))
        let json = try Tool.run(["peaks", "--db", db, "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 4)
        let profiles = try #require(list.first?["profiles"] as? [[String: Any]])
        #expect((profiles.first?["halfHourly"] as? [Double])?.count == 48)
        // An app opened once has no daily rate: not "1.0 cold launches a day".
        try Tool.run(["record", "launch", "org.example.battery", "--at", "2024-01-28T12:00:00Z", "--db", db])
        let once = try Tool.run(["peaks", "org.example.battery", "--db", db, "--now", "2024-01-28T12:10:00Z"])
        #expect(
            once.stdout.contains("every day, too few days of use for a daily rate (launched over 1 day)"),
            "\(once.stdout)")
        #expect(!once.stdout.contains("cold launches a day"), "\(once.stdout)")
        #expect(
            once.stdout.contains("last launch 13:00, 10 min ago; 1 cold launch in the last 7 days"), "\(once.stdout)")
    }
}

struct SchedulerExampleTests {
    @Test func exampleSchedulerRunsAgainstASimulatedClock() throws {
        let process = Process()
        process.executableURL = Tool.productsFolder.appendingPathComponent("scheduler-example")
        process.arguments = ["7"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix("simulated 7 days of a commuter: "))
        #expect(text.contains("next wake: "))
    }
}
