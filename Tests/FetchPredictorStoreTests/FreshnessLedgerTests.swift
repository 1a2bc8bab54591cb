import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

/// The freshness a store keeps by day, on every backend: a tenant's sums read what scoring its
/// devices' events again gives, after late events, an erasure and a new zone; tenants apart.
@Suite struct FreshnessLedgerTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!

    /// Two weeks of a persona with a fetch every 3 hours, some failed.
    func events(_ persona: String, seed: UInt64) -> [Event] {
        SyntheticLog(persona: Persona.named(persona)!, days: 14, timeZone: zone, seed: seed, fetchPeriodMinutes: 180)
            .events().enumerated().map { index, event in
                var event = event
                if event.kind == .fetch, index % 7 == 0 { event.result = .failed }
                return event
            }
    }

    func record(_ events: [Event], device: String, in store: any EventStoring) async throws {
        for start in stride(from: 0, to: events.count, by: 500) {
            try await store.record(Array(events[start..<min(start + 500, events.count)]), device: device)
        }
    }

    /// Every day of the devices' events.
    func days(_ events: [Event]) -> Range<Int> {
        let times = events.map(\.time)
        return Freshness.day(of: times.min()!, in: zone)..<(Freshness.day(of: times.max()!, in: zone) + 1)
    }

    /// What scoring the devices' stored events again gives over `days`, by strategy (app `nil`:
    /// every app together).
    func scored(_ devices: [String], days: Range<Int>, app: String? = nil, in store: any EventStoring)
        async throws -> [String: [Int]]
    {
        let read = try await store.backtestDevices(devices)
        let report = Freshness.measure(
            read, from: Freshness.midnight(days.lowerBound, zone), to: Freshness.midnight(days.upperBound, zone),
            apps: app.map { [$0] })
        var figures: [String: [Int]] = [:]
        for figure in [report.observed] + report.baselines {
            figures[figure.strategy] = [
                figure.coldLaunches, figure.freshColdLaunches, figure.fetches, figure.appDays, figure.deviceWakes,
                figure.wasted,
            ]
        }
        return figures
    }

    func kept(_ tenant: String, days: Range<Int>, app: String? = nil, in store: any EventStoring) async throws
        -> [String: [Int]]
    {
        let kept = try await store.keptFreshness(tenant: tenant, days: days, app: app)
        var figures: [String: [Int]] = [:]
        for figure in kept.figures[app ?? ""] ?? [] {
            figures[figure.strategy] = [
                figure.coldLaunches, figure.freshColdLaunches, figure.fetches, figure.appDays, figure.deviceWakes,
                figure.wasted,
            ]
        }
        return figures
    }

    @Test(arguments: Backend.available)
    func aTenantsKeptDaysAddUpToItsDevicesScoredAgain(backend: Backend) async throws {
        let store = try backend.makeStore()
        let devices = ["acme/phone", "acme/tablet", "globex/phone"]
        var all: [Event] = []
        for (index, device) in devices.enumerated() {
            try await store.setTimeZone(zone, device: device)
            let events = events(index == 1 ? "night-owl" : "commuter", seed: UInt64(index + 1))
            try await record(events, device: device, in: store)
            all += events
        }
        let days = days(all)
        #expect(try await store.keptFreshness(tenant: "acme", days: days, app: nil).pendingDevices == 2)
        #expect(try await FreshnessLedger.keep(store, limit: 10) == 3)
        #expect(try await store.takeFreshnessWork(limit: 10, now: 0).isEmpty)
        let acme = try await scored(["acme/phone", "acme/tablet"], days: days, in: store)
        #expect(try await kept("acme", days: days, in: store) == acme)
        #expect((acme["observed"]?[0] ?? 0) > 50)
        #expect(try await kept("globex", days: days, in: store) == scored(["globex/phone"], days: days, in: store))
        #expect(try await store.keptFreshness(tenant: "acme", days: days, app: nil).pendingDevices == 0)
        // One app of the tenant, and a few days of it.
        let app = try #require(all.first { $0.kind == .launch }?.app)
        let some = (days.lowerBound + 3)..<(days.lowerBound + 6)
        #expect(
            try await kept("acme", days: some, app: app, in: store)
                == scored(["acme/phone", "acme/tablet"], days: some, app: app, in: store))

        // Late events on a kept day (a launch just after a fetch, and a fetch): kept again.
        let fetch = try #require(
            all.first { $0.kind == .fetch && $0.result != .failed && $0.time > all[0].time + 5 * 86_400_000 })
        try await store.record(
            [.launch(fetch.app, at: fetch.time + 10 * 60_000), .fetch("late.app", at: fetch.time, result: .newData)],
            device: "acme/phone")
        #expect(try await store.keptFreshness(tenant: "acme", days: days, app: nil).pendingDevices == 1)
        #expect(try await FreshnessLedger.keep(store, limit: 10) == 1)
        let late = try await scored(["acme/phone", "acme/tablet"], days: days, in: store)
        #expect(late != acme)
        #expect(try await kept("acme", days: days, in: store) == late)

        // An erased device's days leave its tenant's sums.
        _ = try await store.eraseDevice("acme/tablet", dryRun: false)
        #expect(try await kept("acme", days: days, in: store) == scored(["acme/phone"], days: days, in: store))

        // A new zone moves every local day: the whole history is kept again in it.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        try await store.setTimeZone(tokyo, device: "globex/phone")
        #expect(try await FreshnessLedger.keep(store, limit: 10) == 1)
        let read = try await store.backtestDevices(["globex/phone"])
        let whole = Freshness.measure(read).observed
        let globex = try await store.keptFreshness(
            tenant: "globex", days: (days.lowerBound - 2)..<(days.upperBound + 2), app: nil)
        let observed = try #require(globex.figures[""]?.first { $0.strategy == "observed" })
        #expect(observed.coldLaunches == whole.coldLaunches && observed.fetches == whole.fetches)
        #expect(observed.days == whole.days)
    }

    /// Days kept from an older version of a device are not kept over those of a newer one, and a
    /// device is taken by one pass only.
    @Test(arguments: Backend.available)
    func anOlderPassDoesNotOverwriteANewerOne(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        try await record(events("commuter", seed: 3), device: "phone", in: store)
        let work = try #require(try await store.takeFreshnessWork(limit: 5, now: 0).first)
        #expect(try await store.takeFreshnessWork(limit: 5, now: 0).isEmpty)
        let row = FreshnessRow(
            day: 20_000, app: "",
            figures: FreshnessFigures(
                strategy: "observed", coldLaunches: 1, freshColdLaunches: 1, fetches: 1, appDays: 1, days: 1,
                deviceWakes: 1, wastedNoData: 0, wastedFailed: 0, wastedSuperseded: 0))
        #expect(
            try await store.keepFreshness(
                device: "phone", version: work.version + 1, days: 20_000...20_000, rows: [row]))
        #expect(try await !store.keepFreshness(device: "phone", version: work.version, days: 20_000...20_000, rows: []))
        let kept = try await store.keptFreshness(tenant: "", days: 20_000..<20_001, app: nil)
        #expect(kept.figures[""]?.first?.coldLaunches == 1)
        // A failed pass marks its device again.
        try await store.markFreshness(work)
        #expect(try await store.keptFreshness(tenant: "", days: 0..<1, app: nil).pendingDevices == 1)
        #expect(try await store.takeFreshnessWork(limit: 5, now: 0) == [work])
        // Taken, it is pending until kept; a pass that dies leaves it to the next once its lease
        // runs out, its whole history to keep.
        #expect(try await store.keptFreshness(tenant: "", days: 0..<1, app: nil).pendingDevices == 1)
        #expect(try await store.takeFreshnessWork(limit: 5, now: FreshnessLedger.lease - 1).isEmpty)
        let lapsed = try await store.takeFreshnessWork(limit: 5, now: FreshnessLedger.lease + 1)
        #expect(lapsed.map(\.device) == ["phone"] && lapsed.first?.changed == Milliseconds.min...Milliseconds.max)
        // Not kept over the newer days above, but no longer pending.
        #expect(try await FreshnessLedger.keep(lapsed, in: store) == 0)
        #expect(try await store.keptFreshness(tenant: "", days: 0..<1, app: nil).pendingDevices == 0)

        // A device taken lately waits the settle before it is taken again, however often marked.
        let taken = FreshnessLedger.lease + 1
        try await store.record([.launch("late.app", at: 1_800_000_000_000)], device: "phone")
        #expect(try await store.takeFreshnessWork(limit: 5, now: taken + 30_000, settle: 60_000).isEmpty)
        let settled = try await store.takeFreshnessWork(limit: 5, now: taken + 60_000, settle: 60_000)
        #expect(settled.map(\.device) == ["phone"])
    }
}
