import FetchPredictorTestSupport
import Foundation
import Synchronization
import Testing

@testable import FetchPredictor

/// The fleet's wakes on both backends: the feed of due devices is, device by device, what
/// `nextWake` gives at the same time; the kept plans stay true after writes; a claim never hands
/// one wake out twice; a scope never shows another's devices.
struct WakeFeedTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    static let personas = ["commuter", "night-owl", "irregular", "shifting"]

    /// A store of `count` devices in two scopes, each with 14 days of a persona (every app on
    /// `minimum`), some with a push budget and one whose apps are all `never`.
    /// - Parameter names: the devices' names, by default `a/phone0`, `b/phone1`...
    func fleet(_ backend: Backend, count: Int = 8, names: [String]? = nil) async throws
        -> (store: any EventStoring, devices: [String])
    {
        let store = try backend.makeStore()
        try await store.setDefaultInterval(.minimum)
        var devices: [String] = []
        for index in 0..<(names?.count ?? count) {
            let name = names?[index] ?? "\(index % 2 == 0 ? "a" : "b")/phone\(index)"
            let persona = Persona.named(Self.personas[index % Self.personas.count])!
            let log = SyntheticLog(persona: persona, days: 14, timeZone: zone, seed: UInt64(40 + index))
            try await store.createDevice(name)
            try await store.setTimeZone(zone, device: name)
            _ = try await store.record(log.events(), device: name)
            if index % 3 == 1 { try await store.setWakesPerHour(2, device: name) }
            devices.append(name)
        }
        try await store.setDefaultInterval(.never, device: devices.last!)
        return (store, devices)
    }

    /// The instant the synthetic logs end after (14 days from 2024-01-01, local).
    var logEnd: Date { Date(milliseconds: DateFields(year: 2024, month: 1, day: 15).instant(in: zone).0) }

    @Test(arguments: Backend.available)
    func theFeedIsEachDevicesNextWake(backend: Backend) async throws {
        let (store, devices) = try await fleet(backend)
        let feed = FetchScheduler(store: store)
        // Instants drawn over two days after the logs, in time order, as a service's clock goes;
        // seeded, so that every run asks the same (a draw of the system's, all in the night, once
        // found too few devices due).
        var generator = SeededGenerator(seed: 38)
        var seen = 0
        let instants = (0..<6).map { _ in
            logEnd.addingTimeInterval(Double.random(in: 0..<(2 * 86_400), using: &generator))
        }
        for now in instants.sorted() {
            let before = now.addingTimeInterval(3 * 3600)
            let due = try await feed.dueWakes(scope: nil, before: before, asOf: now, limit: 100)
            // A scheduler of its own, as another process would answer next-wake.
            let asked = FetchScheduler(store: store)
            var expected: [DeviceWake] = []
            for device in devices {
                if let wake = try await asked.nextWake(after: now, device: device), wake.time < before {
                    expected.append(wake)
                }
            }
            expected.sort { ($0.time, $0.device) < ($1.time, $1.device) }
            #expect(due == expected, "as of \(now)")
            #expect(!due.contains { $0.device == devices.last! }, "a device whose apps are all never is never due")
            seen += due.count
        }
        #expect(seen > 6, "the feed found due devices")
    }

    @Test(arguments: Backend.available)
    func aWriteMovesTheKeptPlanAndPagesFollowTheCursor(backend: Backend) async throws {
        let (store, devices) = try await fleet(backend)
        let feed = FetchScheduler(store: store)
        let now = logEnd.addingTimeInterval(3600)
        let before = now.addingTimeInterval(86_400)
        let all = try await feed.dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        #expect(all.count >= 5)
        // Page by page, two at a time, the same wakes in the same order.
        var paged: [DeviceWake] = []
        var cursor: WakeCursor?
        while true {
            let page = try await feed.dueWakes(scope: nil, before: before, asOf: now, after: cursor, limit: 2)
            paged += page
            guard page.count == 2, let last = page.last else { break }
            cursor = WakeCursor(time: last.time.milliseconds, device: last.device)
        }
        #expect(paged == all)
        // The first device's apps turned to never: its plan moves at once, and it is not due.
        let first = all[0].device
        try await store.setDefaultInterval(.never, device: first)
        await #expect(try store.keptWake(device: first)?.planned.holds(at: now) == false)
        let after = try await feed.dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        #expect(!after.contains { $0.device == first })
        // A launch recorded moves it too; the feed plans it from that launch.
        try await store.setDefaultInterval(nil, device: first)
        _ = try await store.record(
            [Event(kind: .launch, app: "com.example.news", time: now.milliseconds - 60_000)], device: first)
        let again = try await feed.dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        await #expect(
            again.first { $0.device == first } == (try FetchScheduler(store: store).nextWake(after: now, device: first))
        )
        _ = devices
    }

    @Test(arguments: Backend.available)
    func aScopeShowsOnlyItsDevices(backend: Backend) async throws {
        let (store, _) = try await fleet(backend)
        let feed = FetchScheduler(store: store)
        let now = logEnd.addingTimeInterval(3600)
        let before = now.addingTimeInterval(86_400)
        let a = try await feed.dueWakes(scope: "a/", before: before, asOf: now, limit: 100)
        let b = try await feed.dueWakes(scope: "b/", before: before, asOf: now, limit: 100)
        #expect(!a.isEmpty && !b.isEmpty)
        #expect(a.allSatisfy { $0.device.hasPrefix("a/") })
        #expect(b.allSatisfy { $0.device.hasPrefix("b/") })
        let all = try await feed.dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        #expect(Set(all) == Set(a + b))
    }

    /// Names and scopes with quotes, spaces, SQL's comment and other letters are values to the
    /// store, never SQL: the feed pages through them by its cursor, a scope finds its own, a
    /// claim takes them, on both backends.
    @Test(arguments: Backend.available)
    func namesThatLookLikeSQLAreOnlyNames(backend: Backend) async throws {
        let names = [
            "o'hara/it's mine", "o'hara/x' OR '1'='1", "o'hara/-- ; DROP TABLE kept_wake", "o'hara/téléphone 📱",
            "b/\"quoted\" \\ name", "b/' ", "no tenant's slash", "o'hara/$1",
        ]
        let (store, devices) = try await fleet(backend, names: names)
        let feed = FetchScheduler(store: store)
        let now = logEnd.addingTimeInterval(3600)
        let before = now.addingTimeInterval(86_400)
        let all = try await feed.dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        #expect(all.count >= 5, "\(all.map(\.device))")
        #expect(Set(all.map(\.device)).isSubset(of: Set(devices)))
        var paged: [DeviceWake] = []
        var cursor: WakeCursor?
        while true {
            let page = try await feed.dueWakes(scope: nil, before: before, asOf: now, after: cursor, limit: 1)
            paged += page
            guard let last = page.last else { break }
            cursor = WakeCursor(time: last.time.milliseconds, device: last.device)
        }
        #expect(paged == all)
        let scoped = try await feed.dueWakes(scope: "o'hara/", before: before, asOf: now, limit: 100)
        #expect(scoped == all.filter { $0.device.hasPrefix("o'hara/") })
        #expect(!scoped.isEmpty)
        let claimed = try await feed.claimWakes(
            scope: "o'hara/", before: before, asOf: now, limit: 100, lease: 60, clock: Date())
        #expect(Set(claimed) == Set(scoped))
        await #expect(try store.keptWake(device: "o'hara/x' OR '1'='1") != nil)
    }

    /// A scope's push budget (a tenant's default) is its devices' unless they have their own, the
    /// store's is every scope's that has none, and a change makes the kept plans hold no more.
    @Test(arguments: Backend.available)
    func aScopesBudgetIsItsDevicesUnlessTheirOwn(backend: Backend) async throws {
        let (store, _) = try await fleet(backend)
        let now = logEnd.addingTimeInterval(3600)
        _ = try await FetchScheduler(store: store).dueWakes(
            scope: nil, before: now.addingTimeInterval(3600), asOf: now, limit: 100)
        await #expect(try store.keptWake(device: "a/phone0")?.planned.holds(at: now) == true)
        func budget(_ device: String) async throws -> Int? {
            try await store.planningSettings(device: device).wakesPerHour
        }
        await #expect(try budget("a/phone0") == nil)
        await #expect(try budget("b/phone1") == 2)
        try await store.setDefaultWakesPerHour(1, scope: "a/")
        await #expect(try store.defaultWakesPerHour(scope: "a/") == 1)
        for (device, expected) in [("a/phone0", 1), ("b/phone1", 2), ("b/phone3", nil)] {
            await #expect(try budget(device) == expected, "\(device)")
        }
        await #expect(try store.keptWake(device: "a/phone0")?.planned.holds(at: now) == false)
        try await store.setDefaultWakesPerHour(3, scope: "")
        for (device, expected) in [("a/phone0", 1), ("b/phone3", 3), ("b/phone1", 2)] {
            await #expect(try budget(device) == expected, "\(device)")
        }
        // The plan keeps the scope's budget in every hour.
        let wakes = try await FetchScheduler(store: store).schedule(
            from: now, to: now.addingTimeInterval(86_400), device: "a/phone0"
        ).wakes
        #expect(wakes.count >= 3)
        for wake in wakes {
            #expect(
                wakes.filter { $0.time >= wake.time && $0.time < wake.time.addingTimeInterval(3600) }.count <= 1)
        }
        try await store.setDefaultWakesPerHour(nil, scope: "a/")
        await #expect(try budget("a/phone0") == 3)
    }

    /// Eight threads claim at once, each many times: no wake is handed out twice, every due wake
    /// is handed out, and a lease that ended hands its wake out again.
    @Test(arguments: Backend.available)
    func concurrentClaimsNeverHandOutAWakeTwice(backend: Backend) async throws {
        let (store, _) = try await fleet(backend, count: 12)
        let now = logEnd.addingTimeInterval(3600)
        let before = now.addingTimeInterval(86_400)
        let due = try await FetchScheduler(store: store).dueWakes(scope: nil, before: before, asOf: now, limit: 100)
        #expect(due.count >= 8)
        let clock = Date(timeIntervalSince1970: 1_900_000_000)
        let claimed = Claimed()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let scheduler = FetchScheduler(store: store)
                    for _ in 0..<4 {
                        let wakes =
                            (try? await scheduler.claimWakes(
                                scope: nil, before: before, asOf: now, limit: 2, lease: 60, clock: clock)) ?? []
                        claimed.add(wakes)
                    }
                }
            }
        }
        let all = claimed.all
        #expect(all.count == Set(all.map(\.device)).count, "a wake handed out twice")
        #expect(Set(all) == Set(due))
        // While the leases hold, nothing more; once they end, the wakes come back.
        let scheduler = FetchScheduler(store: store)
        await #expect(
            try scheduler.claimWakes(scope: nil, before: before, asOf: now, limit: 100, lease: 60, clock: clock).isEmpty
        )
        let later = clock.addingTimeInterval(61)
        await #expect(
            Set(try scheduler.claimWakes(scope: nil, before: before, asOf: now, limit: 100, lease: 60, clock: later))
                == Set(due))
    }

    final class Claimed: @unchecked Sendable {
        private let lock = NSLock()
        private var wakes: [DeviceWake] = []
        func add(_ more: [DeviceWake]) { lock.withLock { wakes += more } }
        var all: [DeviceWake] { lock.withLock { wakes } }
    }

    /// A sweep of kept wakes gives its thread up between devices: a task waiting for the same
    /// thread runs before the sweep has planned them all. SQLite's short reads run on the
    /// caller's thread, so without it a sweep planned on, holding the thread, until its one
    /// write: on a 2-core machine its two lanes held the whole pool, and the service's p99 under
    /// a mix of next-wakes and batches was 877 ms.
    @Test func aSweepGivesItsThreadUpBetweenDevices() async throws {
        let (base, devices) = try await fleet(.sqlite)
        let store = GatedStore(base, gating: "nobody")
        let scheduler = FetchScheduler(store: store)
        let now = logEnd.addingTimeInterval(3600)
        // Every model loaded and the store's plans checked once: the sweep then never waits.
        for device in devices { _ = try await scheduler.nextWake(after: now, device: device) }
        try await scheduler.planKeptWakes(of: [], asOf: now)
        let before = store.keptWakeReads
        let thread = OneThread()
        // Both tasks wait in the thread's line before either runs: on a busy machine the sweep
        // could otherwise finish before the other task was made.
        let gate = thread.hold()
        let sweep = Task(executorPreference: thread) { try await scheduler.planKeptWakes(of: devices, asOf: now) }
        let other = Task(executorPreference: thread) { store.keptWakeReads - before }
        while thread.queued < 2 { try await Task.sleep(for: .milliseconds(1)) }
        gate.signal()
        let plannedBeforeTheOther = await other.value
        try await sweep.value
        #expect(store.keptWakeReads - before == devices.count)
        #expect(plannedBeforeTheOther < devices.count, "the other task waited for the whole sweep")
    }
}

/// One thread for the tasks that prefer it, their jobs run in the order they come: as one
/// thread of Swift's pool, which never preempts a job.
private final class OneThread: TaskExecutor {
    private let queue = DispatchQueue(label: "one thread")
    private let enqueued = Mutex(0)

    /// The jobs enqueued so far.
    var queued: Int { enqueued.withLock { $0 } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        enqueued.withLock { $0 += 1 }
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Holds the thread until the semaphore returned is signalled: jobs enqueued meanwhile wait.
    func hold() -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        return gate
    }
}
