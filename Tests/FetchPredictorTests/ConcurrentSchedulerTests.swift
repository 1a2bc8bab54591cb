import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// One device never holds up another: each test holds one device's learning still at the store
/// (``GatedStore``) and checks, by the order of answers and not by their times, what may and
/// may not go on meanwhile.
struct ConcurrentSchedulerTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// A store holding two weeks of a commuter on each of `devices`, every app on `minimum`,
    /// with the reads of `gated`'s events held at a gate.
    func gatedStore(devices: [String], gating gated: String) throws -> GatedStore {
        let store = try EventStore(path: TestFiles.scratchFolder("concurrent").appendingPathComponent("e.sqlite").path)
        for (index, device) in devices.enumerated() {
            let log = SyntheticLog(persona: .commuter, days: 14, timeZone: zone, seed: UInt64(3 + index))
            let path = TestFiles.write(EventLogWriter.csv(log.events()))
            _ = try store.importFile(path, options: ImportOptions(device: device, timeZone: zone), now: Date())
        }
        try store.setDefaultInterval(.minimum)
        return GatedStore(store, gating: gated)
    }

    /// The instant just after the commuter's two weeks.
    var end: Date { Date(milliseconds: DateFields(year: 2024, month: 1, day: 15).instant(in: zone).0) }

    /// Runs `body` in a task on threads of its own (``TestThreads``), never Swift's cooperative
    /// pool, which the tests running beside it may hold, and returns a way to wait for its
    /// result on the caller's thread: `nil` after `seconds` without one.
    func start<T: Sendable>(
        _ body: @escaping @Sendable () async throws -> T
    ) -> @Sendable (Double) -> Result<T, any Error>? {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task(executorPreference: TestThreads.shared) {
            do {
                box.set(.success(try await body()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        return { seconds in done.wait(timeout: .now() + seconds) == .success ? box.get() : nil }
    }

    @Test func aDeviceBeingLearnedDoesNotHoldUpAnother() async throws {
        // Given the big device's learning held still at the store
        let store = try gatedStore(devices: ["big", "small"], gating: "big")
        let scheduler = FetchScheduler(store: store)
        let big = start { try await scheduler.nextWake(after: end, device: "big") }
        #expect(store.waitUntilLearning())
        // When another device is asked meanwhile
        let small = start {
            try await scheduler.schedule(from: end, to: end.addingTimeInterval(86_400), device: "small")
        }
        // Then it answers while the big device is still learning (the wait only bounds a failure)
        let answer = small(60)
        #expect(store.learnCount("big") == 1)
        #expect(big(0) == nil, "the big device was answered before its learning was let go")
        store.open()
        let schedule = try #require(answer, "the small device waited for the big device's learning").get()
        #expect(schedule.wakes.count >= 4)
        // And the big device is answered once let go, as it would be alone
        let wake = try #require(big(60)).get()
        await #expect(wake == (try FetchScheduler(store: store.base).nextWake(after: end, device: "big")))
    }

    @Test func twoQueriesOfOneDeviceLearnItOnce() async throws {
        let store = try gatedStore(devices: ["phone"], gating: "phone")
        let scheduler = FetchScheduler(store: store)
        let first = start { try await scheduler.nextWake(after: end, device: "phone") }
        #expect(store.waitUntilLearning())
        let second = start { try await scheduler.nextWake(after: end, device: "phone") }
        store.open()
        let a = try #require(first(60)).get()
        let b = try #require(second(60)).get()
        #expect(a == b)
        #expect(store.learnCount("phone") == 1)
    }

    @Test func aBatchStoredWhileItsDeviceIsLearnedIsNeverLostNorCountedTwice() async throws {
        // Given a learn held still, and a launch recorded meanwhile through the same scheduler
        let store = try gatedStore(devices: ["phone"], gating: "phone")
        let scheduler = FetchScheduler(store: store)
        let first = start { try await scheduler.nextWake(after: end, device: "phone") }
        #expect(store.waitUntilLearning())
        let launch = end.addingTimeInterval(-60)
        let recorded = start { try await scheduler.recordLaunch("com.example.new", at: launch, device: "phone") }
        store.open()
        _ = try #require(first(60)).get()
        _ = try #require(recorded(60)).get()
        // Then what the scheduler knows is what a scheduler learning from the store alone knows
        let fresh = FetchScheduler(store: store.base)
        for app in ["com.example.new", "com.example.news"] {
            await #expect(
                try scheduler.profile(app: app, device: "phone", asOf: end)
                    == fresh.profile(app: app, device: "phone", asOf: end))
        }
        await #expect(
            try scheduler.schedule(from: end, to: end.addingTimeInterval(86_400), device: "phone")
                == fresh.schedule(from: end, to: end.addingTimeInterval(86_400), device: "phone"))
    }

    @Test func withAnAdmissionABusyDeviceIsSaidNotWaitedFor() async throws {
        let store = try gatedStore(devices: ["big", "small"], gating: "big")
        let admission = CountingAdmission(limit: 1)
        // Every learn large, so that each asks the admission.
        let scheduler = FetchScheduler(store: store, admission: admission, largeLearn: 1)
        let big = start { try await scheduler.nextWake(after: end, device: "big") }
        #expect(store.waitUntilLearning())
        // The device being learned: said at once, not waited for
        await #expect(throws: SchedulerBusy(device: "big", reason: .deviceBeingLearned)) {
            try await scheduler.nextWake(after: end, device: "big")
        }
        // Another device past the admission's limit: refused, nothing learned
        await #expect(throws: SchedulerBusy(device: "small", reason: .learningRefused)) {
            try await scheduler.nextWake(after: end, device: "small")
        }
        #expect(store.learnCount("small") == 0)
        store.open()
        _ = try #require(big(60)).get()
        #expect(admission.running == 0)
        // Once the learn ended, the next is let in, and a batch learns in place
        _ = try await scheduler.nextWake(after: end, device: "small")
        try await scheduler.recordLaunch("com.example.news", at: end.addingTimeInterval(1), device: "small")
        _ = try await scheduler.nextWake(after: end.addingTimeInterval(2), device: "small")
        #expect(store.learnCount("small") == 1)
        #expect(admission.admitted == 2)
    }

    @Test func onlyALearnOfManyEventsAsksTheAdmission() async throws {
        let store = try gatedStore(devices: ["phone"], gating: "none")
        let all = try await store.eventCount(device: "phone", after: .min, through: .max, atMost: .max)
        let admission = CountingAdmission(limit: 1)
        let scheduler = FetchScheduler(store: store, admission: admission, largeLearn: all)
        // Every event from the start: a large learn, let in, and its model cached
        _ = try await scheduler.nextWake(after: end, device: "phone")
        #expect(admission.admitted == 1)
        // A batch older than the newest learned, as two senders' batches crossing give: the
        // model is learned again, from the cache and the two events after it, with no turn
        try await scheduler.recordLaunch("com.example.news", at: end.addingTimeInterval(7_200), device: "phone")
        try await scheduler.recordLaunch("com.example.news", at: end.addingTimeInterval(3_600), device: "phone")
        admission.limit = 0
        _ = try await scheduler.nextWake(after: end.addingTimeInterval(10_800), device: "phone")
        #expect(store.learnCount("phone") == 2)
        // As of a day before, from the start: fewer events than a large learn, no turn either
        _ = try await scheduler.nextWake(after: end.addingTimeInterval(-86_400), device: "phone")
        #expect(store.learnCount("phone") == 3)
        #expect(admission.admitted == 1)
        // Every event again, the cache dropped: large, refused, nothing learned
        try await store.dropLearnedModels()
        let fresh = FetchScheduler(store: store, admission: admission, largeLearn: all)
        await #expect(throws: SchedulerBusy(device: "phone", reason: .learningRefused)) {
            try await fresh.nextWake(after: end, device: "phone")
        }
        #expect(store.learnCount("phone") == 3)
    }

    @Test func theLeastRecentlyUsedModelIsDroppedBeyondTheLimit() async throws {
        let store = try gatedStore(devices: ["a", "b", "c"], gating: "none")
        let scheduler = FetchScheduler(store: store, maximumLoadedDevices: 2)
        for device in ["a", "b", "a", "c"] { _ = try await scheduler.nextWake(after: end, device: device) }
        #expect(scheduler.loadedDeviceCount == 2)
        // a and c stayed; b was dropped and is learned again
        for device in ["a", "c", "b"] { _ = try await scheduler.nextWake(after: end, device: device) }
        #expect(store.learnCount("a") == 1)
        #expect(store.learnCount("c") == 1)
        #expect(store.learnCount("b") == 2)
    }
}

