import Foundation

/// Waits on the calling thread for async work: where synchronous code meets async code, at the
/// command line's edge (`CommandEdge`), opening a PostgreSQL store (its migrations), and an
/// SQLite store's async steps on GRDB's writer (``onThisThread(_:)``). Never call
/// ``wait(preferring:_:)`` on Swift's cooperative pool without an executor of its own: the thread
/// it holds may be the one the work needs.
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

    /// Runs synchronous work that is long or waits on a thread of Dispatch's, the calling task
    /// suspended meanwhile: learning from a million rows of PostgreSQL's; async code must not
    /// hold a thread of Swift's cooperative pool that long. (A file to import is read on such a
    /// thread too, by ``ReadAhead``, which hands its events over as it reads.)
    package static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs async work to its end on the calling thread, which it holds meanwhile: the work's
    /// every job (its start, and each resumption after it waited for another thread) runs here,
    /// in turn. For async steps over a handle bound to one thread: an SQLite connection inside a
    /// GRDB access, whose queue checks that it alone uses it. Like ``wait(preferring:_:)``,
    /// never on Swift's cooperative pool.
    package static func onThisThread<T>(_ work: @escaping () async throws -> T) throws -> T {
        let executor = ThisThreadExecutor()
        let run = Unchecked(work)
        let outcome = Unchecked<Result<T, any Error>?>(nil)
        Task(executorPreference: executor) {
            do {
                outcome.value = .success(try await run.value())
            } catch {
                outcome.value = .failure(error)
            }
            executor.finish()
        }
        executor.runUntilFinished()
        return try outcome.value!.get()
    }

    /// A value handed between the jobs of ``onThisThread(_:)``, which all run on one thread.
    private final class Unchecked<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
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

/// Runs a task's jobs on the thread that calls ``runUntilFinished()``, one after another, until
/// ``finish()``: what ``Blocking/onThisThread(_:)`` runs its work on.
private final class ThisThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Ends ``runUntilFinished()`` once the jobs enqueued are run.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    func runUntilFinished() {
        while true {
            let next: UnownedJob? = condition.withLock {
                while jobs.isEmpty, !finished { condition.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
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
