import Foundation
import Testing

@testable import FetchPredictorCore

/// While Low Power Mode is on, no app is woken; the event that turns it off brings back the
/// wakes the device would have had without it; a model keeps the mode through its cache.
struct LowPowerModeTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// The commuter's 28 days from 2024-01-01, and the instant of the last event.
    func commuter() throws -> (Predictor, Date) {
        let predictor = try Learned.predictor(Persona.named("commuter")!, days: 28, zone: zone, seed: 1)
        return (predictor, Date(milliseconds: try #require(predictor.devices["phone"]?.lastEventTime)))
    }

    @Test func noAppIsWokenWhileItIsOnAndTheWakesComeBackWhenItEnds() throws {
        var (plain, last) = try commuter()
        var (saver, _) = try commuter()
        let on = last.addingTimeInterval(60)
        try saver.observe(.state(.lowPowerOn, at: on.milliseconds), device: "phone")
        let asked = on.addingTimeInterval(60)
        #expect(try plain.nextWake(after: asked, device: "phone") != nil, "a plan with no wake tests nothing")
        #expect(try saver.nextWake(after: asked, device: "phone") == nil)
        #expect(try saver.nextWake(after: asked, device: "phone", app: "com.example.news") == nil)
        let schedule = try saver.schedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone")
        #expect(schedule.wakes.isEmpty)
        #expect(schedule.lowPowerMode == LowPowerMode(isOn: true, since: on))
        #expect(try saver.plannedWake(asOf: asked, device: "phone").wake == nil)
        #expect(saver.lowPowerMode(device: "phone", at: asked) == LowPowerMode(isOn: true, since: on))
        // Asked before it was turned on, the device was not in it.
        #expect(saver.lowPowerMode(device: "phone", at: last) == nil)

        let off = on.addingTimeInterval(3 * 3600)
        try saver.observe(.state(.lowPowerOff, at: off.milliseconds), device: "phone")
        #expect(saver.lowPowerMode(device: "phone", at: off) == nil)
        let after = off.addingTimeInterval(60)
        let back = try #require(try saver.nextWake(after: after, device: "phone"))
        // Against a predictor first asked then: a plan is made from the instant it is first asked.
        var fresh = try commuter().0
        #expect(back == (try fresh.nextWake(after: after, device: "phone")))
        #expect(
            try saver.schedule(from: after, to: after.addingTimeInterval(86_400), device: "phone")
                == (try plain.schedule(from: after, to: after.addingTimeInterval(86_400), device: "phone")))
    }

    /// The device's other state is learned from without moving a plan yet: the same wakes as a
    /// device that never told it.
    @Test func powerBatteryAndNetworkLeaveThePlanAsItWas() throws {
        let (plain, last) = try commuter()
        var (told, _) = try commuter()
        let t = last.milliseconds
        for event in [
            Event.state(.powerConnected, at: t + 1_000), .battery(12, at: t + 2_000), .network(.metered, at: t + 3_000),
            .state(.powerDisconnected, at: t + 4_000),
        ] {
            try told.observe(event, device: "phone")
        }
        let asked = last.addingTimeInterval(60)
        #expect(
            try told.schedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone")
                == (try plain.schedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone")))
    }

    /// A model read back from its cached bytes is still in Low Power Mode, since the same time.
    @Test func theModeSurvivesTheCache() throws {
        var (saver, last) = try commuter()
        let on = last.addingTimeInterval(60)
        try saver.observe(.state(.lowPowerOn, at: on.milliseconds), device: "phone")
        let model = try #require(saver.devices["phone"])
        let read = try #require(
            DeviceModel(encodedHeader: model.encodedHeader(), apps: model.apps, timeZone: model.timeZone))
        #expect(read.lowPowerMode == LowPowerMode(isOn: true, since: on))
        #expect(read == model)
        let never = try #require(try commuter().0.devices["phone"])
        #expect(
            DeviceModel(encodedHeader: never.encodedHeader(), apps: never.apps, timeZone: never.timeZone)?
                .lowPowerMode == nil)
    }

    /// Turned on and off at one instant, the mode is on: no wake is the safe reading.
    @Test func onAndOffAtOneInstantIsOn() throws {
        var (saver, last) = try commuter()
        let at = last.addingTimeInterval(60).milliseconds
        try saver.observe(.state(.lowPowerOff, at: at), device: "phone")
        try saver.observe(.state(.lowPowerOn, at: at), device: "phone")
        #expect(saver.lowPowerMode(device: "phone", at: Date(milliseconds: at + 1)) != nil)
        var (other, _) = try commuter()
        try other.observe(.state(.lowPowerOn, at: at), device: "phone")
        try other.observe(.state(.lowPowerOff, at: at), device: "phone")
        #expect(other.lowPowerMode(device: "phone", at: Date(milliseconds: at + 1)) != nil)
    }

    @Test(arguments: [
        (EventKind.battery, "57", "57"), (.battery, " 100.0 ", "100"), (.battery, "0", "0"),
        (.network, "UNMETERED", "unmetered"), (.network, "none", "none"),
    ])
    func valuesAreKeptInOneForm(kind: EventKind, text: String, kept: String) throws {
        #expect(try EventLimits.value(text, for: kind).get() == kept)
    }

    @Test(arguments: [
        (EventKind.battery, "101"), (.battery, "57.5"), (.battery, "nan"), (.battery, ""), (.network, "wifi"),
        (.lowPowerOn, "1"), (.launch, "x"),
    ])
    func badValuesAreRefused(kind: EventKind, text: String) {
        #expect(throws: EventLimits.ValueProblem.self) { try EventLimits.value(text, for: kind).get() }
    }
}
