import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// What a next-wake costs the store, counted by call (``StoreCalls``), on both backends.
struct StoreCallTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func store(_ backend: Backend) async throws -> (store: any EventStoring, newest: Date) {
        let store = try backend.makeStore()
        try await store.setDefaultInterval(.minimum)
        let log = SyntheticLog(persona: Persona.named("commuter")!, days: 14, timeZone: zone, seed: 7)
        try await store.setTimeZone(zone, device: "phone")
        _ = try await store.record(log.events(), device: "phone")
        return (store, Date(milliseconds: try #require(log.events().map(\.time).max())))
    }

    /// A next-wake of a device whose model is loaded, with nothing new, reads the device's
    /// settings once (its version says nothing changed), and nothing else.
    @Test(arguments: Backend.available)
    func aWarmNextWakeMakesOneStoreCall(backend: Backend) async throws {
        let (store, newest) = try await store(backend)
        let scheduler = FetchScheduler(store: store)
        let time = newest.addingTimeInterval(60)
        _ = try await scheduler.nextWake(after: time, device: "phone")
        for step in 1...5 {
            let before = store.calls.counts
            _ = try await scheduler.nextWake(after: time.addingTimeInterval(Double(step) * 600), device: "phone")
            #expect(store.calls.made(since: before) == ["planningSettings": 1])
        }
    }

    /// A next-wake of a device no scheduler holds reads its settings, where its learning starts
    /// (the cached model, how many events come after it, whether any comes after the time), the
    /// events after the cache, and caches the model (or, caching none, reads the settings again
    /// to know whether the device was written meanwhile): at most four calls, whether the store
    /// has a cached model or not, and after new events.
    @Test(arguments: Backend.available)
    func aColdNextWakeMakesAtMostFourStoreCalls(backend: Backend) async throws {
        let (store, newest) = try await store(backend)
        var time = newest.addingTimeInterval(60)
        for round in 0..<4 {
            if round == 2 {
                let launches = (1...100).map { Event(kind: .launch, app: "news", time: time.milliseconds + $0 * 1_000) }
                _ = try await store.record(launches, device: "phone")
                time = time.addingTimeInterval(200)
            }
            let before = store.calls.counts
            _ = try await FetchScheduler(store: store).nextWake(after: time, device: "phone")
            let made = store.calls.made(since: before)
            #expect(made.values.reduce(0, +) <= 4, "round \(round): \(made)")
            #expect(made["forEachEvent"] == 1 && made["learningStart"] == 1, "round \(round): \(made)")
        }
    }

    /// A key's lookup is counted under one name on every store, as the service's metric shows it.
    @Test(arguments: Backend.available)
    func aKeysLookupIsCountedAsTenant(backend: Backend) async throws {
        let (store, _) = try await store(backend)
        let key = try await store.createKey(tenant: "acme", now: Date()).key
        let before = store.calls.counts
        #expect(try await store.tenant(forKey: key) == "acme")
        #expect(store.calls.made(since: before) == ["tenant": 1])
    }

    /// With no wake, why there is none comes from the same query: a warm answer is still one call.
    @Test(arguments: Backend.available)
    func aWarmAnswerWithNoWakeSaysWhyInTheSameCall(backend: Backend) async throws {
        let (store, newest) = try await store(backend)
        try await store.setDefaultInterval(.never, device: "phone")
        let scheduler = FetchScheduler(store: store)
        let time = newest.addingTimeInterval(60)
        _ = try await scheduler.nextWakeOrReason(after: time, device: "phone")
        let before = store.calls.counts
        let answer = try await scheduler.nextWakeOrReason(after: time.addingTimeInterval(60), device: "phone")
        #expect(answer.wake == nil && answer.noWake == .noAppMayFetch)
        #expect(store.calls.made(since: before) == ["planningSettings": 1])
    }
}

/// A next wake or why there is none, in one query (``FetchScheduler/nextWakeOrReason(after:before:device:app:)``):
/// the same answer as the two questions asked apart, fresh or from a kept plan, for the device
/// and each app, through a day, Low Power Mode, days without an event and silence.
struct WakeOrReasonTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Two weeks of a commuter on `phone`, every app on `minimum` but the first, on `never`.
    func store(_ backend: Backend) async throws -> (store: any EventStoring, apps: [String], newest: Milliseconds) {
        let store = try backend.makeStore()
        try await store.setDefaultInterval(.minimum)
        let log = SyntheticLog(persona: Persona.named("commuter")!, days: 14, timeZone: zone, seed: 11)
        try await store.setTimeZone(zone, device: "phone")
        _ = try await store.record(log.events(), device: "phone")
        let apps = try await FetchScheduler(store: store).apps(device: "phone")
        try await store.setInterval(.never, app: try #require(apps.first), device: "phone")
        return (store, apps, try #require(log.events().map(\.time).max()))
    }

    @Test(arguments: Backend.available)
    func oneQueryAnswersAsTheTwoQuestionsApart(backend: Backend) async throws {
        let (store, apps, newest) = try await store(backend)
        let never = apps[0]
        // Low Power Mode on for an hour, two hours after the log's end.
        let on = newest + 2 * 3_600_000
        _ = try await store.record(
            [.state(.lowPowerOn, at: on), .state(.lowPowerOff, at: on + 3_600_000)], device: "phone")
        let hours: [Double] = [0.5, 2.5, 5, 12, 30, 9 * 24, 40 * 24]
        var reasons: Set<String> = []
        for hour in hours {
            let time = Date(milliseconds: newest).addingTimeInterval(hour * 3_600)
            for app in [nil, never] + apps.dropFirst().prefix(2).map(Optional.some) {
                let fresh = FetchScheduler(store: store)
                let wake =
                    if let app {
                        try await fresh.nextWake(after: time, device: "phone", app: app)
                    } else {
                        try await fresh.nextWake(after: time, device: "phone")
                    }
                let why = wake == nil ? try await fresh.whyNoWake(device: "phone", app: app, asOf: time) : nil
                for keeps in [false, true, true] {
                    let scheduler = FetchScheduler(store: store, cacheLag: 0, keepsPlans: keeps)
                    let answer = try await scheduler.nextWakeOrReason(after: time, device: "phone", app: app)
                    try await scheduler.plansKept()
                    #expect(answer.wake == wake, "at +\(hour) h, \(app ?? "the device"), keeping plans: \(keeps)")
                    #expect(answer.noWake == why, "at +\(hour) h, \(app ?? "the device"), keeping plans: \(keeps)")
                }
                if let why { reasons.insert(why.code) }
            }
        }
        // The reasons of the settings, the device's state and the history were asked about (an
        // old log's, stale, comes between its apps' wakes and their silence: the commuter has none).
        #expect(reasons == ["no-app-may-fetch", "low-power-mode", "silent"])
    }

    /// The command line's `next APP` in a new process, with no wake for the app: the answer and
    /// its reason from one learn of the device, not one for the wake and one for the reason.
    @Test(arguments: Backend.available)
    func aNewProcessSaysWhyNoWakeFromOneLearn(backend: Backend) async throws {
        let (store, apps, newest) = try await store(backend)
        let app = apps[0]
        let time = Date(milliseconds: newest).addingTimeInterval(60)
        for round in 0..<2 {
            let scheduler = FetchScheduler(store: store, cacheLag: 0, keepsPlans: true)
            let before = store.calls.counts
            let answer = try await scheduler.nextWakeOrReason(after: time, device: "phone", app: app)
            try await scheduler.plansKept()
            #expect(answer.wake == nil && answer.noWake == .noAppMayFetch, "round \(round)")
            let made = store.calls.made(since: before)
            #expect(made["forEachEvent"] == 1 && made["learningStart"] == 1, "round \(round): \(made)")
        }
    }
}
