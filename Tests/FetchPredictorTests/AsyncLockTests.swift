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
