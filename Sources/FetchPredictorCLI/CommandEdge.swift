import ArgumentParser
import FetchPredictor
import Foundation

/// Where the command line waits for the library: a command whose work is async
/// (`AsyncParsableCommand`) runs in a task while the process's first thread waits for it, the
/// one place where the command line blocks; any other command runs on that thread.
enum CommandEdge {
    /// How the command's output ended.
    enum Output: Equatable, Sendable {
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
        return try Blocking.wait { try await running.run() }
    }

    private static func flushed() -> Output {
        _ = fflush(nil)
        return errno == EPIPE ? .readerGone : .written
    }

    /// An async command, run once by the task that ``run(_:)`` waits for.
    private final class Running: @unchecked Sendable {
        private var command: any AsyncParsableCommand

        init(_ command: any AsyncParsableCommand) {
            self.command = command
        }

        func run() async throws -> Output {
            errno = 0
            try await command.run()
            return CommandEdge.flushed()
        }
    }
}
