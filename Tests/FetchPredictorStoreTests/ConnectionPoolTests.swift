import FetchPredictorTestSupport
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Testing

@testable import FetchPredictor
@testable import FetchPredictorPostgres

/// The PostgreSQL store's pool: a caller that finds every connection taken waits suspended,
/// gets the first connection given back, and gives up after its wait with a message that says so.
@Suite(.enabled(if: TestCluster.shared.isAvailable))
struct ConnectionPoolTests {
    func pool(connections: Int, wait: TimeInterval) throws -> ConnectionPool {
        let url = try DatabaseURL(try TestCluster.shared.newDatabase())
        return ConnectionPool(
            configuration: try url.configuration(), group: MultiThreadedEventLoopGroup.singleton,
            maximum: connections, waitTimeout: wait, location: url.location, logger: Logger(label: "test"))
    }

    @Test func aCallerWaitsForTheFirstConnectionGivenBack() async throws {
        let pool = try pool(connections: 1, wait: 60)
        let first = await Held(from: pool)
        // The only connection is taken: the second caller waits until it is given back.
        let second = Task { try await pool.withConnection { $0.id } }
        await Self.untilOneWaits(in: pool)
        try await first.giveBack()
        // The same connection, given back, not a new one.
        #expect(try await second.value == first.id)
    }

    @Test func aWaitEndsAfterTheLimitWithAMessage() async throws {
        let pool = try pool(connections: 1, wait: 1)
        let first = await Held(from: pool)
        await #expect {
            try await pool.withConnection { _ in }
        } throws: { error in
            guard case StoreError.unavailable(_, let detail) = error else { return false }
            return detail == "all 1 connections stayed busy for 1 seconds"
        }
        try await first.giveBack()
        // The caller that gave up is not handed the connection: the next one gets it at once.
        try await pool.withConnection { connection in #expect(connection.id == first.id) }
    }

    @Test func aCancelledWaitLeavesTheQueue() async throws {
        let pool = try pool(connections: 1, wait: 60)
        let first = await Held(from: pool)
        let cancelled = Task { try await pool.withConnection { _ in } }
        await Self.untilOneWaits(in: pool)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(pool.callersWaiting == 0)
        try await first.giveBack()
        try await pool.withConnection { connection in #expect(connection.id == first.id) }
    }

    /// A connection of the pool, taken by a task and held until given back.
    struct Held {
        let id: Int
        private let task: Task<Void, any Error>
        private let release: AsyncStream<Void>.Continuation

        /// Returns once the connection is taken.
        init(from pool: ConnectionPool) async {
            let (taken, taking) = AsyncStream.makeStream(of: Int.self)
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            task = Task {
                try await pool.withConnection { connection in
                    taking.yield(connection.id)
                    for await _ in released { break }
                }
            }
            var iterator = taken.makeAsyncIterator()
            id = await iterator.next() ?? -1
            self.release = release
        }

        /// Gives the connection back, and returns once it is.
        func giveBack() async throws {
            release.yield()
            try await task.value
        }
    }

    /// Returns once a caller is queued for a connection.
    static func untilOneWaits(in pool: ConnectionPool) async {
        while pool.callersWaiting == 0 { await Task.yield() }
    }
}
