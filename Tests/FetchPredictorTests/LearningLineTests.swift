import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// A query that must wait for learning, its turn at the admission or its device's learn by
/// another query, waits in line in the order the queries came, suspended, at most the
/// scheduler's `learningWait`: not asked again after a sleep. Each test holds one device's
/// learning still at the store (``GatedStore``), and reads the order of turns, not times.
struct LearningLineTests {
    let base = ConcurrentSchedulerTests()

    @Test func queriesWaitingForATurnAreLetInInTheOrderTheyCame() async throws {
        // Given big's learn held still, one learn at a time, every learn large
        let devices = ["big"] + (1...6).map { "d\($0)" }
        let store = try base.gatedStore(devices: devices, gating: "big")
        let admission = LineAdmission(limit: 1)
        let scheduler = FetchScheduler(store: store, admission: admission, learningWait: .seconds(60), largeLearn: 1)
        let end = base.end
        let big = base.start { try await scheduler.nextWake(after: end, device: "big") }
        #expect(store.waitUntilLearning())
        // When six devices ask, each in line before the next comes, and big again
        var answers: [@Sendable (Double) -> Result<DeviceWake?, any Error>?] = []
        for (index, device) in devices.dropFirst().enumerated() {
            answers.append(base.start { try await scheduler.nextWake(after: end, device: device) })
            #expect(admission.waitUntil(inLine: index + 1))
        }
        let bigAgain = base.start { try await scheduler.nextWake(after: end, device: "big") }
        #expect(admission.waitUntil(waits: 1, for: .deviceBeingLearned))
        #expect(admission.order == ["big"])
        // Then, big let go, every query is answered, each device learned once, in the order they came
        store.open()
        let first = try #require(big(60)).get()
        #expect(try #require(bigAgain(60)).get() == first)
        for answer in answers { _ = try #require(answer(60)).get() }
        #expect(admission.order == devices)
        #expect(devices.allSatisfy { store.learnCount($0) == 1 })
        #expect(admission.running == 0)
    }

    @Test func aWaitEndsAtTheLearningWaitAndLeavesTheLine() async throws {
        // Given big's learn held still, one learn at a time, a wait of a fifth of a second
        let store = try base.gatedStore(devices: ["big", "small"], gating: "big")
        let admission = LineAdmission(limit: 1)
        let wait = Duration.milliseconds(200)
        let scheduler = FetchScheduler(store: store, admission: admission, learningWait: wait, largeLearn: 1)
        let end = base.end
        let big = base.start { try await scheduler.nextWake(after: end, device: "big") }
        #expect(store.waitUntilLearning())
        // When another device waits for its turn: refused once the wait has passed, nothing learned
        let clock = ContinuousClock()
        var began = clock.now
        await #expect(throws: SchedulerBusy(device: "small", reason: .learningRefused, waited: wait)) {
            try await scheduler.nextWake(after: end, device: "small")
        }
        #expect(clock.now - began >= wait)
        #expect(store.learnCount("small") == 0)
        // And big asked again: its learn still held, said so once the wait has passed
        began = clock.now
        await #expect(throws: SchedulerBusy(device: "big", reason: .deviceBeingLearned, waited: wait)) {
            try await scheduler.nextWake(after: end, device: "big")
        }
        #expect(clock.now - began >= wait)
        // Then the queries that left the line took no turn: once big is let go, small learns
        store.open()
        _ = try #require(big(60)).get()
        _ = try await scheduler.nextWake(after: end, device: "small")
        #expect(admission.order == ["big", "small"])
        #expect(admission.running == 0)
    }

    @Test func aSweepNeverWaitsForATurn() async throws {
        // Given big's learn held still, one learn at a time, a long wait for a client's query
        let store = try base.gatedStore(devices: ["big", "small"], gating: "big")
        let admission = LineAdmission(limit: 1)
        let scheduler = FetchScheduler(store: store, admission: admission, learningWait: .seconds(60), largeLearn: 1)
        let end = base.end
        let big = base.start { try await scheduler.nextWake(after: end, device: "big") }
        #expect(store.waitUntilLearning())
        // When the sweep plans small and big: left for a later round at once, no turn taken, no
        // wait counted
        try await scheduler.planKeptWakes(of: ["big", "small"], asOf: end)
        #expect(store.learnCount("small") == 0)
        #expect(admission.waits(for: .learningRefused) == 0)
        #expect(admission.waits(for: .deviceBeingLearned) == 0)
        store.open()
        _ = try #require(big(60)).get()
    }
}

extension LearningLineTests {
    /// A request of several questions waits for learning once in all: each question's deadline is
    /// the one set when the request began.
    @Test func questionsAskedTogetherShareOneDeadline() async throws {
        let store = try base.gatedStore(devices: ["phone"], gating: "none")
        let scheduler = FetchScheduler(store: store, admission: LineAdmission(limit: 1), learningWait: .seconds(5))
        let (first, second) = await scheduler.waitingForLearning {
            let first = scheduler.learningDeadline()
            try? await Task.sleep(for: .milliseconds(20))
            return (first, scheduler.learningDeadline())
        }
        #expect(first.instant != nil && first.instant == second.instant)
        // Alone, each question has its own; the sweep's never waits
        let alone = scheduler.learningDeadline()
        #expect(try #require(alone.instant) > #require(first.instant))
        #expect(try #require(scheduler.learningDeadline(waiting: false).instant) <= .now)
    }
}

/// An admission that lets `limit` learns run at once and keeps the others in line, as the
/// service's does, recording the order of its turns and the waits it is told of.
final class LineAdmission: LearningAdmission, @unchecked Sendable {
    private let turns: AsyncLock
    private let lock = NSLock()
    private var turnOrder: [String] = []
    private var waitCounts: [SchedulerBusy.Reason: Int] = [:]

    init(limit: Int) { turns = AsyncLock(holders: limit) }

    /// The devices let learn, in turn.
    var order: [String] { lock.withLock { turnOrder } }
    /// How many learns run now.
    var running: Int { turns.holding }

    func waits(for reason: SchedulerBusy.Reason) -> Int { lock.withLock { waitCounts[reason, default: 0] } }

    /// Waits on the test's thread until `count` queries wait in line; `false` after 30 seconds.
    func waitUntil(inLine count: Int) -> Bool {
        waitUntil { self.turns.waiting >= count }
    }

    /// Waits on the test's thread until `count` queries have waited for `reason`; `false` after
    /// 30 seconds.
    func waitUntil(waits count: Int, for reason: SchedulerBusy.Reason) -> Bool {
        waitUntil { self.waits(for: reason) >= count }
    }

    private func waitUntil(_ done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !done() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return true
    }

    func beginLearning(device: String) -> Bool {
        guard turns.tryLock() else { return false }
        lock.withLock { turnOrder.append(device) }
        return true
    }

    func beginLearning(device: String, waitingUntil deadline: ContinuousClock.Instant) async -> Bool {
        guard await turns.lock(until: deadline) else { return false }
        lock.withLock { turnOrder.append(device) }
        return true
    }

    func endLearning(device: String) { turns.unlock() }

    func queryWaits(device: String, for reason: SchedulerBusy.Reason) {
        lock.withLock { waitCounts[reason, default: 0] += 1 }
    }
}
