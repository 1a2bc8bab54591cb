import Foundation
import Testing

@testable import FetchPredictorCore

/// An app that asks for a state of the device (power, an unmetered network, a battery not low) is
/// woken where the device is likely in it, never where it is known not to be, and its reasons say
/// what it counts on; a device that never told its state plans as if the app asked nothing.
struct ConstraintPlanningTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    let app = "com.example.podcasts"

    /// The commuter's 28 days from 2024-01-01, every app on `minimum`, with `state` events
    /// (each day's, to the 29th) merged in time order, and `constraints` on the podcasts app;
    /// learned by `forecaster`, planned with `configuration`.
    func commuter(
        constraints: AppConstraints, state: (Int) -> [Event] = { _ in [] },
        configuration: PredictorConfiguration = PredictorConfiguration(),
        forecaster: any LaunchForecaster = HazardForecaster()
    ) throws -> Predictor {
        var predictor = Predictor(configuration: configuration, forecaster: forecaster)
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        predictor.setPolicy(AppPolicy(interval: .minimum, constraints: constraints), app: app, device: "phone")
        let log = SyntheticLog(
            persona: Persona.named("commuter")!, start: DateFields(year: 2024, month: 1, day: 1), days: 28,
            timeZone: zone, seed: 1, fetchPeriodMinutes: 0)
        let events = (log.events() + (1...29).flatMap(state)).sorted { $0.time < $1.time }
        for event in events { try predictor.observe(event, device: "phone") }
        return predictor
    }

    /// On power from 23:00 to 07:00 local every night; Wi-Fi from 18:00 to 08:00; on the 29th,
    /// the morning's unplugging only.
    func nights(_ day: Int) -> [Event] {
        let at = { (hour: Int) in Learned.instant(zone, 2024, 1, day, hour).milliseconds }
        if day == 29 { return [.state(.powerDisconnected, at: at(7))] }
        return [
            .state(.powerDisconnected, at: at(7)), .network(.metered, at: at(8)), .network(.unmetered, at: at(18)),
            .state(.powerConnected, at: at(23)),
        ]
    }

    func wakes(_ predictor: Predictor, of app: String, from: Date) throws -> [AppWake] {
        try predictor.schedule(from: from, to: from.addingTimeInterval(2 * 86_400), device: "phone").wakes
            .flatMap(\.apps).filter { $0.app == app }
    }

    @Test func anAppThatNeedsPowerIsWokenOnlyWhileTheNightsCharge() throws {
        let needs = AppConstraints(requiresPower: true)
        let free = try commuter(constraints: AppConstraints(), state: nights)
        let constrained = try commuter(constraints: needs, state: nights)
        let from = Learned.instant(zone, 2024, 1, 29, 7, 30)
        let unconstrained = try wakes(free, of: app, from: from)
        #expect(
            unconstrained.contains { (8 * 60..<22 * 60).contains(Learned.localMinute($0.plannedTime, zone)) },
            "the app is used in the day: a constraint that moves nothing tests nothing")
        let planned = try wakes(constrained, of: app, from: from)
        #expect(!planned.isEmpty)
        for wake in planned {
            let minute = Learned.localMinute(wake.plannedTime, zone)
            #expect(minute >= 23 * 60 || minute < 7 * 60, "\(wake.plannedTime)")
            let counted = wake.reasons.compactMap { reason -> Double? in
                if case .requiredState(let power, nil, nil) = reason { return power }
                return nil
            }
            #expect(counted.count == 1 && counted[0] >= Planner.leastConstraintChance, "\(wake.reasons)")
        }
        // The reason reads as a sentence with its chance.
        #expect(
            WakeReason.requiredState(onPower: 0.82, unmetered: nil, batteryNotLow: nil).description
                == "counts on the device being on power (82% likely then)")
    }

    /// The state the last events left stands for the next half hour: on a metered network since
    /// minutes ago, an app that needs an unmetered one gets no wake then, even where the evenings
    /// are usually on Wi-Fi.
    @Test func theKnownStateStandsForTheNextHalfHour() throws {
        let needs = AppConstraints(requiresUnmetered: true)
        var predictor = try commuter(constraints: needs, state: nights)
        let now = Learned.instant(zone, 2024, 1, 28, 19, 0)
        try predictor.observe(.network(.metered, at: now.milliseconds - 5 * 60_000), device: "phone")
        let planned = try wakes(predictor, of: app, from: now)
        #expect(!planned.contains { $0.plannedTime < now.addingTimeInterval(Double(Planner.currentStateMinutes) * 60) })
        // A battery at 12% not charging holds a wake that needs a battery not low likewise.
        var low = try commuter(constraints: AppConstraints(requiresBatteryNotLow: true), state: nights)
        try low.observe(.battery(12, at: now.milliseconds - 60_000), device: "phone")
        let held = try wakes(low, of: app, from: now)
        #expect(!held.contains { $0.plannedTime < now.addingTimeInterval(Double(Planner.currentStateMinutes) * 60) })
    }

    /// A battery low and not charging makes every app's wake in the next half hour costlier: the
    /// wakes of the first half hour are fewer or say what they were weighed against; charging, or
    /// a level of 20% or more, plans as before.
    @Test func aLowBatteryMakesTheNextHalfHoursWakesCostlier() throws {
        let base = try commuter(constraints: AppConstraints())
        var plainCount = 0
        var lowCount = 0
        // Each half hour of a weekday from 06:00, as if the battery had just been read.
        for step in 0..<36 {
            let from = Learned.instant(zone, 2024, 1, 29, 6, 0).addingTimeInterval(Double(step) * 1800)
            let halfHour = from.addingTimeInterval(Double(Planner.currentStateMinutes) * 60)
            func firstHalfHour(_ events: [Event]) throws -> [AppWake] {
                var predictor = base
                for event in events { try predictor.observe(event, device: "phone") }
                return try predictor.schedule(from: from, to: from.addingTimeInterval(86_400), device: "phone").wakes
                    .flatMap(\.apps).filter { $0.plannedTime < halfHour }
            }
            let at = from.milliseconds - 60_000
            let plain = try firstHalfHour([])
            let low = try firstHalfHour([.battery(14, at: at), .state(.powerDisconnected, at: at)])
            #expect(low.count <= plain.count, "\(from): \(low.map(\.app)) against \(plain.map(\.app))")
            #expect(low.allSatisfy { $0.reasons.contains(.lowBattery(percent: 14)) }, "\(from)")
            plainCount += plain.count
            lowCount += low.count
            // Charging, or not low: the wakes of a device that never told its battery.
            let charging = try firstHalfHour([.battery(14, at: at), .state(.powerConnected, at: at)])
            #expect(charging.map(\.plannedTime) == plain.map(\.plannedTime), "\(from)")
            let notLow = try firstHalfHour([.battery(20, at: at), .state(.powerDisconnected, at: at)])
            #expect(notLow.map(\.plannedTime) == plain.map(\.plannedTime), "\(from)")
        }
        #expect(lowCount < plainCount, "the low battery held back no wake: \(lowCount) of \(plainCount)")
        #expect(
            WakeReason.lowBattery(percent: 14).description
                == "the battery was at 14% and not charging: the wake counted at half its worth")
    }

    /// The state the last events left stands as long as no event moves it: a plan that counted
    /// on the state is made again when asked past its first half hour, from the state then.
    @Test func aPlanCountingOnTheStateIsMadeAgainPastItsHalfHour() throws {
        let needs = AppConstraints(requiresUnmetered: true)
        var predictor = try commuter(constraints: needs, state: { $0 == 29 ? [] : self.nights($0) })
        // The home Wi-Fi drops at 06:20 on a Monday; the nights are on Wi-Fi until 08:00.
        let dropped = Learned.instant(zone, 2024, 1, 29, 6, 20)
        try predictor.observe(.network(.metered, at: dropped.milliseconds), device: "phone")
        func podcastWakes(after start: Date, before end: Date) throws -> [Date] {
            var times: [Date] = []
            var after = start
            while let wake = try predictor.nextWake(after: after, device: "phone"), wake.time < end {
                if wake.apps.contains(where: { $0.app == app }) { times.append(wake.time) }
                after = wake.time
            }
            return times
        }
        // Asked then, the morning is likely on Wi-Fi again by 07:00: the app's wake is after it.
        let seven = Learned.instant(zone, 2024, 1, 29, 7, 0)
        let planned = try podcastWakes(after: dropped, before: Learned.instant(zone, 2024, 1, 29, 7, 35))
        #expect(planned.contains { $0 >= seven }, "a plan with no wake past the half hour tests nothing: \(planned)")
        // Asked at 07:00 with no event since, the network is still metered: no wake for the next
        // half hour.
        let halfHour = seven.addingTimeInterval(Double(Planner.currentStateMinutes) * 60)
        #expect(try podcastWakes(after: seven, before: halfHour).isEmpty)
    }

    /// A state event alone makes the plan in force (issue 56): the charge that begins in the
    /// afternoon of a day of no launch gives the app that needs power its wake then, as the plan
    /// made at that event has it; and a low battery read alone weighs the next half hour's wakes.
    @Test func aStateEventAloneMakesThePlanInForce() throws {
        let from = Learned.instant(zone, 2024, 1, 29, 8, 0)
        let daytime = try wakes(try commuter(constraints: AppConstraints(), state: nights), of: app, from: from)
            .map(\.plannedTime).filter { (9 * 60..<21 * 60).contains(Learned.localMinute($0, zone)) }
        let used = try #require(
            daytime.first, "the app is used in the day: a constraint that moves nothing tests nothing")
        var predictor = try commuter(constraints: AppConstraints(requiresPower: true), state: nights)
        let charged = used.addingTimeInterval(-15 * 60)
        let before = try predictor.plannedSchedule(from: charged, to: charged.addingTimeInterval(1800), device: "phone")
        #expect(
            !before.wakes.flatMap(\.apps).contains { $0.app == app }, "off power all day: no wake before the charge")
        try predictor.observe(.state(.powerConnected, at: charged.milliseconds), device: "phone")
        let asked = charged.addingTimeInterval(60)
        let inForce = try predictor.plannedSchedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone")
        #expect(
            inForce.wakes.contains { wake in
                wake.time < charged.addingTimeInterval(Double(Planner.currentStateMinutes) * 60)
                    && wake.apps.contains { $0.app == app }
            }, "\(inForce.wakes.map(\.time))")
        // It is the plan made at the event, as after a launch: the next wake asked a minute later
        // is the schedule's first.
        #expect(try predictor.plannedWake(asOf: asked, device: "phone").wake == inForce.wakes.first)
        #expect(
            inForce.wakes
                == (try predictor.schedule(from: charged, to: asked.addingTimeInterval(86_400), device: "phone")).wakes
                .filter { $0.time > asked })

        // A battery at 14% read alone, off power: the next half hour's wakes say what they were
        // weighed against, at some reading of the day (at others no wake is near).
        let base = try commuter(constraints: AppConstraints())
        var weighedWakes = 0
        for step in 0..<24 {
            var low = base
            let read = Learned.instant(zone, 2024, 1, 29, 8, 0).addingTimeInterval(Double(step) * 1800)
            try low.observe(.state(.powerDisconnected, at: read.milliseconds - 60_000), device: "phone")
            try low.observe(.battery(14, at: read.milliseconds), device: "phone")
            let weighed = try low.plannedSchedule(
                from: read.addingTimeInterval(60), to: read.addingTimeInterval(1800), device: "phone"
            ).wakes.flatMap(\.apps)
            #expect(weighed.allSatisfy { $0.reasons.contains(.lowBattery(percent: 14)) }, "\(read): \(weighed)")
            weighedWakes += weighed.count
        }
        #expect(weighedWakes > 0, "no wake near any reading: the battery weighed nothing")
    }

    /// A device that never told its state plans a constrained app's wakes where it would plan
    /// them unconstrained, and says it cannot know.
    @Test func noStateToldPlansAsWithoutConstraints() throws {
        let constrained = try commuter(constraints: AppConstraints(requiresPower: true, requiresUnmetered: true))
        let free = try commuter(constraints: AppConstraints())
        let from = Learned.instant(zone, 2024, 1, 29, 6, 0)
        let planned = try wakes(constrained, of: app, from: from)
        #expect(!planned.isEmpty)
        #expect(planned.map(\.plannedTime) == (try wakes(free, of: app, from: from)).map(\.plannedTime))
        #expect(
            planned.allSatisfy {
                $0.reasons.contains(.requiredState(onPower: nil, unmetered: nil, batteryNotLow: nil))
            })
        // And an app with no constraint has no such reason.
        #expect(
            try wakes(free, of: app, from: from).allSatisfy { wake in
                !wake.reasons.contains { if case .requiredState = $0 { true } else { false } }
            })
    }

    /// A policy written before constraints existed reads as one with none.
    @Test func anOldPolicyReadsWithNoConstraints() throws {
        let policy = AppPolicy(interval: .seconds(3600), enabled: false)
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(policy)) as? [String: Any])
        #expect(object["constraints"] != nil)
        object["constraints"] = nil
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(AppPolicy.self, from: old) == policy)
    }
}

/// The constraints' names are one list, read by the service's app route and `evaluate`'s
/// settings file, and equal to the keys of their JSON.
struct ConstraintNamesTests {
    @Test func theNamesAreTheJSONKeysAndSetTheirField() throws {
        let all = AppConstraints(requiresPower: true, requiresUnmetered: true, requiresBatteryNotLow: true)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(all)) as? [String: Bool])
        #expect(Set(json.keys) == Set(AppConstraints.names))
        #expect(AppConstraints.names.count == json.count)
        for name in AppConstraints.names {
            var one = AppConstraints()
            let known = one.set(name, to: true)
            #expect(known)
            // Exactly the field of that name is set.
            let encoded = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(one)) as? [String: Bool])
            #expect(encoded.filter(\.value).map(\.key) == [name])
        }
        var none = AppConstraints()
        let known = none.set("requiresWiFi", to: true)
        #expect(!known)
        #expect(none.isEmpty)
    }
}
