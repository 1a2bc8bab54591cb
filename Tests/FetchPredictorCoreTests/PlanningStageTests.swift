import Foundation
import Testing

@testable import FetchPredictorCore

/// `nextWake(after:device:)` plans each app only a few hours ahead at first, and through the whole
/// horizon only when no app wakes sooner, and `nextWake(after:before:device:)` only up to its
/// limit: the wakes must be those of whole plans.
struct PlanningStageTests {
    /// Replays a persona as a scheduler would (a question after every launch and every fetch
    /// result, the wakes carried out with results that vary) through a predictor that plans in
    /// stages, one that plans every app through the whole horizon and one asked only for a wake
    /// before the next launch: every answer is the same, the last one's when it comes by then.
    /// The third run plans from the launch model, whose plans are made only half an hour ahead at
    /// first (up to the limit, when that comes sooner) and then twice as far each time; the last
    /// two plan by chance, whose staged plans keep every wake up to the last minute they sweep.
    @Test(
        arguments: ["commuter", "irregular", "shifting"],
        [
            (1, "profile", .sweep), (2, "hazard", .sweep), (3, "trees", .sweep), (4, "trees", .chance),
            (5, "hazard", .chanceWaiting),
        ] as [(UInt64, String, WakePlanning)])
    func stagesChangeNoWake(persona: String, run: (seed: UInt64, forecaster: String, planning: WakePlanning)) throws {
        let seed = run.seed
        // The trees with the profile for the apps they cannot read, as the hazard needs more days.
        let forecaster: any LaunchForecaster =
            run.forecaster == "trees"
            ? TreesForecaster(model: .prior, fallback: ProfileForecaster()) : Forecasters.named(run.forecaster)!
        let learnsHazard = forecaster.inputs.contains(.launchHazard)
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let log = SyntheticLog(
            // Long enough for the launch hazard to learn from 30 cold launches of the quietest persona.
            persona: Persona.named(persona)!, days: learnsHazard ? 24 : 14, timeZone: zone, seed: seed,
            fetchPeriodMinutes: 0)
        let launches = log.events().filter { $0.kind == .launch }
        var configuration = PredictorConfiguration()
        configuration.budget = 0.9
        configuration.planning = run.planning
        var staged = Predictor(configuration: configuration, forecaster: forecaster)
        staged.setTimeZone(zone, device: "phone")
        staged.defaultInterval = .minimum
        var whole = staged
        whole.planningStage = nil
        // Asked only for a wake before the next launch, as the backtest's replay asks.
        var limited = staged
        var random = SeededGenerator(seed: seed)
        var now = launches[0].time - 1
        var index = 0
        var answers = 0, farAnswers = 0
        while index < launches.count {
            let stagedWake = try staged.nextWake(after: Date(milliseconds: now), device: "phone")
            let wholeWake = try whole.nextWake(after: Date(milliseconds: now), device: "phone")
            let limit = launches[index].time
            let limitedWake = try limited.nextWake(
                after: Date(milliseconds: now), before: Date(milliseconds: limit), device: "phone")
            let expected = wholeWake.flatMap { $0.time.milliseconds < limit ? $0 : nil }
            #expect(stagedWake == wholeWake, "at \(TimestampFormatter.iso(now))")
            #expect(limitedWake == expected, "at \(TimestampFormatter.iso(now)), before the next launch")
            guard stagedWake == wholeWake, limitedWake == expected else { return }
            answers += 1
            if let wake = stagedWake, wake.time.milliseconds - now > 4 * 3_600_000 { farAnswers += 1 }
            if let wake = stagedWake, wake.time.milliseconds < launches[index].time {
                // Each carries out the wake it gave (the same one), so that its forecasts are learned.
                staged.commit(to: wake, device: "phone")
                if let wholeWake { whole.commit(to: wholeWake, device: "phone") }
                if let limitedWake { limited.commit(to: limitedWake, device: "phone") }
                now = wake.time.milliseconds
                for app in wake.apps {
                    let draw = random.unit()
                    let result: FetchResult = draw < 0.6 ? .newData : draw < 0.9 ? .noData : .failed
                    let fetch = Event(kind: .fetch, app: app.app, time: now, result: result, duration: 5)
                    try staged.observe(fetch, device: "phone")
                    try whole.observe(fetch, device: "phone")
                    try limited.observe(fetch, device: "phone")
                }
            } else {
                now = launches[index].time
                try staged.observe(launches[index], device: "phone")
                try whole.observe(launches[index], device: "phone")
                try limited.observe(launches[index], device: "phone")
                index += 1
            }
        }
        #expect(answers > 50)
        if learnsHazard { #expect(staged.devices["phone"]?.hazard.isTrained == true) }
        // Some answers lay beyond the first stage, where plans had to be made further ahead.
        #expect(farAnswers > 0)
    }
}
