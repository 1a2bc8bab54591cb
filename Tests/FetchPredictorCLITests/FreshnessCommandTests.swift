import Foundation
import Testing

/// `fetchpredict freshness`: the stored fetches scored against the stored launches.
struct FreshnessCommandTests {
    /// A day of one app in Berlin (UTC+2 in May), worked by hand: a launch 20 minutes after a
    /// fetch is fresh, 40 minutes after is not, 30 seconds after is not, after a failed fetch is
    /// not, and 10 minutes after another is not cold. A second app is launched, never fetched.
    static let log = """
        timestamp,app,event,result
        2024-05-06T08:00:00+02:00,Mail,fetch,newData
        2024-05-06T08:20:00+02:00,Mail,launch,
        2024-05-06T10:00:00+02:00,Mail,fetch,newData
        2024-05-06T10:40:00+02:00,Mail,launch,
        2024-05-06T12:00:00+02:00,Mail,fetch,noData
        2024-05-06T12:00:30+02:00,Mail,launch,
        2024-05-06T14:00:00+02:00,Mail,fetch,failed
        2024-05-06T14:10:00+02:00,Mail,launch,
        2024-05-06T14:20:00+02:00,Mail,launch,
        2024-05-06T23:30:00+02:00,News,launch,
        2024-05-07T00:10:00+02:00,News,launch,

        """

    func store() throws -> String {
        let folder = Tool.scratch()
        let file = folder.appendingPathComponent("day.csv")
        try Self.log.write(to: file, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("events.sqlite").path
        let imported = try Tool.run([
            "import", file.path, "--db", db, "--device", "phone", "--time-zone", "Europe/Berlin",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        return db
    }

    func figures(_ arguments: [String]) throws -> [String: Any] {
        let run = try Tool.run(["freshness", "--json"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func theDayIsCountedAsWorkedByHand() throws {
        let db = try store()
        let report = try figures(["--db", db, "--device", "phone"])
        let observed = try #require(report["observed"] as? [String: Any])
        #expect(observed["coldLaunches"] as? Int == 6)
        #expect(observed["freshColdLaunches"] as? Int == 1)
        #expect(observed["fetches"] as? Int == 4)
        #expect(observed["wastedFailed"] as? Int == 1)
        #expect(observed["wastedNoData"] as? Int == 1)
        #expect(observed["days"] as? Int == 2)
        let apps = try #require(report["apps"] as? [[String: Any]])
        #expect(apps.map { $0["app"] as? String } == ["Mail", "News"])
        let baselines = try #require(report["baselines"] as? [[String: Any]])
        #expect(
            baselines.map { $0["strategy"] as? String } == ["periodic-30", "periodic-60", "periodic-120", "oracle"])
        #expect(baselines.last?["freshColdLaunches"] as? Int == 6)
        // A local date is the device's midnight: 6 May in Berlin holds Mail's day and News's 23:30.
        let day = try figures(["--db", db, "--device", "phone", "--from", "2024-05-06", "--to", "2024-05-07"])
        let dayObserved = try #require(day["observed"] as? [String: Any])
        #expect(dayObserved["coldLaunches"] as? Int == 5)
        #expect(dayObserved["days"] as? Int == 1)
        let devices = try #require(day["devices"] as? [[String: Any]])
        #expect(devices.first?["from"] as? String == "2024-05-05T22:00:00Z")
        let news = try figures(["--db", db, "--device", "phone", "--app", "News"])
        #expect((news["observed"] as? [String: Any])?["coldLaunches"] as? Int == 2)
        #expect((news["apps"] as? [[String: Any]])?.map { $0["app"] as? String } == ["News"])
        let text = try Tool.run(["freshness", "--db", db, "--device", "phone"])
        #expect(text.stdout.contains("Freshness of device phone, 2024-05-06 00:00 to 2024-05-08 00:00"))
        #expect(text.stdout.contains("oracle"))
    }

    @Test func aPeriodWithNothingInItIsZerosNotAnError() throws {
        let db = try store()
        let report = try figures(["--db", db, "--device", "phone", "--from", "2025-01-01", "--to", "2025-01-02"])
        let observed = try #require(report["observed"] as? [String: Any])
        #expect(observed["coldLaunches"] as? Int == 0 && observed["freshRate"] as? Double == 0)
        #expect(observed["medianContentAgeMinutes"] is NSNull)
    }

    @Test func badPeriodsAreRefusedByName() throws {
        let db = try store()
        let backwards = try Tool.run([
            "freshness", "--db", db, "--device", "phone", "--from", "2024-05-07", "--to", "2024-05-06",
        ])
        #expect(backwards.status != 0 && backwards.stderr.contains("--from must come before --to"))
        let junk = try Tool.run(["freshness", "--db", db, "--device", "phone", "--from", "yesterday-ish"])
        #expect(junk.status != 0 && junk.stderr.contains("--from"))
        let allLocal = try Tool.run(["freshness", "--db", db, "--all-devices", "--from", "2024-05-06"])
        #expect(allLocal.status != 0 && allLocal.stderr.contains("2024-05-06T00:00:00Z"))
        let unknown = try Tool.run(["freshness", "--db", db, "--device", "tablet"])
        #expect(unknown.status != 0 && unknown.stderr.contains("'tablet'"))
    }

    /// The pass's share of the time is a fraction more than 0 and at most 1, refused by name
    /// before anything is served.
    @Test(arguments: ["0", "1.5", "-0.1", "much"])
    func aShareOutsideZeroToOneIsRefusedByName(share: String) throws {
        let served = try Tool.run(["serve", "--db", try store(), "--listen", "127.0.0.1:0", "--freshness-share", share])
        #expect(served.status != 0 && served.stderr.contains("--freshness-share"), "\(served.stderr)")
    }
}
