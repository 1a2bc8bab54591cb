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
