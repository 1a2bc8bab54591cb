import FetchPredictorCore
import FetchPredictorImport
import FetchPredictorTestSupport
import Foundation
import Testing

/// Each format, read from the project's synthetic fixtures, gives the events a reader of the
/// file would count by hand.
struct FormatsTests {
    func importFixture(_ name: String, _ options: ImportOptions = ImportOptions()) throws -> (ReadLog, ImportReport) {
        let log = try ReadLog(TestFiles.fixture(name), options: options)
        return (log, log.report)
    }

    /// An App Usage export of these lines (after its header), read in UTC with day-first dates.
    func appUsageLog(_ rows: String, name: String) throws -> ReadLog {
        let path = TestFiles.write("\"App name\",\"Date\",\"Time\",\"Duration\"\n" + rows, name: name)
        return try ReadLog(path, options: ImportOptions(timeZone: TimeZone(identifier: "UTC")!, dateOrder: .dmy))
    }

    /// App Usage's note that its history was switched on is no app.
    @Test func appUsageMetaRowsAreNoApps() throws {
        let log = try appUsageLog(
            """
            "Chat","13/03/24","9:01:10 pm","0:00:30"
            "Activity history enabled","13/03/24","9:00:00 pm","0:00:00"
            "App Usage","13/03/24","8:59:00 pm","0:00:10"
            """, name: "meta.csv")
        #expect(log.apps() == ["Chat"])
    }

