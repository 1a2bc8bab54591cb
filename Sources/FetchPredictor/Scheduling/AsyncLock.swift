import Synchronization

/// A lock that a task waits for suspended, holding no thread, and may hold across suspensions:
/// a device's store reads, learning and planning. Waiters take it in the order they came; the
/// one that unlocks hands it to the first of them.
///
/// A wait is not cancelled with its task: it ends when the lock is given, as every query of a
/// device is short unless it learns, and learning is bounded by the caller's admission.
final class AsyncLock: Sendable {
    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Takes the lock if no one holds it; never waits.
    func tryLock() -> Bool {
        state.withLock { state in
            if state.held { return false }
            state.held = true
            return true
        }
    }

    /// Takes the lock, suspended while another holds it.
    func lock() async {
        if tryLock() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let taken = state.withLock { state in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if taken { continuation.resume() }
        }
    }

    /// Gives the lock to the first waiter, or leaves it free.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            precondition(state.held, "AsyncLock unlocked while not held")
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
