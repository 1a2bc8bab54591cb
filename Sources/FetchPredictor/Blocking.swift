import Foundation

/// Waits on the calling thread for async work: where synchronous code meets async code, at the
/// command line's edge (`CommandEdge`) and in the PostgreSQL store's synchronous roles until
/// they are async. Never call it on Swift's cooperative pool: the thread it holds may be the one
/// the work needs.
package enum Blocking {
    /// Runs `work` in a task, on `executor` when one is given, and waits for its outcome.
    package static func wait<T: Sendable>(
        preferring executor: (any TaskExecutor)? = nil, _ work: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            outcome.set(result)
        }
        return try outcome.wait().get()
    }

    /// Runs synchronous work that may wait (on a server, a file's lock) on a thread of
    /// Dispatch's, the calling task suspended meanwhile: for a store's step whose rule is not
    /// async yet, called from async code, which must not hold a thread of Swift's cooperative pool.
    package static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// One result, set once by a task and waited for by a thread.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: Result<T, any Error>?

        func set(_ value: Result<T, any Error>) {
            condition.withLock {
                result = value
                condition.signal()
            }
        }

        func wait() -> Result<T, any Error> {
            condition.withLock {
                while result == nil { condition.wait() }
                return result!
            }
        }
    }
}

/// Runs a task's jobs on a concurrent Dispatch queue of its own, outside Swift's cooperative
/// pool: for tasks that a thread blocks on (``Blocking/wait(preferring:_:)``), which must not need
/// a thread of the pool that the blocked thread may be.
package final class DispatchExecutor: TaskExecutor {
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
