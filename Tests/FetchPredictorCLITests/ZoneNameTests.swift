import Foundation
import Testing

/// The zone a user gives is the one the tool says back (issue 56: `--time-zone UTC` was echoed as
/// "GMT", and CET, a zone of the tz database, was refused).
struct ZoneNameTests {
    @Test func utcIsSaidAsUTCAndCETIsAZone() throws {
        let db = Tool.scratch().appendingPathComponent("zones.sqlite").path
        let imported = try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--db", db, "--device", "phone", "--time-zone", "UTC",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("into device phone (UTC)"), "\(imported.stdout)")
        #expect(try Tool.run(["config", "--db", db, "--device", "phone"]).stdout.contains("time zone UTC"))
        let cet = try Tool.run(["config", "--db", db, "--device", "tablet", "--time-zone", "CET"])
        #expect(cet.status == 0 && cet.stdout.contains("time zone CET"), "\(cet.stderr)")
    }
}
