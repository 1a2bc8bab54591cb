import Foundation
import Testing

@testable import FetchPredictor

/// A device's lock (``AsyncLock``): one holder at a time, and a waiter holds no thread.
struct AsyncLockTests {
    @Test func oneHolderAtATime() async {
        let lock = AsyncLock()
        #expect(lock.tryLock())
        #expect(!lock.tryLock())
        lock.unlock()
        #expect(lock.tryLock())
        lock.unlock()
    }

    /// Far more waiters than Swift's cooperative pool has threads: if a waiter held its thread,
    /// the holder could never be resumed to unlock, and the test would not end.
    @Test(.hangLimit) func waitersHoldNoThreadAndEachGetsItInTurn() async {
        let lock = AsyncLock()
        let counter = Counter()
        await lock.lock()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    await lock.lock()
                    counter.enter()
                    await Task.yield()
                    counter.leave()
                    lock.unlock()
                }
            }
            // Let the waiters queue up, then hand the lock on.
            try? await Task.sleep(for: .milliseconds(50))
            #expect(counter.entered == 0)
            lock.unlock()
        }
        #expect(counter.entered == 64)
        #expect(counter.mostAtOnce == 1)
        #expect(lock.tryLock())
    }
}

/// How many held the lock, and the most at once.
private final class Counter: @unchecked Sendable {
    private let guardLock = NSLock()
    private var inside = 0
    private(set) var entered = 0
    private(set) var mostAtOnce = 0

    func enter() {
        guardLock.withLock {
            inside += 1
            entered += 1
            mostAtOnce = max(mostAtOnce, inside)
        }
    }

    func leave() { guardLock.withLock { inside -= 1 } }
}

/// A wait with a deadline, and a lock of several places (a tenant's turns to learn).
struct AsyncLockDeadlineTests {
    @Test func aWaitLeavesTheLineAtItsDeadlineAndTakesNoPlaceAfter() async {
        let lock = AsyncLock()
        await lock.lock()
        let clock = ContinuousClock()
        let began = clock.now
        let taken = await lock.lock(until: began + .milliseconds(50))
        #expect(!taken)
        #expect(clock.now - began >= .milliseconds(50))
        #expect(lock.waiting == 0)
        // Unlocked, the lock is free: the waiter that left was not handed it
        lock.unlock()
        #expect(lock.holding == 0)
        #expect(lock.tryLock())
        lock.unlock()
    }

    @Test func aDeadlinePassedAlreadyNeverWaits() async {
        let lock = AsyncLock()
        await lock.lock()
        #expect(await lock.lock(until: .now) == false)
        #expect(lock.waiting == 0)
        lock.unlock()
        #expect(await lock.lock(until: .now))
        lock.unlock()
    }

    @Test func aLockOfTwoPlacesIsHeldByTwo() async {
        let lock = AsyncLock(holders: 2)
        #expect(lock.tryLock() && lock.tryLock())
        #expect(!lock.tryLock())
        #expect(await lock.lock(until: .now + .milliseconds(10)) == false)
        lock.unlock()
        #expect(await lock.lock(until: .now + .milliseconds(10)))
        #expect(lock.holding == 2)
        lock.unlock()
        lock.unlock()
    }

    @Test(.hangLimit) func waitersWithDeadlinesAreGivenItInTheOrderTheyCame() async {
        let lock = AsyncLock()
        await lock.lock()
        let order = Order()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    #expect(await lock.lock(until: .now + .seconds(60)))
                    order.append(index)
                    lock.unlock()
                }
                // In line before the next comes.
                while lock.waiting < index + 1 { await Task.yield() }
            }
            lock.unlock()
        }
        #expect(order.values == Array(0..<8))
        #expect(lock.holding == 0)
    }
}

private final class Order: @unchecked Sendable {
    private let guardLock = NSLock()
    private var list: [Int] = []
    var values: [Int] { guardLock.withLock { list } }
    func append(_ value: Int) { guardLock.withLock { list.append(value) } }
}
