import Foundation
import Testing

@testable import FetchPredictorCore

/// The learned forecaster's plans (the trees shipped with the package, planned by their own
/// chance) keep every rule the hazard's keep (issue 71, step 4): the interval, `never` and a
/// disabled app; one app once a wake; the push budget; no wake in Low Power Mode; an app's
/// constraints; a device's and an app's silence; and true reasons. Each check is the one the
/// hazard's plans are held to, on seeded personas.
struct LearnedPlanInvariantTests {
    static let learned = TreesForecaster(model: .prior)
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// A configuration that plans by chance, eager enough that every rule has wakes to hold back.
    static func byChance(budget: Double = 0.9) -> PredictorConfiguration {
        var configuration = PredictorConfiguration()
        configuration.planning = .chance
        configuration.budget = budget
        return configuration
    }

    /// The commuter's `days` from 2024-01-01 learned by the trees, and the instant of its last event.
    func commuter(days: Int = 21, _ configuration: PredictorConfiguration = byChance()) throws -> (Predictor, Date) {
        let predictor = try Learned.predictor(
            Persona.named("commuter")!, days: days, zone: zone, seed: 3, configuration: configuration,
            forecaster: Self.learned)
        return (predictor, Date(milliseconds: try #require(predictor.devices["phone"]?.lastEventTime)))
    }

    @Test(arguments: ["UTC", "Europe/Warsaw", "Asia/Kathmandu"], [1, 2, 3] as [UInt64])
    func intervalsNeverAndDisabledAreKept(zoneName: String, seed: UInt64) throws {
        try PlanningInvariantTests.checkIntervalsNeverAndDisabled(
            zoneName: zoneName, seed: seed, forecaster: Self.learned, planning: .chance)
    }

    /// No rolling hour holds more device wakes than the push budget, where the plan without it does.
    @Test func noHourHoldsMoreThanThePushBudget() throws {
        let (whole, last) = try commuter()
        var (budgeted, _) = try commuter()
        budgeted.setWakesPerHour(1, device: "phone")
        let from = last.addingTimeInterval(60), to = last.addingTimeInterval(2 * 86_400)
        let all = try whole.schedule(from: from, to: to, device: "phone").wakes
        let kept = try budgeted.schedule(from: from, to: to, device: "phone").wakes
        #expect(BudgetTests.busiestHour(all) > 1, "a budget that holds nothing back tests nothing")
        #expect(!kept.isEmpty && BudgetTests.busiestHour(kept) <= 1)
        let planned = Dictionary(uniqueKeysWithValues: all.map { ($0.time, $0.apps.map(\.app)) })
        for wake in kept { #expect(planned[wake.time] == wake.apps.map(\.app)) }
        #expect(try budgeted.nextWake(after: from, device: "phone") == kept.first)
    }

    /// While Low Power Mode is on no app is woken; when it ends, the wakes come back.
    @Test func noAppIsWokenInLowPowerMode() throws {
        var (saver, last) = try commuter()
        let on = last.addingTimeInterval(60)
        try saver.observe(.state(.lowPowerOn, at: on.milliseconds), device: "phone")
        let asked = on.addingTimeInterval(60)
        var (plain, _) = try commuter()
        #expect(try plain.nextWake(after: asked, device: "phone") != nil, "a plan with no wake tests nothing")
        #expect(try saver.nextWake(after: asked, device: "phone") == nil)
        #expect(try saver.schedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone").wakes.isEmpty)
        let off = on.addingTimeInterval(3 * 3600)
        try saver.observe(.state(.lowPowerOff, at: off.milliseconds), device: "phone")
        #expect(try saver.nextWake(after: off.addingTimeInterval(60), device: "phone") != nil)
    }

    /// An app that needs an unmetered network is woken only while the evenings and nights are on
    /// Wi-Fi (18:00 to 08:00).
    @Test func anAppThatNeedsWiFiIsWokenOnlyOnWiFi() throws {
        let setUp = ConstraintPlanningTests()
        let app = setUp.app
        func learned(_ constraints: AppConstraints) throws -> Predictor {
            try setUp.commuter(
                constraints: constraints, state: setUp.nights, configuration: Self.byChance(budget: 0.95),
                forecaster: Self.learned)
        }
        let from = Learned.instant(zone, 2024, 1, 29, 7, 30)
        func wakes(_ predictor: Predictor) throws -> [AppWake] {
            try predictor.schedule(from: from, to: from.addingTimeInterval(2 * 86_400), device: "phone").wakes
                .flatMap(\.apps).filter { $0.app == app }
        }
        let free = try wakes(learned(AppConstraints()))
        #expect(
            free.contains { (8 * 60..<22 * 60).contains(Learned.localMinute($0.plannedTime, zone)) },
            "the app is used in the day: a constraint that moves nothing tests nothing")
        let constrained = try wakes(learned(AppConstraints(requiresUnmetered: true)))
        #expect(!constrained.isEmpty)
        for wake in constrained {
            let minute = Learned.localMinute(wake.plannedTime, zone)
            #expect(minute >= 18 * 60 || minute < 8 * 60, "\(wake.plannedTime)")
            #expect(wake.reasons.contains { if case .requiredState = $0 { true } else { false } })
        }
    }

    /// A device unused for longer than the silence limit gets no wake, where one with no limit does.
    @Test func aSilentDeviceGetsNoWake() throws {
        var limited = Self.byChance()
        limited.silenceLimit = 14 * 86_400
        var unlimited = Self.byChance()
        unlimited.silenceLimit = nil
        var (silent, last) = try commuter(days: 28, limited)
        var (forever, _) = try commuter(days: 28, unlimited)
        let now = last.addingTimeInterval(30 * 86_400)
        #expect(try forever.nextWake(after: now, device: "phone") != nil, "no limit: the habits still wake it")
        #expect(try silent.nextWake(after: now, device: "phone") == nil)
        #expect(try silent.schedule(from: now, to: now.addingTimeInterval(86_400), device: "phone").silence != nil)
    }
}