    /// App Usage's rows make visits by the rule of every format that lists windows: an app's rows
    /// more than five minutes apart are two launches though nothing came between them, and rows
    /// at the same second keep the order of a file listed newest first.
    @Test func appUsageVisitsFollowTheWindowFormatsRule() throws {
        let log = try appUsageLog(
            """
            "Chat","13/03/24","9:40:00 pm","0:00:30"
            "Chat","13/03/24","9:01:10 pm","0:00:30"
            "Chat","13/03/24","9:00:30 pm","0:00:30"
            "Mail","13/03/24","8:59:00 pm","0:00:01"
            "Chat","13/03/24","8:59:00 pm","0:00:01"
            """, name: "visits.csv")
        let launches = log.events().filter { $0.kind == .launch }
        func at(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Milliseconds {
            DateFields(year: 2024, month: 3, day: 13, hour: hour, minute: minute, second: second).millisecondsAsIfUTC
        }
        // The store's order puts Chat before Mail at one instant; Chat was in front first.
        #expect(launches.map(\.app) == ["Chat", "Mail", "Chat", "Chat"])
        #expect(launches.map(\.time) == [at(20, 59), at(20, 59), at(21, 0, 30), at(21, 40)])
        #expect(launches.map(\.duration) == [1, 1, 60, 30], "the rows 10 s apart are one visit")
    }

    /// App Usage's screen rows in Polish and French are device events that end a run, not apps.
    @Test(arguments: [
        ("Ekran włączony (odblokowany)", "Ekran wyłączony (zablokowany)", "Ekran wyłączony"),
        ("Écran allumé (déverrouillé)", "Écran éteint (verrouillé)", "Écran éteint"),
    ])
    func appUsageScreenRowsInOtherLanguages(unlock: String, lockedOff: String, off: String) throws {
        let log = try appUsageLog(
            """
            "Chat","13/03/24","9:10:00 pm","0:00:30"
            "\(off)","13/03/24","9:05:00 pm","0:00:00"
            "\(lockedOff)","13/03/24","9:04:00 pm","0:00:00"
            "Chat","13/03/24","9:03:00 pm","0:00:30"
            "\(unlock)","13/03/24","9:02:00 pm","0:00:00"
            """, name: "screens.csv")
        #expect(log.apps() == ["Chat"])
        let events = log.events()
        #expect(events.filter { $0.kind == .launch }.count == 2, "the screen rows end the first run")
        #expect(events.filter { $0.kind == .unlock }.count == 1)
        #expect(events.filter { $0.kind == .screenOff }.count == 2)
    }

    @Test func csvFixtureStoresEveryRow() throws {
        let (log, report) = try importFixture("commuter-28d.csv")
        let lines = try String(contentsOfFile: TestFiles.fixture("commuter-28d.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst()
        #expect(report.format == .csv)
        #expect(report.formatDetected)
        #expect(report.rowsRead == lines.count)
        #expect(report.stored == lines.count)
        let events = log.events()
        #expect(events.filter { $0.kind == .launch }.count == lines.filter { $0.contains(",launch,") }.count)
        #expect(events.filter { $0.kind == .fetch }.count == lines.filter { $0.contains(",fetch,") }.count)
    }

    @Test func jsonlFixtureMatchesTheSameLogInCSV() throws {
        let (jsonlLog, report) = try importFixture("night-owl-14d.jsonl")
        #expect(report.format == .jsonl)
        #expect(report.rejected == 0)
        let path = TestFiles.write(
            EventLogWriter.csv(
                SyntheticLog(persona: .nightOwl, days: 14, timeZone: TimeZone(identifier: "America/New_York")!, seed: 3)
                    .events()))
        #expect(try jsonlLog.events() == ReadLog(path).events())
    }

    @Test func activityWatchVisitsBecomeLaunches() throws {
        let (log, report) = try importFixture("activitywatch-small.json")
        #expect(report.format == .activitywatch)
        #expect(report.rowsRead == 15)
        let events = log.events()
        let launches = events.filter { $0.kind == .launch }
        // Two chat windows in a row are one visit; launchers, the system UI and ActivityWatch
        // end visits without being launches.
        #expect(
            launches.map(\.app) == [
                "com.example.chat", "com.example.news", "com.example.video",
                "com.example.chat", "com.example.news", "com.example.video",
            ])
        #expect(launches.first?.duration == 80)
        #expect(events.filter { $0.kind == .unlock }.count == 3)
    }

    @Test func activityWatchExtraIgnoredPackagesAreNotLaunches() throws {
        let (log, _) = try importFixture(
            "activitywatch-small.json", ImportOptions(extraIgnoredPackages: ["com.example.video"]))
        let apps = Set(log.events().filter { $0.kind == .launch }.map(\.app))
        #expect(apps == ["com.example.chat", "com.example.news"])
    }

    @Test func appUsageQuotedNewestFirstWithFooter() throws {
        let zone = TimeZone(identifier: "Europe/London")!
        let (log, report) = try importFixture("app-usage-dmy.csv", ImportOptions(timeZone: zone))
        #expect(report.format == .appUsage)
        #expect(report.rowsRead == 10)
        let events = log.events()
        let launches = events.filter { $0.kind == .launch }
        #expect(launches.map(\.app) == ["Mail", "News", "News", "Chat"])
        // The chat run's launch is its earliest row, 21:00:00 local (UTC in March in London).
        #expect(launches.last?.time == DateFields(year: 2024, month: 3, day: 13, hour: 21).millisecondsAsIfUTC)
        #expect(launches.last?.duration == 100)
        #expect(events.filter { $0.kind == .unlock }.count == 2)
        #expect(events.filter { $0.kind == .screenOff }.count == 1)
    }

    @Test func appUsageUnquotedOldestFirstReadsMonthFirst() throws {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let (log, report) = try importFixture("app-usage-mdy.csv", ImportOptions(timeZone: zone))
        #expect(report.rowsRead == 7)
        let launches = log.events().filter { $0.kind == .launch }
        #expect(launches.map(\.app) == ["Mail", "Chat", "Chat", "News"])
        #expect(launches[0].duration == 180)
        // 3/31/2024 02:30 does not exist in Warsaw (clocks go forward at 02:00): read as 03:30 CEST.
        #expect(launches[3].time == DateFields(year: 2024, month: 3, day: 31, hour: 1, minute: 30).millisecondsAsIfUTC)
    }

    @Test func appUsageDateOrderCanBeGiven() throws {
        let zone = TimeZone(identifier: "UTC")!
        let (log, _) = try importFixture("app-usage-ambiguous.csv", ImportOptions(timeZone: zone, dateOrder: .mdy))
        let first = try #require(log.events().first)
        #expect(first.time == DateFields(year: 2024, month: 5, day: 6, hour: 8, minute: 45).millisecondsAsIfUTC)
    }

    @Test func rowsNamingADeviceGoToThatDevice() throws {
        let path = TestFiles.write(
            "timestamp,app,event,result,device\n2024-01-01T08:00:00Z,a,launch,,tablet\n2024-01-01T08:00:00Z,a,launch,,\n"
        )
        let report = try ReadLog(path, options: ImportOptions(device: "phone")).report
        #expect(report.stored == 2)
        #expect(try ReadLog(path, options: ImportOptions(device: "phone")).devices == ["phone", "tablet"])
    }

    @Test func offsetsAreKeptAndZIsNot() throws {
        let path = TestFiles.write(
            "timestamp,app,event\n2024-01-01T08:00:00+02:00,a,launch\n2024-01-01T08:00:00Z,b,launch\n1704096000,c,launch\n"
        )
        let events = try ReadLog(path).events()
        #expect(events.map(\.utcOffset) == [7200, nil, nil])
        #expect(events.map(\.time) == [1_704_088_800_000, 1_704_096_000_000, 1_704_096_000_000])
    }
}
