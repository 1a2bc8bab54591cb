import Foundation
import Testing

/// `fetchpredict features`: the training rows of the launch model (issue 28), checked against
/// the log they come from.
struct FeaturesCommandTests {
    static let featureNames = [
        "profileRate", "profileSlope", "profileNext30", "habitRate", "weekend", "minuteOfDay",
        "coldLaunchesPerDay", "minutesSinceLaunch", "minutesSinceColdLaunch", "coldLaunchesToday",
        "usualColdLaunchesByNow", "coldLaunchesLast24h", "coldLaunchesLast3h", "sameWindowYesterday",
        "sameWindowLastWeek", "followsLastApp", "minutesSinceAnyLaunch", "minutesSinceSessionStart", "wasLastApp",
        "launchesLast30Min", "recencyRate", "baseRate", "followRate", "followRateByQuarter", "sessionStartRate",
        "minutesSinceUnlock", "minutesSinceNotification",
    ]

    /// An ISO 8601 instant with Z or an offset, as Unix seconds.
    static func seconds(_ text: Substring) -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions =
            text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: String(text))!.timeIntervalSince1970
    }

    /// A synthetic commuter's log of some days, generated into a folder; its path.
    static func commuterLog(days: Int, in folder: URL) throws -> String {
        let log = folder.appendingPathComponent("commuter.csv").path
        let generated = try Tool.run([
            "generate", "--persona", "commuter", "--days", "\(days)", "--time-zone", "Europe/Warsaw",
        ])
        try generated.stdout.write(toFile: log, atomically: true, encoding: .utf8)
        return log
    }

    @Test func rowsHaveTheHeaderAndLabelsTheLogBearsOut() throws {
        // Given ten days of a synthetic commuter
        let folder = Tool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try Self.commuterLog(days: 10, in: folder)
        // When its features are written every 30 minutes
        let out = folder.appendingPathComponent("rows.csv").path
        let result = try Tool.run(["features", log, "--time-zone", "Europe/Warsaw", "--every", "30", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        // Then the header names the device, app, time, each feature and the label
        #expect(
            lines.first
                == Substring((["device", "app", "time"] + Self.featureNames + ["label"]).joined(separator: ",")))
        // And each label says whether the log has a cold launch of the app 1 to 30 minutes later
        var launches: [String: [Double]] = [:]
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields[2] == "launch" { launches[String(fields[1]), default: []].append(Self.seconds(fields[0])) }
        }
        var colds: [String: [Double]] = [:]
        for (app, times) in launches {
            let sorted = times.sorted()
            colds[app] = sorted.enumerated().filter { $0.offset == 0 || $0.element - sorted[$0.offset - 1] >= 1800 }
                .map(\.element)
        }
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count > 100)
        var positives = 0
        for row in rows {
            #expect(row.count == Self.featureNames.count + 4)
            let app = String(row[1]), time = Self.seconds(row[2])
            #expect(colds[app]!.count >= 20, "\(app) is not in scope")
            let expected = colds[app]!.contains { $0 > time + 60 && $0 <= time + 1800 }
            #expect(row.last == (expected ? "1" : "0"), "\(app) at \(row[2])")
            if expected { positives += 1 }
        }
        #expect(positives > 5)
        // A generated log has no unlocks and no notifications: those features are unknown.
        let unlock = Self.featureNames.firstIndex(of: "minutesSinceUnlock")! + 3
        #expect(rows.allSatisfy { $0[unlock] == "nan" && $0[unlock + 1] == "nan" })
        // Features are written in full, not rounded: a model fitted on them splits where the live
        // features fall (minutes since a launch at 14:17:01 are 14.28333..., not 14.2833).
        #expect(rows.contains { row in row[3..<(row.count - 1)].contains { $0.filter(\.isNumber).count >= 10 } })
        // The first decision time is local midnight of the 8th day: 2024-01-08 00:00 in Warsaw.
        #expect(rows.first?[2] == "2024-01-07T23:00:00Z")
    }

    @Test func aDecisionStepBelowAMinuteIsRefused() throws {
        let result = try Tool.run(["features", Tool.fixture("commuter-28d.csv"), "--time-zone", "UTC", "--every", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--every must be 1 minute or more."))
    }

    /// A log with a bad row is said by its file, line and field, as not read (nothing is
    /// imported), and no row is written.
    @Test func aLogWithABadRowIsNotReadAndNothingIsWritten() throws {
        let folder = Tool.scratch()
        let log = folder.appendingPathComponent("bad.csv").path
        try "timestamp,app,event\n2024-01-01T08:00:00Z,a,lunch\n".write(toFile: log, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("rows.csv").path
        let result = try Tool.run(["features", log, "--time-zone", "UTC", "--out", out])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(log) was not read: 1 invalid row, the first: \(log):2: field 'event'"))
        #expect(result.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `evaluate --forecaster` plans from the forecaster it names: the prior's trees, the hand
    /// weights and trees read from a file each give other wakes than the launch hazard; an unknown
    /// name is refused, and so is a file that is not a model, naming the option and the file,
    /// before any replay.
    @Test func evaluatePlansFromTheForecasterItIsGiven() throws {
        let folder = Tool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try Self.commuterLog(days: 12, in: folder)
        func wakes(_ forecaster: String) throws -> String {
            let out = folder.appendingPathComponent("wakes-\(forecaster.count).csv").path
            let result = try Tool.run([
                "evaluate", log, "--time-zone", "Europe/Warsaw", "--budgets", "0.9", "--budget", "0.9",
                "--forecaster", forecaster, "--wakes-out", out,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: out, encoding: .utf8)
        }
        let fitted = Tool.root.appendingPathComponent("fixtures/launch-model/synthetic-trees.json").path
        let hazard = try wakes("hazard"), prior = try wakes("trees"), profile = try wakes("profile")
        let fromFile = try wakes("trees=\(fitted)")
        for other in [prior, profile, fromFile] {
            #expect(other.split(separator: "\n").count > 20)
            #expect(other != hazard)
        }
        #expect(fromFile != prior)

        let unknown = try Tool.run(["evaluate", log, "--time-zone", "Europe/Warsaw", "--forecaster", "cubic"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("--forecaster") && unknown.stderr.contains("cubic"))
        let notAModel = folder.appendingPathComponent("model.json").path
        try "{\"kind\": \"logistic\"}".write(toFile: notAModel, atomically: true, encoding: .utf8)
        let refused = try Tool.run([
            "evaluate", log, "--time-zone", "Europe/Warsaw", "--forecaster", "trees=\(notAModel)",
        ])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--forecaster trees=\(notAModel)"))
        #expect(!refused.stdout.contains("fresh@4"))
    }

    /// A log that tells the device's state is evaluated with the apps' constraints of a settings
    /// file: the table of the device's state, with no fetch the state forbade, and the same in
    /// JSON; a constraint that is not true or false is refused, naming the file, app and field.
    @Test func evaluateScoresTheDevicesStateWithTheSettingsConstraints() throws {
        let folder = Tool.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("state.csv").path
        let generated = try Tool.run([
            "generate", "--persona", "commuter", "--days", "14", "--time-zone", "Europe/Warsaw", "--device-state",
        ])
        try generated.stdout.write(toFile: log, atomically: true, encoding: .utf8)
        #expect(generated.stdout.contains(",lowPowerOn,") && generated.stdout.contains(",battery,"))
        let settings = Tool.fixture("settings/commuter-constraints.json")
        let arguments = ["evaluate", log, "--time-zone", "Europe/Warsaw", "--settings", settings, "--budgets", "0.85"]
        let text = try Tool.run(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        let table = try #require(text.stdout.components(separatedBy: "device state (").last)
        let predictor = try #require(table.split(separator: "\n").first { $0.hasPrefix("predictor ") })
        let ignoring = try #require(table.split(separator: "\n").first { $0.hasPrefix("predictor-ignoring-state") })
        // REFUSED, FETCHES IN LOW POWER, CONSTRAINED FETCHES, BREAKING, ...
        let columns = predictor.split(separator: " ").dropFirst(2).compactMap { Int($0) }
        #expect(columns.count >= 6 && columns[1] == 0 && columns[3] == 0, "\(predictor)")
        #expect(ignoring.split(separator: " ").dropFirst(2).compactMap { Int($0) }.first ?? 0 > columns[0])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(Tool.run(arguments + ["--json"]).stdout.utf8)) as? [String: Any]
        )
        let reported = try #require((json["reported"] as? [String: Any])?["state"] as? [String: Any])
        #expect(
            reported["fetchesBreakingConstraints"] as? Int == 0 && reported["constrainedColdLaunches"] as? Int ?? 0 > 0)

        let bad = folder.appendingPathComponent("bad.json").path
        try #"{"apps": {"com.example.podcasts": {"requiresPower": "yes"}}}"#.write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Tool.run(["evaluate", log, "--time-zone", "Europe/Warsaw", "--settings", bad])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains(
                "--settings \(bad): the requiresPower of com.example.podcasts, \"yes\", is refused: it is true or false."
            ),
            "\(refused.stderr)")
    }
}
