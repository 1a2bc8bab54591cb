import Foundation
import Testing

@testable import FetchPredictorCore

/// The wake a device waits for (``Predictor/plannedWake(asOf:device:)``) is the plan in force:
/// the same whenever it is asked until it holds no more, the one `nextWake` gives at an event's
/// time, the first of the planned schedule, and within a push budget from wake to wake.
struct PlannedWakeTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func predictor(budget: Int? = nil) throws -> Predictor {
        var predictor = try Learned.predictor(Persona.named("commuter")!, days: 21, zone: zone, seed: 11)
        predictor.setWakesPerHour(budget, device: "phone")
        return predictor
    }

    /// The instants a day and a half after the log's last event, every 37 minutes.
    func instants(_ predictor: Predictor) throws -> [Date] {
        let last = try #require(predictor.devices["phone"]?.lastEventTime)
        return (0..<58).map { Date(milliseconds: last + Milliseconds($0) * 37 * 60_000 + 1) }
    }

    @Test func theWakeHoldsFromWhenItWasPlannedUntilItComes() throws {
        var predictor = try predictor()
        var checked = 0
        for time in try instants(predictor) {
            let planned = try predictor.plannedWake(asOf: time, device: "phone")
            #expect(planned.holds(at: time))
            let wake = try #require(planned.wake, "commuter plans a wake within the day at \(time)")
            #expect(wake.time > time)
            // Asked anywhere it holds, the answer is the same wake.
            let span = planned.validUntil.timeIntervalSince(planned.plannedAt)
            for fraction in [0.0, 0.4, 0.999] {
                let other = planned.plannedAt.addingTimeInterval(span * fraction)
                #expect(try predictor.plannedWake(asOf: other, device: "phone").wake == wake, "at \(other)")
                checked += 1
            }
            // Where it holds no more because the wake came, another wake is due; at a daily
            // re-plan before it, the plan made then, which assumes the same quiet since the last
            // event, may rightly find the same wake.
            let after = try predictor.plannedWake(asOf: planned.validUntil, device: "phone")
            if planned.validUntil == wake.time { #expect(after.wake != wake) }
            #expect(after.wake.map { $0.time > planned.validUntil } ?? true)
        }
        #expect(checked > 100)
    }

    @Test func atAnEventItIsTheNextWakeAndTheScheduleStartsWithIt() throws {
        var predictor = try predictor()
        let last = try #require(predictor.devices["phone"]?.lastEventTime)
        let atEvent = Date(milliseconds: last)
        let planned = try predictor.plannedWake(asOf: atEvent, device: "phone")
        // It holds from the millisecond after the event: as of the event's own instant, the
        // event is not known yet.
        #expect(planned.plannedAt == Date(milliseconds: last + 1))
        #expect(!planned.holds(at: atEvent) && planned.holds(at: Date(milliseconds: last + 1)))
        #expect(planned.wake == (try predictor.nextWake(after: atEvent, device: "phone")))
        for time in try instants(predictor) {
            let wake = try predictor.plannedWake(asOf: time, device: "phone").wake
            let schedule = try predictor.plannedSchedule(
                from: time, to: time.addingTimeInterval(86_400), device: "phone")
            #expect(schedule.wakes.first == wake, "at \(time)")
            #expect(schedule.wakes.allSatisfy { $0.time > time })
        }
    }

    /// A scheduler that carries each wake out and asks again at its time never spends more than
    /// the budget in an hour of the plan (the day until the next re-plan).
    @Test(arguments: [1, 2])
    func followingTheWakesKeepsTheBudget(perHour: Int) throws {
        var predictor = try predictor(budget: perHour)
        let last = try #require(predictor.devices["phone"]?.lastEventTime)
        var time = Date(milliseconds: last)
        var wakes: [DeviceWake] = []
        while let wake = try predictor.plannedWake(asOf: time, device: "phone").wake,
            wake.time.milliseconds < last + 86_400_000
        {
            wakes.append(wake)
            time = wake.time
        }
        #expect(wakes.count >= 5)
        #expect(BudgetTests.busiestHour(wakes) <= perHour)
    }

    /// A push service's loop: each wake carried out, its fetches recorded, the device asked again
    /// at once. The fetches make a new plan each time, and the wakes carried out just before it
    /// count against its first hour: no rolling hour of what was carried out breaks the budget.
    @Test(arguments: [1, 2])
    func theWakesCarriedOutKeepTheBudget(perHour: Int) throws {
        var predictor = try predictor(budget: perHour)
        var time = Date(milliseconds: try #require(predictor.devices["phone"]?.lastEventTime))
        var carried: [DeviceWake] = []
        while carried.count < 30, let wake = try predictor.plannedWake(asOf: time, device: "phone").wake {
            carried.append(wake)
            for app in wake.apps {
                try predictor.observe(
                    Event(kind: .fetch, app: app.app, time: wake.time.milliseconds, result: .newData, duration: 2),
                    device: "phone")
            }
            time = wake.time
        }
        #expect(carried.count >= 10)
        #expect(BudgetTests.busiestHour(carried) <= perHour)
    }

    /// A week after the last event the plan is a daily re-plan, made a whole number of days after
    /// that event: the work of an answer never grows with the time since.
    @Test func longAfterTheLastEventThePlanIsTheDaysOwn() throws {
        var configuration = PredictorConfiguration()
        configuration.silenceLimit = nil
        var predictor = try Learned.predictor(
            Persona.named("commuter")!, days: 21, zone: zone, seed: 11, configuration: configuration)
        let last = try #require(predictor.devices["phone"]?.lastEventTime)
        let time = Date(milliseconds: last + 7 * 86_400_000 + 3_600_000)
        let planned = try predictor.plannedWake(asOf: time, device: "phone")
        #expect(planned.holds(at: time))
        #expect(planned.plannedAt.milliseconds >= last + 7 * 86_400_000)
        #expect(planned.validUntil.milliseconds <= last + 8 * 86_400_000)
        #expect(planned.wake != nil)
    }
}
