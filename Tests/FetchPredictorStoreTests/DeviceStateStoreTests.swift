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
    func store(_ backend: Backend) async throws -> (any EventStoring, Date) {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        try await store.setDefaultInterval(.minimum)
        let events = SyntheticLog(persona: Persona.named("commuter")!, days: 21, timeZone: zone, seed: 11).events()
        for start in stride(from: 0, to: events.count, by: 1000) {
            try await store.record(Array(events[start..<min(start + 1000, events.count)]), device: "phone")
        }
        return (store, Date(milliseconds: events.map(\.time).max()!))
    }

    @Test(arguments: Backend.available)
    func stateIsStoredWithItsValueAndLearnedInTheStoresOrder(backend: Backend) async throws {
        let store = try backend.makeStore()
        let base: Milliseconds = 1_800_000_000_000
        let events: [Event] = [
            .network(.unmetered, at: base), .launch("alpha", at: base), .battery(57, at: base + 1_000),
            Event(kind: .unlock, app: "", time: base + 1_000), .state(.lowPowerOn, at: base + 2_000),
            .state(.powerConnected, at: base + 2_000),
        ]
        await #expect(try store.record(events, device: "phone").stored == 6)
        // What a model learns from: launches and fetches, then the state, by time; no unlock.
        let learned = try await store.learningEvents(device: "phone", after: .min).map {
            "\($0.time - base) \($0.kind.rawValue)\($0.value.map { " \($0)" } ?? "")"
        }
        #expect(
            learned == [
                "0 launch", "0 network unmetered", "1000 battery 57", "2000 powerConnected", "2000 lowPowerOn",
            ])
        await #expect(try store.hasEvents(device: "phone", after: base + 1_000))
        let exported = try await store.events(device: "phone")
        #expect(exported.count == 6)
        #expect(exported.first { $0.kind == .battery }?.value == "57")
        // A value the store would not keep as it is refuses the batch, naming it.
        await #expect {
            try await store.record(
                [.launch("alpha", at: base + 9_000), Event(kind: .battery, app: "", time: base, value: "140")],
                device: "phone")
        } throws: { error in
            guard case InvalidFieldError.invalidInBatch(1, "value", _) = error else { return false }
            return true
        }
    }

    @Test(arguments: Backend.available)
    func noWakeWhileLowPowerModeIsOnAndTheSameWakesAfter(backend: Backend) async throws {
        let (store, last) = try await store(backend)
        let (plain, _) = try await self.store(backend)
        let on = last.addingTimeInterval(600)
        let asked = on.addingTimeInterval(60)
        let scheduler = FetchScheduler(store: store)
        await #expect(
            try scheduler.nextWake(after: asked, device: "phone") != nil, "no wake to hold back tests nothing")
        try await store.record([.state(.lowPowerOn, at: on.milliseconds)], device: "phone")
        await #expect(try scheduler.nextWake(after: asked, device: "phone") == nil)
        await #expect(
            try scheduler.whyNoWake(device: "phone", asOf: asked) == .lowPowerMode(LowPowerMode(isOn: true, since: on)))
        await #expect(
            try scheduler.schedule(from: asked, to: asked.addingTimeInterval(86_400), device: "phone").wakes.isEmpty)
        // Another scheduler, from the model cached at the event, says the same.
        await #expect(try FetchScheduler(store: store).nextWake(after: asked, device: "phone") == nil)
        // As of before the mode was turned on, the wake is there.
        await #expect(
            try scheduler.nextWake(after: last, device: "phone")
                == FetchScheduler(store: plain).nextWake(after: last, device: "phone"))

        let off = on.addingTimeInterval(2 * 3600)
        try await store.record([.state(.lowPowerOff, at: off.milliseconds)], device: "phone")
        let later = off.addingTimeInterval(60)
        let back = try await #require(try scheduler.nextWake(after: later, device: "phone"))
        await #expect(back == (try FetchScheduler(store: plain).nextWake(after: later, device: "phone")))
    }

    /// An app's constraints are one setting with its interval: changed in one call, read back,
    /// kept through a prune, carried into planning (the wake counts on power, placed while the
    /// nights charge), and a change of them makes the device's kept plan again.
    @Test(arguments: Backend.available)
    func constraintsAreKeptAndPlannedFromTheStore(backend: Backend) async throws {
        let (store, last) = try await store(backend)
        let app = "com.example.podcasts"
        // On power from 23:00 to 07:00 every night of the log.
        let calendar = {
            var c = Calendar(identifier: .gregorian); c.timeZone = zone; return c
        }()
        var nights: [Event] = []
        for day in 0..<22 {
            let date = calendar.date(byAdding: .day, value: day - 21, to: calendar.startOfDay(for: last))!
            nights.append(.state(.powerDisconnected, at: date.addingTimeInterval(7 * 3600).milliseconds))
            nights.append(.state(.powerConnected, at: date.addingTimeInterval(23 * 3600).milliseconds))
        }
        try await store.record(nights.filter { $0.time <= last.milliseconds }, device: "phone")
        let now = calendar.startOfDay(for: last).addingTimeInterval(7.5 * 3600)
        func minuteOfDay(_ date: Date) -> Int {
            let fields = calendar.dateComponents([.hour, .minute], from: date)
            return fields.hour! * 60 + fields.minute!
        }
        // At 0.85 the app's next wake is in the day; at the default level the next morning's
        // first wake comes at 06:49, on power already, so that the constraint would move nothing.
        var sparse = PredictorConfiguration()
        sparse.budget = 0.85
        let scheduler = FetchScheduler(store: store, configuration: sparse)
        let free = try #require(try await scheduler.nextWake(after: now, device: "phone", app: app)?.apps.first)
        #expect(
            !(23 * 60..<24 * 60).contains(minuteOfDay(free.plannedTime))
                && minuteOfDay(free.plannedTime) >= 7 * 60,
            "unconstrained, the app is woken in the day: a constraint that moves nothing tests nothing \(free.plannedTime)"
        )
        _ = try await scheduler.nextWake(after: now, device: "phone")
        let generation = try await #require(try store.keptWake(device: "phone")).generation

        let changed = try await store.changeApp(
            AppSettingsChange(requiresPower: true, requiresUnmetered: true), app: app, device: "phone")
        #expect(changed.interval == nil && changed.enabled)
        #expect(changed.constraints == AppConstraints(requiresPower: true, requiresUnmetered: true))
        await #expect(try store.keptWake(device: "phone")!.generation > generation, "the kept plan is made again")
        let lifted = try await store.changeApp(
            AppSettingsChange(interval: .some(.seconds(3600)), requiresUnmetered: false), app: app, device: "phone")
        #expect(lifted.constraints == AppConstraints(requiresPower: true) && lifted.interval == .seconds(3600))
        await #expect(try store.settings(app: app, device: "phone") == lifted)
        await #expect(try store.appSettings(device: "phone").first { $0.app == app } == lifted)
        await #expect(try store.planningSettings(device: "phone").policies[app] == lifted)
        await #expect(
            try store.apps(device: "phone", asOf: nil).first { $0.app == app }?.constraints == lifted.constraints)
        await #expect(
            try store.apps(device: "phone", asOf: nil).first { $0.app == "com.example.news" }?.constraints.isEmpty
                == true)

        let wake = try await #require(try scheduler.nextWake(after: now, device: "phone", app: app)?.apps.first)
        let minute = minuteOfDay(wake.plannedTime)
        #expect(minute >= 23 * 60 || minute < 7 * 60, "\(wake.plannedTime)")
        #expect(wake.reasons.contains { if case .requiredState(.some, nil, nil) = $0 { true } else { false } })

        // A constraint alone is a setting of the app's own: a prune of all its events keeps it.
        try await store.changeApp(
            AppSettingsChange(requiresBatteryNotLow: true), app: "com.example.quiet", device: "phone")
        _ = try await store.prune(before: last.milliseconds + 86_400_000, device: nil)
        await #expect(try store.settings(app: "com.example.quiet", device: "phone").constraints.requiresBatteryNotLow)
        await #expect(try store.settings(app: app, device: "phone").constraints.requiresPower)
    }
}
