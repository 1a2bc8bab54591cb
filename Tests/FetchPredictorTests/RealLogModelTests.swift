import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// What the predictor says of the real logs in ../shared/datasets, read in place, holds: its
/// reasons are true of its wakes, its habits are the data's, and its forecasts come true.
@Suite(.enabled(if: TestFiles.datasetsPresent, "needs ../shared/datasets"))
struct RealLogModelTests {
    static let logs = ["activitywatch-android-1/export.json", "activitywatch-android-2/export.json"]
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func launches(_ log: String) throws -> [Event] {
        try BacktestDevice.load(files: [TestFiles.dataset(log)], timeZone: zone, dateOrder: nil)[0].launches
            .sorted { $0.time < $1.time }
    }

    /// Given a real log learned up to an instant, every reason of the next day's schedule is
    /// true of its wake (the Samsung log at 2026-01-26T12:30Z was the example of reasons naming
    /// peaks already over).
    @Test(arguments: logs)
    func reasonsHoldOnRealLogs(log: String) throws {
        let events = try launches(log)
        let last = events.last!.time
        // The Xiaomi log's busy apps fall silent a week before its end: the later instants plan
        // few wakes, if any, and the earlier ones many.
        var checked = 0
        for hoursBefore in [12, 36, 60, 84, 108, 180, 252, 400, 550] {
            let now = Date(milliseconds: last - Milliseconds(hoursBefore) * 3_600_000)
            var predictor = Predictor()
            predictor.setTimeZone(zone, device: "phone")
            predictor.defaultInterval = .minimum
            var lastLaunches: [String: Date] = [:]
            for event in events where event.time <= now.milliseconds {
                try predictor.observe(event, device: "phone")
                lastLaunches[event.app] = Date(milliseconds: event.time)
            }
            let schedule = try predictor.schedule(from: now, to: now.addingTimeInterval(86_400), device: "phone")
            checked += schedule.wakes.count
            let problems = ReasonInvariants.check(schedule, zone: zone, lastLaunches: lastLaunches)
            #expect(problems.isEmpty, "\(log) at \(now): \(problems.prefix(3))")
        }
        #expect(checked >= 20, "\(log): \(checked) wakes")
    }

    /// Given a real log, the forecasts of the wakes made add up to the fresh cold launches they
    /// served within 15%, at every budget level from 0.84 to 0.94.
    @Test(arguments: logs)
    func forecastsComeTrueOnRealLogs(log: String) throws {
        var settings = BacktestSettings()
        settings.budgets = [0.84, 0.88, 0.94]
        settings.periods = []
        let devices = try BacktestDevice.load(files: [TestFiles.dataset(log)], timeZone: zone, dateOrder: nil)
        let report = Backtest.run(devices, settings: settings)
        for figures in report.overall where figures.strategy.isPredictor {
            let expected = try #require(figures.expectedFresh)
            let fresh = Double(figures.freshLaunches)
            #expect(abs(expected - fresh) <= 0.15 * fresh, "\(log) at \(figures.budget!): \(expected) for \(fresh)")
        }
    }
}
