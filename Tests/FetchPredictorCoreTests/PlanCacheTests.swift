import Foundation
import Testing

@testable import FetchPredictorCore

/// What `nextWake(after:device:)` keeps between questions for a forecaster that reads every
/// app's features: each app's habit profiles, made again after a launch of the app and only then.
struct PlanCacheTests {
    /// Replays a persona with fetch results between the launches, asking for the next wake after
    /// each event, through the trees: after every question each app's kept habit profiles are
    /// those its model gives now, and a fetch result (which moves the app's model, not its habits)
    /// keeps them as they were.
    @Test func keptHabitsAreTheAppsHabitsNow() throws {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let log = SyntheticLog(
            persona: .commuter, start: DateFields(year: 2024, month: 1, day: 1), days: 10, timeZone: zone, seed: 3,
            fetchPeriodMinutes: 0)
        var configuration = PredictorConfiguration()
        configuration.planning = .chance
        var predictor = Predictor(configuration: configuration, forecaster: TreesForecaster(model: .prior))
        predictor.defaultInterval = .minimum
        predictor.setTimeZone(zone, device: "phone")
        var checked = 0, keptThroughFetches = 0
        for launch in log.events().filter({ $0.kind == .launch }) {
            let fetch = Event(kind: .fetch, app: launch.app, time: launch.time - 300_000, result: .newData, duration: 4)
            for event in [fetch, launch] {
                let before = predictor.caches["phone"]?.profiles[event.app]?.habits
                try predictor.observe(event, device: "phone")
                _ = try predictor.nextWake(after: Date(milliseconds: event.time + 1), device: "phone")
                let device = try #require(predictor.devices["phone"])
                for (app, kept) in predictor.caches["phone"]?.profiles ?? [:] {
                    guard let habits = kept.habits else { continue }
                    let now = device.habitProfiles(app: app, configuration)
                    #expect(habits.profiles == now, "\(app) after the \(event.kind) at \(event.time)")
                    guard habits.profiles == now else { return }
                    checked += 1
                }
                if event.kind == .fetch, let before, let after = predictor.caches["phone"]?.profiles[event.app]?.habits
                {
                    #expect(after.launches == before.launches)
                    keptThroughFetches += 1
                }
            }
        }
        #expect(checked > 500 && keptThroughFetches > 50, "\(checked) checked, \(keptThroughFetches) fetches")
    }
}
