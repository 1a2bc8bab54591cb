import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

/// The device's state on every backend: stored with its value, learned by the scheduler in the
/// order of the store, and Low Power Mode honoured in every answer, through the model's cache too.
@Suite struct DeviceStateStoreTests {
    let zone = TimeZone(identifier: "America/New_York")!

    /// Three weeks of the commuter recorded into a new store of the backend, every app on
    /// `minimum`, and the instant of the last event.
    func store(_ backend: Backend) throws -> (any EventStoring, Date) {
        let store = try backend.makeStore()
        try store.setTimeZone(zone, device: "phone")
        try store.setDefaultInterval(.minimum)
        let events = SyntheticLog(persona: Persona.named("commuter")!, days: 21, timeZone: zone, seed: 11).events()
        for start in stride(from: 0, to: events.count, by: 1000) {
            try store.record(Array(events[start..<min(start + 1000, events.count)]), device: "phone")
        }
        return (store, Date(milliseconds: events.map(\.time).max()!))
    }

    @Test(arguments: Backend.available)
    func stateIsStoredWithItsValueAndLearnedInTheStoresOrder(backend: Backend) throws {
        let store = try backend.makeStore()
        let base: Milliseconds = 1_800_000_000_000
        let events: [Event] = [
            .network(.unmetered, at: base), .launch("alpha", at: base), .battery(57, at: base + 1_000),
            Event(kind: .unlock, app: "", time: base + 1_000), .state(.lowPowerOn, at: base + 2_000),
            .state(.powerConnected, at: base + 2_000),
        ]
        #expect(try store.record(events, device: "phone").stored == 6)
        // What a model learns from: launches and fetches, then the state, by time; no unlock.
        var learned: [String] = []
        try store.forEachEvent(device: "phone", after: .min) {
            learned.append("\($0.time - base) \($0.kind.rawValue)\($0.value.map { " \($0)" } ?? "")")
        }
        #expect(
            learned == [
                "0 launch", "0 network unmetered", "1000 battery 57", "2000 powerConnected", "2000 lowPowerOn",
            ])
        #expect(try store.hasEvents(device: "phone", after: base + 1_000))
        var exported: [Event] = []
        try store.forEachStoredEvent(device: "phone", from: nil, to: nil) { exported.append($0) }
        #expect(exported.count == 6)
        #expect(exported.first { $0.kind == .battery }?.value == "57")
        // A value the store would not keep as it is refuses the batch, naming it.
        #expect {
            try store.record(
                [.launch("alpha", at: base + 9_000), Event(kind: .battery, app: "", time: base, value: "140")],
                device: "phone")
        } throws: { error in
            guard case InvalidFieldError.invalidInBatch(1, "value", _) = error else { return false }
            return true
        }
    }

    @Test(arguments: Backend.available)
    func noWakeWhileLowPowerModeIsOnAndTheSameWakesAfter(backend: Backend) throws {
        let (store, last) = try store(backend)
        let (plain, _) = try self.store(backend)
        let on = last.addingTimeInterval(600)
        let asked = on.addingTimeInterval(60)
        let scheduler = FetchScheduler(store: store)
        #expect(try scheduler.nextWake(after: asked, device: "phone") != nil, "no wake to hold back tests nothing")
        try store.record([.state(.lowPowerOn, at: on.milliseconds)], device: "phone")
        #expect(try scheduler.nextWake(after: asked, device: "phone") == nil)
        #expect(
            try scheduler.whyNoWake(device: "phone", asOf: asked) == .lowPowerMode(LowPowerMode(isOn: true, since: on)))
        #expect(
            try scheduler.schedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone").wakes.isEmpty)
        // Another scheduler, from the model cached at the event, says the same.
        #expect(try FetchScheduler(store: store).nextWake(after: asked, device: "phone") == nil)
        // As of before the mode was turned on, the wake is there.
        #expect(
            try scheduler.nextWake(after: last, device: "phone")
                == FetchScheduler(store: plain).nextWake(after: last, device: "phone"))

        let off = on.addingTimeInterval(2 * 3600)
        try store.record([.state(.lowPowerOff, at: off.milliseconds)], device: "phone")
        let later = off.addingTimeInterval(60)
        let back = try #require(try scheduler.nextWake(after: later, device: "phone"))
        #expect(back == (try FetchScheduler(store: plain).nextWake(after: later, device: "phone")))
    }
}
