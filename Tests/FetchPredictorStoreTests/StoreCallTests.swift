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
}
