import Foundation
import Testing

@testable import FetchPredictorCore

/// The trees' readings that the replays of one device share in a backtest, one replay per
/// budget level (`SharedReadings`).
struct SharedReadingsTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Every level run together reads what it reads alone: the same figures, level by level,
    /// and the same fetches at the level reported. The shifting persona's habits move, so its
    /// levels' own fetches start new days' profiles at different instants.
    @Test(arguments: [Persona.shifting, .commuter])
    func levelsRunTogetherReadWhatEachReadsAlone(persona: Persona) {
        let log = SyntheticLog(persona: persona, days: 21, timeZone: zone, seed: 3, fetchPeriodMinutes: 0)
        let device = BacktestDevice(name: "phone", timeZone: zone, launches: log.events())
        let levels = [0.6, 0.85, 0.95]
        var settings = BacktestSettings()
        settings.periods = []
        settings.minimumColdLaunches = 5
        settings.configuration.planning = .chance
        settings.forecaster = TreesForecaster(model: .prior)
        settings.budgets = levels
        settings.reportedBudget = 0.95
        let together = Backtest.run([device], settings: settings)
        for level in levels {
            var alone = settings
            (alone.budgets, alone.reportedBudget) = ([level], level)
            let report = Backtest.run([device], settings: alone)
            let figures = { (report: BacktestReport) in
                report.overall.first { $0.strategy == .predictor(level) }
            }
            #expect(figures(report) != nil)
            #expect(figures(together) == figures(report), "level \(level)")
            if level == settings.reportedBudget { #expect(together.fetches == report.fetches) }
        }
    }

    func source(traces: Int = 1, day: Int = 20_000) -> SharedReadings.Source {
        var device = DeviceModel(timeZone: zone)
        device.advance(to: day, PredictorConfiguration())
        for _ in 0..<traces {
            device.observe(.launch("com.example.news", at: 1_000), PredictorConfiguration(), learning: .launchFeatures)
        }
        return SharedReadings.Source(
            app: "com.example.news", start: 60_000, device: device, profiles: (.empty, .empty), habits: (.empty, .empty)
        )
    }

    /// Readings are found only for the same app, traces, start and day of the device's model;
    /// those that go further replace those kept.
    @Test func readingsAreFoundOnlyForWhatTheyWereReadFrom() {
        let shared = SharedReadings()
        shared.keep([(source(), [0.1, 0.2])])
        #expect(shared.chances([source()]) == [[0.1, 0.2]])
        #expect(shared.chances([source(day: 20_001)]) == [[]])
        #expect(shared.chances([source(traces: 2)]) == [[]])
        shared.keep([(source(), [0.1, 0.2, 0.3]), (source(day: 20_001), [0.4])])
        shared.keep([(source(), [0.1])])
        #expect(shared.chances([source(), source(day: 20_001)]) == [[0.1, 0.2, 0.3], [0.4]])
    }

    /// A model whose clock a replay's own fetches moved a day at a time learned what a model
    /// whose next launch moved it those days at once learned, to the bit: what the levels share
    /// is made of the days passed, not of which events moved the clock.
    @Test func aModelLearnsTheSameHoweverItsDaysWereMoved() {
        let configuration = PredictorConfiguration()
        let (app, day) = ("com.example.news", Milliseconds(86_400_000))
        var model = DeviceModel(timeZone: TimeZone(identifier: "UTC")!)
        for past: Milliseconds in 0..<20 {
            for minute in [480, 485, 720, 1_300] as [Int] {
                model.observe(.launch(app, at: (19_980 + past) * day + .minutes(minute)), configuration)
            }
        }
        var stepped = model, leapt = model
        for next: Milliseconds in 1..<6 {
            stepped.observe(
                Event(kind: .fetch, app: app, time: (19_999 + next) * day + .minutes(5), result: .noData), configuration
            )
        }
        stepped.observe(.launch(app, at: 20_005 * day + .minutes(480)), configuration)
        leapt.observe(.launch(app, at: 20_005 * day + .minutes(480)), configuration)
        let (one, other) = (stepped.apps[app]!, leapt.apps[app]!)
        #expect([one.recent, one.weekday, one.weekend] == [other.recent, other.weekday, other.weekend])
        #expect(
            [stepped.recentDays, stepped.weekdayDays, stepped.weekendDays]
                == [leapt.recentDays, leapt.weekdayDays, leapt.weekendDays])
        #expect(stepped.planningProfiles(app: app, configuration) == leapt.planningProfiles(app: app, configuration))
    }
}
