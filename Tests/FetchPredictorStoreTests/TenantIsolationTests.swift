import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// One tenant's writes move the plans of the devices they concern and no others; a feed's answer
/// is every due device's wake, whatever moves while it is made; a lease holds whatever `now` a
/// claim names; an erasure racing a batch leaves no event behind under a device that is gone.
struct TenantIsolationTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Six devices of two tenants, `a/` and `b/`, 14 days of a persona each, apps on `minimum`.
    func fleet(_ backend: Backend) async throws -> (store: any EventStoring, devices: [String]) {
        let store = try backend.makeStore()
        try await store.setDefaultInterval(.minimum)
        var devices: [String] = []
        for index in 0..<6 {
            let name = "\(index % 2 == 0 ? "a" : "b")/phone\(index)"
            let persona = Persona.named(["commuter", "night-owl", "shifting"][index % 3])!
            let log = SyntheticLog(persona: persona, days: 14, timeZone: zone, seed: UInt64(70 + index))
            try await store.createDevice(name)
            try await store.setTimeZone(zone, device: name)
            _ = try await store.record(log.events(), device: name)
            devices.append(name)
        }
        return (store, devices)
    }

    var now: Date {
        Date(milliseconds: DateFields(year: 2024, month: 1, day: 15).instant(in: zone).0).addingTimeInterval(3600)
    }

    /// Whether each device's kept plan holds at `now`, by name.
    func holding(_ store: any EventStoring, _ devices: [String]) async throws -> [String: Bool] {
        var holds: [String: Bool] = [:]
        for device in devices { holds[device] = try await store.keptWake(device: device)?.planned.holds(at: now) }
        return holds
    }

    /// Every device's plan kept as of `now`, by a feed over the whole store.
    func planAll(_ store: any EventStoring) async throws {
        _ = try await FetchScheduler(store: store).dueWakes(
            scope: nil, before: now.addingTimeInterval(86_400), asOf: now, limit: 100)
    }

    @Test(arguments: Backend.available)
    func aTenantsBudgetMovesOnlyItsOwnPlans(backend: Backend) async throws {
        let (store, devices) = try await fleet(backend)
        try await planAll(store)
        #expect(try await holding(store, devices).values.allSatisfy { $0 })
        try await store.setDefaultWakesPerHour(1, scope: "a/")
        let after = try await holding(store, devices)
        for device in devices {
            #expect(after[device] == device.hasPrefix("b/"), "\(device): only tenant a's plans move")
        }
        // The same budget again changes nothing, and moves nothing.
        try await planAll(store)
        try await store.setDefaultWakesPerHour(1, scope: "a/")
        #expect(try await holding(store, devices).values.allSatisfy { $0 }, "an unchanged budget moved plans")
        // The store's own budget is every tenant's fallback: every plan may count on it.
        try await store.setDefaultWakesPerHour(2, scope: "")
        #expect(try await holding(store, devices).values.allSatisfy { !$0 })
    }

    @Test(arguments: Backend.available)
    func anErasureMovesNoOtherDevicesPlan(backend: Backend) async throws {
        let (store, devices) = try await fleet(backend)
        try await planAll(store)
        _ = try await store.eraseDevice(devices[0], dryRun: false)
        let after = try await holding(store, Array(devices.dropFirst()))
        #expect(after.count == devices.count - 1)
        #expect(after.values.allSatisfy { $0 }, "an erasure of one device moved others' plans: \(after)")
        // A prune of one device's events moves that device's plan alone.
        _ = try await store.prune(before: now.milliseconds - 7 * 86_400_000, device: devices[1], dryRun: false)
        let pruned = try await holding(store, Array(devices.dropFirst()))
        for device in devices.dropFirst() {
            #expect(pruned[device] == (device != devices[1]), "\(device)")
        }
    }

    /// A plan moved by another's write between the feed's plan of the stale devices and its read
    /// of the kept ones is in the answer all the same (it was left out of both).
    @Test(arguments: Backend.available)
    func aPlanMovedWhileTheFeedAnswersIsInIt(backend: Backend) async throws {
        let (base, devices) = try await fleet(backend)
        let before = now.addingTimeInterval(6 * 3600)
        let expected = try await FetchScheduler(store: base).dueWakes(
            scope: nil, before: before, asOf: now, limit: 100, keeping: false)
        #expect(expected.count >= 3)
        let store = GatedStore(base, gating: "nobody")
        // Between the two reads, a write moves the plan of every device due (and not its wake:
        // an app's setting set to what it was).
        store.beforeDueWakes = {
            for wake in expected {
                try await base.setDefaultInterval(.minimum, device: wake.device)
                try await base.setDefaultInterval(nil, device: wake.device)
            }
        }
        let due = try await FetchScheduler(store: store).dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        #expect(due == expected)
        _ = devices
    }

    /// A claim that names another `now` never hands out a wake another worker holds leased.
    @Test(arguments: Backend.available)
    func aLeaseHoldsWhateverNowAClaimNames(backend: Backend) async throws {
        let (store, _) = try await fleet(backend)
        let before = now.addingTimeInterval(12 * 3600)
        let clock = Date(timeIntervalSince1970: 1_900_000_000)
        let scheduler = FetchScheduler(store: store)
        let leased = try await scheduler.claimWakes(
            scope: nil, before: before, asOf: now, limit: 100, lease: 600, clock: clock)
        #expect(leased.count >= 3)
        for offset in [-1800.0, -300, 300, 1800] {
            let other = try await scheduler.claimWakes(
                scope: nil, before: before, asOf: now.addingTimeInterval(offset), limit: 100, lease: 600,
                clock: clock.addingTimeInterval(1))
            let again = try await scheduler.claimWakes(
                scope: nil, before: before, asOf: now, limit: 100, lease: 600, clock: clock.addingTimeInterval(2))
            let held = Set(leased.map(\.device))
            #expect(other.filter { held.contains($0.device) }.isEmpty, "now moved by \(offset) s")
            #expect(again.filter { held.contains($0.device) }.isEmpty, "now moved by \(offset) s, then back")
        }
        // The lease ends: the wakes come back.
        let ended = try await scheduler.claimWakes(
            scope: nil, before: before, asOf: now, limit: 100, lease: 600, clock: clock.addingTimeInterval(601))
        #expect(Set(ended.map(\.device)).isSuperset(of: leased.map(\.device)))
    }

    /// An erasure and batches of the same device at once: every event acknowledged is either
    /// erased with the device or under a device that exists; never under one that is gone.
    @Test(arguments: Backend.available)
    func anErasureRacingBatchesLeavesNoOrphan(backend: Backend) async throws {
        let store = try backend.makeStore()
        let device = "a/racer"
        let base = now.milliseconds
        for round in 0..<12 {
            _ = try await store.record([Event(kind: .launch, app: "com.example.news", time: base)], device: device)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<2 {
                    group.addTask {
                        for batch in 0..<4 {
                            let start = base + Milliseconds(((round * 2 + writer) * 4 + batch) * 100_000)
                            let events = (0..<20).map {
                                Event(kind: .launch, app: "com.example.chat", time: start + Milliseconds($0) * 1000)
                            }
                            _ = try await store.record(events, device: device)
                        }
                    }
                }
                group.addTask {
                    do { _ = try await store.eraseDevice(device, dryRun: false) } catch StoreError.unknownDevice {}
                }
                try await group.waitForAll()
            }
        }
        let orphans = try await backend.count(
            in: store,
            sqlite: """
                SELECT (SELECT count(*) FROM launch WHERE appId NOT IN (SELECT id FROM app))
                    + (SELECT count(*) FROM app WHERE deviceId NOT IN (SELECT id FROM device))
                """,
            postgres: """
                SELECT (SELECT count(*) FROM event WHERE device_id NOT IN (SELECT id FROM device))
                    + (SELECT count(*) FROM app WHERE device_id NOT IN (SELECT id FROM device))
                """)
        #expect(orphans == 0)
    }
}
