import FetchPredictor
import Foundation
import Testing

/// The default level is one row of `evaluate`, marked as such, and the level a schedule with no
/// budget is planned at.
struct DefaultBudgetTests {
    let log = Tool.fixture("commuter-28d.csv")
    let defaultLevel = PredictorConfiguration().budget

    func rows(_ value: Any?) -> [[String: Any]] { value as? [[String: Any]] ?? [] }

    /// Whatever levels are asked for, evaluate runs the default level too and marks its row, and
    /// only its row, with `"default": true`, on each device and overall; the text marks it with
    /// a star and says what the star means.
    @Test func evaluateMarksTheDefaultLevel() throws {
        let arguments = ["evaluate", log, "--time-zone", "Europe/Warsaw", "--budgets", "0.5,0.8"]
        let result = try Tool.run(arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let devices = rows(report["devices"])
        #expect(devices.count == 1)
        for table in [rows(report["overall"])] + devices.map({ rows($0["strategies"]) }) {
            let predictor = table.filter { $0["strategy"] as? String == "predictor" }
            #expect(predictor.compactMap { $0["budget"] as? Double }.sorted() == [0.5, 0.8, defaultLevel])
            #expect(
                predictor.filter { $0["default"] as? Bool == true }.compactMap { $0["budget"] as? Double } == [
                    defaultLevel
                ])
            #expect(
                predictor.allSatisfy { $0["default"] is Bool }, "every predictor row says whether it is the default")
            #expect(table.filter { $0["strategy"] as? String != "predictor" }.allSatisfy { $0["default"] == nil })
        }
        let reported = try #require(report["reported"] as? [String: Any])
        #expect(reported["budget"] as? Double == defaultLevel && reported["default"] as? Bool == true)

        let text = try Tool.run(arguments)
        let starred = text.stdout.split(separator: "\n").filter { $0.contains("*") }
        #expect(starred.count == 2, "\(text.stdout)")
        #expect(
            starred.first?.contains("predictor") == true
                && starred.first?.contains(String(format: "%.2f*", defaultLevel)) == true)
        #expect(starred.last?.hasPrefix("* the default level") == true)
    }

    /// A schedule asked for with no budget is the schedule at the default level, and not the
    /// schedule of another level.
    @Test func aScheduleWithNoBudgetIsPlannedAtTheDefaultLevel() throws {
        let db = Tool.scratch().appendingPathComponent("events.sqlite").path
        let store = ["--db", db, "--device", "phone"]
        #expect(try Tool.run(["import", log, "--time-zone", "Europe/Warsaw"] + store).status == 0)
        #expect(try Tool.run(["config", "--default-interval", "minimum"] + store).status == 0)
        func schedule(_ extra: [String]) throws -> String {
            let result = try Tool.run(["schedule", "--now", "2024-01-29T00:00:00+01:00", "--json"] + store + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let plain = try schedule([])
        #expect(plain == (try schedule(["--budget", String(defaultLevel)])))
        #expect(plain != (try schedule(["--budget", "0.85"])))
        #expect(plain.contains("\"plannedTime\""), "the default plans wakes on the commuter: \(plain)")
    }
}
