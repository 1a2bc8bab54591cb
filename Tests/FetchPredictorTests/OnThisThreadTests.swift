import FetchPredictorTestSupport
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

    /// A synchronous import ends while every thread of Swift's pool is held: its steps run on
    /// GRDB's thread and its file is read on a thread of Dispatch's, never in a task, which would
    /// wait for a thread of the pool (with the reader in a task, the test suite hung once two of
    /// its tests' synchronous imports held both threads of a 2-core machine's pool).
    @Test func aSynchronousImportEndsWhileEveryThreadOfThePoolIsHeld() async throws {
        // Several chunks of the reader's, so that the import waits for it more than once.
        let launches = 3 * ReadAhead.chunk
        var rows = "time,app,event\n"
        for minute in 0..<launches {
            let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(minute) * 60)
            rows += "\(time.ISO8601Format()),app\(minute % 7),launch\n"
        }
        let path = TestFiles.write(rows)
        let store = try EventStore.inMemory()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let stored = await onAThreadOfItsOwn { () -> Int? in
            let width = ProcessInfo.processInfo.activeProcessorCount
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            for _ in 0..<width {
                Task.detached {
                    held.signal()
                    release.wait()
                }
            }
            for _ in 0..<width { held.wait() }
            defer { for _ in 0..<width { release.signal() } }
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var stored: Int?
            Thread {
                stored = try? store.importFile(path, options: ImportOptions(device: "phone"), now: now).stored
                done.signal()
            }.start()
            return done.wait(timeout: .now() + 60) == .success ? stored : nil
        }
        #expect(stored == launches, "the import did not end while the pool was held")
    }
}
