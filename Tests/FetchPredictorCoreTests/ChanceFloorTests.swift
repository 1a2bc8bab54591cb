import Foundation
import Synchronization
import Testing

@testable import FetchPredictorCore

/// The chance planner weighs no minute of an app whose chances all stay below its floor
/// (``ForecastRequest/chanceFloor``): the plans are those made without a floor, at every
/// threshold, and the floor is met.
struct ChanceFloorTests {
    /// The trees, asked with no floor: every plan weighs its minutes, as before the floor.
    struct WithoutFloor: LaunchForecaster {
        let trees = TreesForecaster(model: .prior)
        var name: String { trees.name }
        var inputs: ForecastInputs { trees.inputs }
        var firstStageMinutes: Int? { trees.firstStageMinutes }
        func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
            trees.forecast(
                requests.map { request in
                    var request = request
                    request.chanceFloor = nil
                    return request
                })
        }
    }

    /// The trees, counting the forecasts asked and those that stayed below their floor.
    final class Counting: LaunchForecaster {
        let trees = TreesForecaster(model: .prior)
        let counts = Mutex((asked: 0, below: 0))
        var name: String { trees.name }
        var inputs: ForecastInputs { trees.inputs }
        var firstStageMinutes: Int? { trees.firstStageMinutes }
        func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
            let forecasts = trees.forecast(requests)
            counts.withLock { $0 = ($0.asked + forecasts.count, $0.below + forecasts.filter(\.staysBelowFloor).count) }
            return forecasts
        }
    }

    /// A persona's launches with unlocks and notifications, as LaunchModelPlanningTests makes them.
    static func events(_ persona: Persona, seed: UInt64) -> [Event] {
        let log = SyntheticLog(
            persona: persona, start: DateFields(year: 2024, month: 1, day: 1), days: 10,
            timeZone: LaunchModelPlanningTests.zone, seed: seed, fetchPeriodMinutes: 0)
        var events: [Event] = []
        for (index, launch) in log.events().filter({ $0.kind == .launch }).enumerated() {
            if index % 4 == 0 { events.append(Event(kind: .unlock, app: "", time: launch.time - 20_000)) }
            events.append(launch)
        }
        return events
    }

    static func predictor(_ forecaster: any LaunchForecaster, budget: Double) -> Predictor {
        var configuration = PredictorConfiguration()
        configuration.planning = .chance
        configuration.budget = budget
        var predictor = Predictor(configuration: configuration, forecaster: forecaster)
        predictor.defaultInterval = .minimum
        predictor.setTimeZone(LaunchModelPlanningTests.zone, device: "phone")
        return predictor
    }

    @Test(arguments: [0.8, 0.9, 0.97])
    func plansAreThoseWithEveryRowRead(budget: Double) throws {
        let counting = Counting()
        var wakes = 0
        for (persona, seed) in [(Persona.commuter, UInt64(2)), (.shifting, 7)] {
            let events = Self.events(persona, seed: seed)
            var skipping = Self.predictor(counting, budget: budget)
            var reading = Self.predictor(WithoutFloor(), budget: budget)
            let lastDays = events.last!.time - 2 * 86_400_000
            for event in events {
                try skipping.observe(event, device: "phone")
                try reading.observe(event, device: "phone")
                guard event.time >= lastDays else { continue }
                let after = Date(milliseconds: event.time + 1)
                let skipped = try skipping.nextWake(after: after, device: "phone")
                #expect(skipped == (try reading.nextWake(after: after, device: "phone")), "\(persona) \(after)")
                if skipped != nil { wakes += 1 }
            }
            let end = Date(milliseconds: events.last!.time + 1)
            let day = end.addingTimeInterval(86_400)
            #expect(
                try skipping.schedule(from: end, to: day, device: "phone")
                    == (try reading.schedule(from: end, to: day, device: "phone")))
        }
        let (asked, below) = counting.counts.withLock { $0 }
        // The skip happens, and the wakes compared are not all none.
        #expect(below > asked / 10, "\(below) of \(asked) forecasts stayed below")
        #expect(wakes >= 10)
    }
}
