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

    func source(_ habits: DailyProfile, traces: Int = 1) -> SharedReadings.Source {
        let profile = DailyProfile.make(
            bins: (0..<AppModel.binsPerDay).map { $0 % 12 == 0 ? 1 : 0 }, days: 1, kind: .all, smoothingMinutes: 15)
        return SharedReadings.Source(
            app: "com.example.news", traces: traces, start: 1_000, profiles: (profile, profile),
            habits: (habits, habits))
    }

    /// Readings are found only for the same app, traces, start and profiles; those that go
    /// further replace those kept.
    @Test func readingsAreFoundOnlyForWhatTheyWereReadFrom() {
        let shared = SharedReadings()
        let habits = DailyProfile.make(
            bins: (0..<AppModel.binsPerDay).map { $0 == 100 ? 2 : 0 }, days: 1, kind: .all, smoothingMinutes: 15)
        shared.keep([(source(habits), [0.1, 0.2])])
        #expect(shared.chances([source(habits)]) == [[0.1, 0.2]])
        #expect(shared.chances([source(.empty)]) == [[]])
        #expect(shared.chances([source(habits, traces: 2)]) == [[]])
        shared.keep([(source(habits), [0.1, 0.2, 0.3]), (source(.empty), [0.4])])
        shared.keep([(source(habits), [0.1])])
        #expect(shared.chances([source(habits), source(.empty)]) == [[0.1, 0.2, 0.3], [0.4]])
    }
}
