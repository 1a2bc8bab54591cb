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
