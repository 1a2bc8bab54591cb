import Foundation
import Testing

@testable import FetchPredictor

/// `Blocking.onThisThread`: async steps over an SQLite connection run where GRDB gave it.
struct OnThisThreadTests {
    /// The thread's id, as pthreads gives it.
    nonisolated static func threadID() -> UInt { UInt(pthread_self()) }

    /// Waits for a resumption from a thread of Dispatch's: a real suspension.
    nonisolated static func resumedElsewhere() async -> UInt {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { continuation.resume(returning: threadID()) }
        }
    }

    nonisolated static func threadIDOfAnAsyncFunction() async -> UInt { threadID() }

    /// Runs `body` on a thread of its own, outside Swift's pool, and gives back what it returns.
    func onAThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test func everyJobRunsOnTheCallingThreadEvenAfterAWaitResumedElsewhere() async throws {
        let seen = await onAThreadOfItsOwn { () -> (caller: UInt, steps: [UInt], resumer: UInt) in
            let caller = Self.threadID()
            let outcome = try? Blocking.onThisThread { () async -> ([UInt], UInt) in
                var steps = [Self.threadID()]
                let resumer = await Self.resumedElsewhere()
                steps.append(Self.threadID())
                // Without the executor, a nonisolated async function runs on Swift's pool.
                steps.append(await Self.threadIDOfAnAsyncFunction())
                try? await Task.sleep(for: .milliseconds(5))
                steps.append(Self.threadID())
                return (steps, resumer)
            }
            return (caller, outcome?.0 ?? [], outcome?.1 ?? 0)
        }
        #expect(seen.steps.count == 4)
        #expect(seen.steps.allSatisfy { $0 == seen.caller }, "\(seen)")
        #expect(seen.resumer != seen.caller, "the wait must be resumed from another thread to test anything")
    }

    @Test func anErrorOfTheWorkIsThrownToTheCaller() async {
        struct Refused: Error {}
        let thrown = await onAThreadOfItsOwn { () -> Bool in
            do {
                _ = try Blocking.onThisThread { () async throws -> Int in
                    _ = await Self.resumedElsewhere()
                    throw Refused()
                }
                return false
            } catch {
                return error is Refused
            }
        }
        #expect(thrown)
    }
}