/// Which events a model in memory answers for.
struct LoadedModelTests {
    @Test func everyEventServesLaterQueriesAtItsVersion() {
        let loaded = LoadedModel(extent: .everything(newest: 1_000), version: 3)
        #expect(loaded.answers(asOf: 1_000, version: 3))
        #expect(loaded.answers(asOf: 5_000, version: 3))
        #expect(!loaded.answers(asOf: 999, version: 3))
        #expect(!loaded.answers(asOf: 5_000, version: 4))
        #expect(loaded.newestOfEverything == 1_000)
    }

    @Test func eventsUpToALimitServeOnlyThatInstant() {
        let loaded = LoadedModel(extent: .through(limit: 2_000), version: 1)
        #expect(loaded.answers(asOf: 2_000, version: 1))
        #expect(!loaded.answers(asOf: 2_001, version: 1))
        #expect(!loaded.answers(asOf: 1_999, version: 1))
        #expect(loaded.newestOfEverything == nil)
    }
}

/// An admission that lets `limit` learns run at once, and counts them.
final class CountingAdmission: LearningAdmission, @unchecked Sendable {
    private let lock = NSLock()
    private var limitCount: Int
    private var runningCount = 0
    private var admittedCount = 0
    init(limit: Int) { limitCount = limit }
    /// The most learns at once; 0 refuses every one.
    var limit: Int {
        get { lock.withLock { limitCount } }
        set { lock.withLock { limitCount = newValue } }
    }
    var running: Int { lock.withLock { runningCount } }
    var admitted: Int { lock.withLock { admittedCount } }
    func beginLearning(device: String) -> Bool {
        lock.withLock {
            guard runningCount < limitCount else { return false }
            runningCount += 1
            admittedCount += 1
            return true
        }
    }
    func endLearning(device: String) { lock.withLock { runningCount -= 1 } }
}

