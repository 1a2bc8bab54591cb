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
        let (held, holding) = AsyncStream.makeStream(of: Int.self)
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await pool.withConnection { connection in
                holding.yield(connection.id)
                for await _ in release { break }
                return connection.id
            }
        }
        var heldIterator = held.makeAsyncIterator()
        let firstID = await heldIterator.next()
        // The only connection is taken: the second caller waits until it is given back.
        let second = Task { try await pool.withConnection { $0.id } }
        await Self.untilOneWaits(in: pool)
        releasing.yield()
        #expect(try await first.value == firstID)
        // The same connection, given back, not a new one.
        #expect(try await second.value == firstID)
    }

    @Test func aWaitEndsAfterTheLimitWithAMessage() async throws {
        let pool = try pool(connections: 1, wait: 1)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await pool.withConnection { _ in
                holding.yield()
                for await _ in release { break }
            }
        }
        var heldIterator = held.makeAsyncIterator()
        await heldIterator.next()
        await #expect {
            try await pool.withConnection { _ in }
        } throws: { error in
            guard case StoreError.unavailable(_, let detail) = error else { return false }
            return detail == "all 1 connections stayed busy for 1 seconds"
        }
        releasing.yield()
        try await first.value
        // The caller that gave up is not handed the connection: the next one gets it at once.
        try await pool.withConnection { connection in #expect(!connection.isClosed) }
    }

    @Test func aCancelledWaitLeavesTheQueue() async throws {
        let pool = try pool(connections: 1, wait: 60)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await pool.withConnection { _ in
                holding.yield()
                for await _ in release { break }
            }
        }
        var heldIterator = held.makeAsyncIterator()
        await heldIterator.next()
        let cancelled = Task { try await pool.withConnection { _ in } }
        await Self.untilOneWaits(in: pool)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(pool.callersWaiting == 0)
        releasing.yield()
        try await first.value
        try await pool.withConnection { connection in #expect(!connection.isClosed) }
    }

    @Test func aSynchronousCallerWaitsOnItsThread() throws {
        let pool = try pool(connections: 2, wait: 10)
        let ids = try (0..<4).map { _ in try pool.withConnectionWaiting { $0.id } }
        // One connection, taken and given back four times.
        #expect(Set(ids).count == 1)
    }

    /// Returns once a caller is queued for a connection.
    static func untilOneWaits(in pool: ConnectionPool) async {
        while pool.callersWaiting == 0 { await Task.yield() }
    }
}
