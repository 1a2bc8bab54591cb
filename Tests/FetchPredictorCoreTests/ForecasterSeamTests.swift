import Foundation
import Testing

@testable import FetchPredictorCore

/// The planner asks one thing of what the device learned: its forecaster's expected launches.
/// Swapped for one that gives every app the same chance, the plans change only through it, keep
/// every rule of the planner, and their reasons name it.
struct ForecasterSeamTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Three weeks of the commuter, every app on `minimum`, planned by `forecaster`.
    func commuter(_ forecaster: any LaunchForecaster, budget: Double = 0.9, planning: WakePlanning = .sweep) throws
        -> Predictor
    {
        var configuration = PredictorConfiguration()
        configuration.budget = budget
        configuration.planning = planning
        var predictor = try Learned.predictor(
            Persona.named("commuter")!, days: 21, zone: zone, seed: 4, configuration: configuration)
        predictor.forecaster = forecaster
        return predictor
    }

    var from: Date { Learned.instant(zone, 2024, 1, 22, 0, 0) }

    func schedule(_ predictor: Predictor, days: Double = 1) throws -> Schedule {
        try predictor.schedule(from: from, to: from.addingTimeInterval(days * 86_400), device: "phone")
    }

    /// Every app's wakes, by app.
    static func wakesByApp(_ schedule: Schedule) -> [String: [Date]] {
        Dictionary(grouping: schedule.wakes.flatMap(\.apps), by: \.app).mapValues { $0.map(\.plannedTime) }
    }

    /// The plan moves only with the forecaster's answers: a lower chance for one app changes
    /// that app's wakes alone; the hazard, reading the same history, plans otherwise.
    @Test func plansChangeOnlyThroughTheForecaster() throws {
        let fixed = try schedule(try commuter(FixedChanceForecaster(chance: 0.5)))
        let byApp = Self.wakesByApp(fixed)
        #expect(byApp.count >= 3, "\(byApp.keys.sorted())")
        #expect(fixed.coldStartApps.isEmpty)
        let app = try #require(byApp.keys.sorted().first)
        let lowered = Self.wakesByApp(
            try schedule(try commuter(FixedChanceForecaster(chance: 0.5, byApp: [app: 0.05]))))
        #expect((lowered[app]?.count ?? 0) < byApp[app]!.count)
        for (other, wakes) in byApp where other != app { #expect(lowered[other] == wakes, "\(other)") }
        let hazard = try schedule(try commuter(HazardForecaster()))
        #expect(Self.wakesByApp(hazard) != byApp)
        // The default is the hazard.
        #expect(Predictor().forecaster.name == "hazard")
        #expect(try schedule(try commuter(Predictor().forecaster)) == hazard)
    }

    /// A plan asks the forecaster once for every batch of apps (``Planner/forecastBatch``): the
    /// commuter's apps, fewer than a batch, in one.
    @Test func aPlanAsksForEveryAppAtOnce() throws {
        let forecaster = FixedChanceForecaster(chance: 0.3)
        let predictor = try commuter(forecaster)
        _ = try schedule(predictor)
        let batches = forecaster.asked.batches.withLock { $0 }
        #expect(predictor.apps(device: "phone").count <= Planner.forecastBatch)
        #expect(batches.count == 1)
        #expect(Set(batches.first ?? []) == Set(predictor.apps(device: "phone")))
    }

    /// Intervals, `never`, coalescing, the push budget, constraints, Low Power Mode and silence
    /// hold whatever the forecaster says, however its forecast is planned.
    @Test(arguments: WakePlanning.allCases)
    func everyRuleOfThePlannerHolds(planning: WakePlanning) throws {
        let forecaster = FixedChanceForecaster(chance: 0.6)
        var predictor = try commuter(forecaster, budget: 0.97, planning: planning)
        let apps = predictor.apps(device: "phone")
        try #require(apps.count >= 4)
        predictor.setPolicy(AppPolicy(interval: .never), app: apps[0], device: "phone")
        predictor.setPolicy(AppPolicy(interval: .seconds(3 * 3600)), app: apps[1], device: "phone")
        predictor.setPolicy(
            AppPolicy(interval: .minimum, constraints: AppConstraints(requiresPower: true)), app: apps[2],
            device: "phone")
        let plan = try schedule(predictor, days: 2)
        #expect(ScheduleInvariants.check(plan, predictor: predictor, predictor.configuration).isEmpty)
        let byApp = Self.wakesByApp(plan)
        #expect(byApp[apps[0]] == nil)
        #expect((byApp[apps[1]]?.count ?? 0) >= 2, "an interval that holds nothing back tests nothing")
        #expect((byApp[apps[3]]?.count ?? 0) > (byApp[apps[1]]?.count ?? 0))
        // No device ever told its state: the constrained app is planned as if it asked nothing.
        #expect(byApp[apps[2]] == byApp[apps[3]])
        for wake in plan.wakes {
            for app in wake.apps {
                let moved = app.plannedTime.timeIntervalSince(wake.time)
                #expect(moved >= 0 && moved <= predictor.configuration.coalescingWindow)
            }
        }
        #expect(BudgetTests.busiestHour(plan.wakes) > 1)
        // The next wake is the schedule's first.
        var asking = predictor
        #expect(try asking.nextWake(after: from, device: "phone") == plan.wakes.first)

        var budgeted = predictor
        budgeted.setWakesPerHour(1, device: "phone")
        #expect(BudgetTests.busiestHour(try schedule(budgeted, days: 2).wakes) <= 1)

        var saving = predictor
        try saving.observe(.state(.lowPowerOn, at: from.milliseconds - 60_000), device: "phone")
        #expect(try schedule(saving).wakes.isEmpty)
        #expect(try saving.nextWake(after: from, device: "phone") == nil)

        let silent = from.addingTimeInterval(20 * 86_400)
        let later = try predictor.schedule(from: silent, to: silent.addingTimeInterval(86_400), device: "phone")
        #expect(later.silence != nil && later.wakes.isEmpty)
    }

    /// A state the device told stands for the next half hour: off power now, the app that needs
    /// power gets no wake then, whatever the forecaster says.
    @Test func aConstraintHoldsWhateverTheForecasterSays() throws {
        var predictor = try commuter(FixedChanceForecaster(chance: 0.6))
        let app = try #require(predictor.apps(device: "phone").first)
        predictor.setPolicy(
            AppPolicy(interval: .minimum, constraints: AppConstraints(requiresPower: true)), app: app, device: "phone")
        var free = predictor
        free.setPolicy(AppPolicy(interval: .minimum), app: app, device: "phone")
        try predictor.observe(.state(.powerDisconnected, at: from.milliseconds - 60_000), device: "phone")
        try free.observe(.state(.powerDisconnected, at: from.milliseconds - 60_000), device: "phone")
        let halfHour = from.addingTimeInterval(Double(Planner.currentStateMinutes) * 60)
        func early(_ predictor: Predictor) throws -> [AppWake] {
            try schedule(predictor).wakes.flatMap(\.apps).filter { $0.app == app && $0.plannedTime < halfHour }
        }
        #expect(!(try early(free)).isEmpty, "a constraint that moves nothing tests nothing")
        #expect(try early(predictor).isEmpty)
    }

    /// Each wake's reasons name the forecaster and its chance, and nothing of the parts the
    /// built-in forecasters name; moved to share a device wake, it keeps no chance of another window.
    @Test func theReasonsNameTheForecaster() throws {
        let plan = try schedule(try commuter(FixedChanceForecaster(chance: 0.5)))
        let wakes = plan.wakes.flatMap(\.apps)
        try #require(!wakes.isEmpty)
        for wake in wakes {
            let moved = wake.reasons.contains { if case .movedEarlier = $0 { true } else { false } }
            let named = wake.reasons.contains(.forecast(forecaster: "fixed", chance: 0.5))
            #expect(named != moved, "\(wake.reasons)")
            for reason in wake.reasons {
                switch reason {
                case .usualTime, .returning, .launchModel: Issue.record("\(reason) in \(wake.reasons)")
                default: break
                }
            }
        }
        #expect(
            WakeReason.forecast(forecaster: "fixed", chance: 0.5).description
                == "the fixed forecaster gives a 50% chance of a cold launch in the window")
    }
}
