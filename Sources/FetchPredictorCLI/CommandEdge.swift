import ArgumentParser
import Foundation

/// Where the command line waits for the library: a command whose work is async
/// (`AsyncParsableCommand`) runs in a task while the process's first thread waits for it, the
/// one place where the command line blocks; any other command runs on that thread.
enum CommandEdge {
    /// How the command's output ended.
    enum Output: Equatable {
        case written
        /// Standard output is a pipe whose reader went away (`export | head`).
        case readerGone
    }

    /// Runs a parsed command, then flushes what it printed, on the thread that printed it:
    /// errno is that thread's, EPIPE a write of its own to a pipe, and the only pipe it writes is
    /// standard output.
    static func run(_ command: any ParsableCommand) throws -> Output {
        guard let asyncCommand = command as? any AsyncParsableCommand else {
            var command = command
            errno = 0
            try command.run()
            return flushed()
        }
        let running = Running(asyncCommand)
        Task.detached { await running.start() }
        return try running.wait().get()
    }

    private static func flushed() -> Output {
        _ = fflush(nil)
        return errno == EPIPE ? .readerGone : .written
    }

    /// An async command, run once in a task while a thread waits for its outcome.
    private final class Running: @unchecked Sendable {
        private var command: any AsyncParsableCommand
        private let condition = NSCondition()
        private var outcome: Result<Output, any Error>?

        init(_ command: any AsyncParsableCommand) {
            self.command = command
        }

        func start() async {
            let result: Result<Output, any Error>
            do {
                errno = 0
                try await command.run()
                result = .success(CommandEdge.flushed())
            } catch {
                result = .failure(error)
            }
            condition.withLock {
                outcome = result
                condition.signal()
            }
        }

        func wait() -> Result<Output, any Error> {
            condition.withLock {
                while outcome == nil { condition.wait() }
                return outcome!
            }
        }
    }
}
