import Foundation
import Testing

@testable import FetchPredictorCore

/// The plan in force is made once and searched until a change (issue 57): every answer from the
/// kept plan is the answer of a predictor that keeps none, through each kind of change.
struct KeptPlanTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func commuter() throws -> Predictor {
        var predictor = Predictor()
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        let log = SyntheticLog(
            persona: Persona.named("commuter")!, start: DateFields(year: 2024, month: 1, day: 1), days: 21,
            timeZone: zone, seed: 2, fetchPeriodMinutes: 0)
        for event in log.events() { try predictor.observe(event, device: "phone") }
        return predictor
    }

    /// The wake and the day's schedule asked every 20 minutes through a day, of `predictor`
    /// (which keeps its plan between the questions) and of a copy that keeps none at each.
    func answers(_ predictor: inout Predictor, from start: Date) throws -> (kept: [String], fresh: [String]) {
        var kept: [String] = [], fresh: [String] = []
        for step in 0..<72 {
            let time = start.addingTimeInterval(Double(step) * 1200)
            var plain = predictor
            plain.plansInForce.removeAll()
            kept.append(try Self.describe(&predictor, at: time))
            fresh.append(try Self.describe(&plain, at: time))
        }
        return (kept, fresh)
    }

    static func describe(_ predictor: inout Predictor, at time: Date) throws -> String {
        let wake = try predictor.plannedWake(asOf: time, device: "phone")
        let end = time.addingTimeInterval(86_400)
        try predictor.keepPlan(asOf: time, to: end, device: "phone")
        let schedule = try predictor.plannedSchedule(from: time, to: end, device: "phone")
        return "\(wake.wake.map { String(describing: $0) } ?? "none") \(schedule.wakes) \(schedule.coldStartApps)"
    }

    /// The wake answered is kept beside the schedule, in one place, and both go with any change
    /// that may move the plan: asked again while it holds, it is the answer.
    @Test func theWakeAnsweredIsKeptWithThePlanAndDroppedWithIt() throws {
        var predictor = try commuter()
        let time = Learned.instant(zone, 2024, 1, 23, 6, 0)
        let answer = try predictor.plannedWake(asOf: time, device: "phone")
        #expect(predictor.plansInForce["phone"]?.wake?.answer == answer)
        let wake = try #require(answer.wake)
        // Asked again before the wake: the kept answer, which a fresh predictor gives too
        let later = time.addingTimeInterval(wake.time.timeIntervalSince(time) / 2)
        var fresh = predictor
        fresh.plansInForce.removeAll()
        #expect(try predictor.plannedWake(asOf: later, device: "phone") == answer)
        #expect(try fresh.plannedWake(asOf: later, device: "phone") == answer)
        // Each change drops it with the schedule
        let app = try #require(predictor.apps(device: "phone").first)
        let changes: [(inout Predictor) throws -> Void] = [
            { try $0.observe(Event(kind: .launch, app: app, time: time.milliseconds + 1), device: "phone") },
            { $0.setPolicy(AppPolicy(interval: .never), app: app, device: "phone") },
            { $0.setWakesPerHour(1, device: "phone") },
            { $0.defaultInterval = .never },
            { $0.setTimeZone(TimeZone(identifier: "Asia/Tokyo")!, device: "phone") },
        ]
        // As of a time before the last event, the plan is made at the time asked: an answer is
        // never reused for a later time, which plans from itself (or from the event).
        var early = predictor
        let last = try #require(predictor.devices["phone"]?.lastPlanningTime)
        let before = Date(milliseconds: last - 3 * 3_600_000)
        _ = try early.plannedWake(asOf: before, device: "phone")
        for minutes in [30.0, 90, 179, 181] {
            let asked = before.addingTimeInterval(minutes * 60)
            var plain = early
            plain.plansInForce.removeAll()
            #expect(
                try early.plannedWake(asOf: asked, device: "phone") == plain.plannedWake(asOf: asked, device: "phone"))
        }
        for (index, change) in changes.enumerated() {
            var changed = predictor
            _ = try changed.plannedWake(asOf: later, device: "phone")
            try change(&changed)
            #expect(changed.plansInForce["phone"] == nil, "change \(index)")
        }
    }

    @Test func theKeptPlanAnswersAsAFreshOneThroughEveryChange() throws {
        var predictor = try commuter()
        // After the log's last event (the 22nd, 22:00), where the plan in force was made at it.
        let start = Learned.instant(zone, 2024, 1, 23, 6, 0)
        var (kept, fresh) = try answers(&predictor, from: start)
        let last = try #require(predictor.devices["phone"]?.lastPlanningTime)
        // Kept at the last event, or at a daily re-plan after it.
        let plannedAt = try #require(predictor.plansInForce["phone"]?.schedule?.plannedAt)
        #expect(last < start.milliseconds && plannedAt >= last && (plannedAt - last) % 86_400_000 == 0)
        #expect(kept == fresh)
        let changes: [(String, (inout Predictor) throws -> Void)] = [
            // At the instant of the last event: the plan is made at the same instant, and must
            // be made again all the same.
            (
                "launches at the last event's instant",
                { predictor in
                    let last = predictor.devices["phone"]!.lastPlanningTime!
                    for app in predictor.apps(device: "phone") {
                        try predictor.observe(.launch(app, at: last), device: "phone")
                    }
                }
            ),
            (
                "a launch",
                { try $0.observe(.launch("com.example.news", at: start.milliseconds + 60_000), device: "phone") }
            ),
            (
                "a policy",
                { $0.setPolicy(AppPolicy(interval: .seconds(7200)), app: "com.example.news", device: "phone") }
            ),
            ("a budget", { $0.setWakesPerHour(1, device: "phone") }),
            ("the default interval", { $0.defaultInterval = .seconds(5400) }),
            (
                "a power event",
                { try $0.observe(.state(.powerConnected, at: start.milliseconds + 120_000), device: "phone") }
            ),
        ]
        for (name, change) in changes {
            // The plan in force at the first question kept, then the change.
            _ = try Self.describe(&predictor, at: start.addingTimeInterval(300))
            try change(&predictor)
            (kept, fresh) = try answers(&predictor, from: start.addingTimeInterval(300))
            #expect(kept == fresh, "after \(name)")
        }
    }
}
