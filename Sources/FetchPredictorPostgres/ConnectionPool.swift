import FetchPredictor
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A bounded pool of connections to one PostgreSQL server, used from synchronous code: a caller
/// takes a connection, waits on it, and gives it back. At most `maximum` are open; a caller that
/// finds them all taken waits up to `waitTimeout`, then gets ``StoreError/unavailable(location:detail:)``.
///
/// A connection the server closed (a restart, a failover) is dropped when it is given back, and
/// the next caller opens a new one: the pool mends itself without a restart of the process.
final class ConnectionPool: @unchecked Sendable {
    private let configuration: PostgresConnection.Configuration
    private let group: any EventLoopGroup
    private let logger: Logger
    /// The most connections open at once.
    let maximum: Int
    /// How long a caller waits for a connection when all are taken.
    let waitTimeout: TimeInterval
    /// Where the pool connects, for messages.
    let location: String

    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    private var closed = false

    init(
        configuration: PostgresConnection.Configuration, group: any EventLoopGroup, maximum: Int,
        waitTimeout: TimeInterval, location: String, logger: Logger
    ) {
        self.configuration = configuration
        self.group = group
        self.maximum = max(1, maximum)
        self.waitTimeout = waitTimeout
        self.location = location
        self.logger = logger
    }

    /// Runs `body` with a connection of the pool, given back afterwards.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        return try body(connection)
    }

    /// Closes every idle connection; the pool takes no more callers.
    func close() {
        let connections = condition.withLock {
            closed = true
            defer { idle = [] }
            return idle
        }
        for connection in connections { try? connection.close().wait() }
    }

    /// What a caller gets: an idle connection, or the right to open a new one with an id.
    private enum Slot {
        case idle(PostgresConnection)
        case new(id: Int)
    }

    private func take() throws -> PostgresConnection {
        let deadline = Date().addingTimeInterval(waitTimeout)
        let slot: Slot = try condition.withLock {
            while true {
                if closed { throw StoreError.unavailable(location: location, detail: "the store was closed") }
                while let connection = idle.popLast() {
                    if !connection.isClosed { return .idle(connection) }
                    open -= 1
                }
                if open < maximum {
                    open += 1
                    nextID += 1
                    return .new(id: nextID)
                }
                if !condition.wait(until: deadline) {
                    throw StoreError.unavailable(
                        location: location,
                        detail: "all \(maximum) connections stayed busy for \(Int(waitTimeout)) seconds")
                }
            }
        }
        let id: Int
        switch slot {
        case .idle(let connection): return connection
        case .new(let newID): id = newID
        }
        do {
            return try PostgresConnection.connect(
                on: group.next(), configuration: configuration, id: id, logger: logger
            ).wait()
        } catch {
            condition.withLock {
                open -= 1
                condition.signal()
            }
            throw PostgresEventStore.storeError(error, location: location)
        }
    }

    private func giveBack(_ connection: PostgresConnection) {
        condition.withLock {
            if connection.isClosed || closed {
                open -= 1
            } else {
                idle.append(connection)
            }
            condition.signal()
        }
        if closed, !connection.isClosed { try? connection.close().wait() }
    }
}