/// A result handed from one thread to another.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { lock.withLock { self.value = value } }
    func get() -> Result<T, any Error>? { lock.withLock { value } }
}

/// Threads of the tests' own for the tasks they start, so that a task a test waits for on its
/// thread never needs a thread of the cooperative pool that this test, or another, holds.
enum TestThreads {
    static let shared = DispatchExecutor(label: "fetchpredict.tests")
}

/// More devices learned at once than the SQLite store has readers (16), on Swift's cooperative
/// pool, whose threads also make the short reads every query makes: every query ends. Seen: a
/// learn's events were read through GRDB's async read, which gives its reader back only once the
/// task resumes; with every reader held so, the pool's threads waited for one in a short read,
/// and no task could resume to give one back (the service hung under many light learns).
struct ManyLearnsAtOnceTests {
    @Test(.hangLimit) func moreLearnsThanTheStoreHasReadersAllEnd() async throws {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let store = try EventStore(path: TestFiles.scratchFolder("many").appendingPathComponent("e.sqlite").path)
        let devices = (0..<48).map { "d\($0)" }
        for (index, device) in devices.enumerated() {
            try await store.setTimeZone(zone, device: device)
            let log = SyntheticLog(persona: .commuter, days: 7, timeZone: zone, seed: UInt64(11 + index))
            try await store.record(log.events(), device: device)
        }
        let scheduler = FetchScheduler(store: store)
        let end = Date(milliseconds: DateFields(year: 2024, month: 1, day: 8).instant(in: zone).0)
        // Each query as of its own earlier hour: each learns its device's events from the store.
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<4 {
                for device in devices {
                    group.addTask {
                        _ = try await scheduler.nextWake(
                            after: end.addingTimeInterval(-3_600 * Double(round + 1)), device: device)
                        return 1
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(answered == 4 * devices.count)
    }
}
