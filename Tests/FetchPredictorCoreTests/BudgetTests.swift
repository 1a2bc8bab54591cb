import Foundation
import Testing

@testable import FetchPredictorCore

/// A push budget (`wakesPerHour`): no rolling hour of a device's plan holds more device wakes;
/// the wakes kept are those worth the most expected launches, and a wake after wakes held back
/// says so. Without a budget, plans are as before.
struct BudgetTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func predictor(budget: Int?) throws -> Predictor {
        var configuration = PredictorConfiguration()
        configuration.budget = 0.97  // eager: many wakes, so that a budget has work to do
        var predictor = try Learned.predictor(
            Persona.named("commuter")!, days: 21, zone: zone, seed: 3, configuration: configuration)
        predictor.setWakesPerHour(budget, device: "phone")
        return predictor
    }

    static func value(_ wake: DeviceWake) -> Double { wake.apps.reduce(0) { $0 + $1.expectedLaunches } }

    /// The most wakes of any rolling hour: each hour starting at a wake.
    static func busiestHour(_ wakes: [DeviceWake]) -> Int {
        wakes.map { start in
            wakes.filter { $0.time >= start.time && $0.time < start.time.addingTimeInterval(3600) }.count
        }.max() ?? 0
    }

    @Test(arguments: [1, 2, 3])
    func noHourHoldsMoreThanTheBudgetAndTheBestWakesAreKept(perHour: Int) throws {
        let from = Learned.instant(zone, 2024, 1, 22, 0, 0)
        let to = from.addingTimeInterval(3 * 86_400)
        let whole = try predictor(budget: nil).schedule(from: from, to: to, device: "phone").wakes
        let budgeted = try predictor(budget: perHour).schedule(from: from, to: to, device: "phone").wakes
        #expect(Self.busiestHour(whole) > perHour, "a budget that holds nothing back tests nothing")
        #expect(Self.busiestHour(budgeted) <= perHour)
        // The wakes kept are wakes of the plan, at their times with their apps.
        let planned = Dictionary(uniqueKeysWithValues: whole.map { ($0.time, $0.apps.map(\.app)) })
        for wake in budgeted { #expect(planned[wake.time] == wake.apps.map(\.app)) }
        // Each wake held back lies in an hour that already held as many kept wakes as the budget,
        // each worth at least as much: the wakes kept are where the expected launches are.
        let keptTimes = Set(budgeted.map(\.time))
        for held in whole where !keptTimes.contains(held.time) {
            let starts = budgeted.map(\.time).filter { $0 <= held.time && $0 > held.time.addingTimeInterval(-3600) }
            let full = (starts + [held.time]).contains { start in
                budgeted.filter {
                    $0.time >= start && $0.time < start.addingTimeInterval(3600) && Self.value($0) >= Self.value(held)
                }.count >= perHour
            }
            #expect(full, "held back at \(held.time) with no hour full of better wakes")
        }
        // The first wake kept after some held back says how many.
        var heldBack = 0
        var said = 0
        for wake in whole {
            if !keptTimes.contains(wake.time) {
                heldBack += 1
                continue
            }
            let kept = budgeted.first { $0.time == wake.time }!
            let reasons = kept.apps.flatMap(\.reasons).compactMap { reason -> Int? in
                if case .budget(perHour, let count) = reason { count } else { nil }
            }
            #expect(reasons.allSatisfy { $0 == heldBack } && (heldBack == 0) == reasons.isEmpty)
            if heldBack > 0 { said += 1 }
            heldBack = 0
        }
        #expect(said > 0)
    }

    /// The next wake of a budgeted device is the first of its budgeted plan; with no budget,
    /// every answer is as before.
    @Test func theNextWakeKeepsTheBudgetAndNoBudgetChangesNothing() throws {
        var budgeted = try predictor(budget: 1)
        var plain = try predictor(budget: nil)
        var unset = try predictor(budget: 2)
        unset.setWakesPerHour(nil, device: "phone")
        for hour in stride(from: 0, to: 48, by: 5) {
            let now = Learned.instant(zone, 2024, 1, 22, 0, 0).addingTimeInterval(Double(hour) * 3600)
            let first = try budgeted.schedule(from: now, to: now.addingTimeInterval(86_400), device: "phone").wakes
                .first
            #expect(try budgeted.nextWake(after: now, device: "phone") == first)
            #expect(try unset.nextWake(after: now, device: "phone") == plain.nextWake(after: now, device: "phone"))
        }
    }
}
