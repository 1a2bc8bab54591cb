import FetchPredictorTestSupport
import Foundation
import Testing

/// Raising the budget does not lower the fresh cold launches or the wakes at the levels where
/// it did on the Lyon log (issue 72, point 4): 0.835 → 0.84 → 0.845, 0.89 → 0.895 and 0.905 → 0.91
/// (57 fresh cold launches of 282 fetches, then 37 of 200), when the calibration learned from the
/// wakes a level made chose that level's wakes.
struct FrontierTests {
    @Test(.enabled(if: TestFiles.datasetsPresent))
    func aHigherBudgetServesNoLessWhereItDidOnTheLyonLog() throws {
        let levels = [0.835, 0.84, 0.845, 0.88, 0.89, 0.895, 0.9, 0.905, 0.91, 0.94]
        let result = try Tool.run([
            "evaluate", Tool.dataset("app-usage-export-2019-lyon/AUM_V4_Activity_2019-12-10_22-19-45.csv"),
            "--date-order", "mdy", "--time-zone", "Europe/Paris",
            "--budgets", levels.map { String($0) }.joined(separator: ","), "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rows = (report["overall"] as? [[String: Any]] ?? []).filter { $0["strategy"] as? String == "predictor" }
            .map { ($0["budget"] as? Double ?? 0, $0["freshLaunches"] as? Int ?? 0, $0["fetches"] as? Int ?? 0) }
            .filter { levels.contains($0.0) }.sorted { $0.0 < $1.0 }
        #expect(rows.map(\.0) == levels)
        for (lower, higher) in zip(rows, rows.dropFirst()) {
            #expect(higher.1 >= lower.1 && higher.2 >= lower.2, "budget \(lower.0) → \(higher.0): \(lower) → \(higher)")
        }
    }
}
