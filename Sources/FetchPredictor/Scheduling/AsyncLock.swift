import Synchronization

/// A lock that a task waits for suspended, holding no thread, and may hold across suspensions:
/// a device's store reads, learning and planning. Waiters take it in the order they came; the
/// one that unlocks hands it to the first of them. A lock of several places (`holders`) is held
/// by that many tasks at once: a tenant's turns to learn.
///
/// A wait with no deadline is not cancelled with its task: it ends when the lock is given, as
/// every query of a device is short unless it learns, and learning is bounded by the caller's
/// admission. A wait with a deadline leaves the line when the deadline passes.
package final class AsyncLock: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
        /// What ends the wait at its deadline, cancelled once the lock is given.
        var timer: Task<Void, Never>?
    }

    private struct State {
        var holding = 0
        var waiters: [Waiter] = []
        var lastID: UInt64 = 0
    }

    private let state = Mutex(State())
    /// How many tasks may hold the lock at once.
    package let holders: Int

    package init(holders: Int = 1) {
        self.holders = max(1, holders)
    }

    /// How many tasks hold the lock now.
    package var holding: Int { state.withLock { $0.holding } }
    /// How many tasks wait in line now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// Takes the lock if a place is free; never waits. A place is never free while a task waits,
    /// so this never goes before the line.
    package func tryLock() -> Bool {
        state.withLock { state in
            if state.holding == holders { return false }
            state.holding += 1
            return true
        }
    }

    /// Takes the lock, suspended while others hold it.
    package func lock() async {
        _ = await lock(until: nil)
    }

    /// Takes the lock, suspended in line while others hold it, until `deadline`: then leaves the
    /// line.
    ///
    /// - Returns: whether it took the lock; `false` when the deadline passed first (at once, when
    ///   it has passed already and no place is free).
    package func lock(until deadline: ContinuousClock.Instant?) async -> Bool {
        if tryLock() { return true }
        if let deadline, deadline <= .now { return false }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> UInt64? in
                if state.holding < holders {
                    state.holding += 1
                    return nil
                }
                state.lastID += 1
                state.waiters.append(Waiter(id: state.lastID, continuation: continuation))
                return state.lastID
            }
            guard let id else { return continuation.resume(returning: true) }
            guard let deadline else { return }
            let timer = Task { [self] in
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                leaveLine(id)
            }
            let given = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return true }
                state.waiters[index].timer = timer
                return false
            }
            if given { timer.cancel() }
        }
    }

    /// Ends a wait whose deadline passed, if it still waits.
    private func leaveLine(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }

    /// Gives the place to the first waiter, or leaves it free.
    package func unlock() {
        let next = state.withLock { state -> Waiter? in
            precondition(state.holding > 0, "AsyncLock unlocked while not held")
            if state.waiters.isEmpty {
                state.holding -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        guard let next else { return }
        next.timer?.cancel()
        next.continuation.resume(returning: true)
    }
}
