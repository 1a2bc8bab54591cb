import FetchPredictor
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A bounded pool of connections to one PostgreSQL server: a caller takes a connection, uses
/// it, and gives it back. At most `maximum` are open; a caller that finds them all taken waits,
/// suspended, up to `waitTimeout`, then gets ``StoreError/unavailable(location:detail:)``.
///
/// A connection the server closed (a restart, a failover) is dropped when it is given back, and
/// the next caller opens a new one: the pool mends itself without a restart of the process.
///
/// Why not postgres-nio's `PostgresClient`, which is a pool too: tried (docs/experiments.md,
/// "PostgresClient through an outage"), its version 1.33.2 keeps a caller waiting 60 seconds
/// while the server is down, then fails it with no cause ("circuit breaker tripped", where this
/// pool says "connection refused" or "database does not exist" at once), and after the server
/// is back it fails callers until its next try to connect, seconds later.
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

    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    private var closed = false
    /// The callers waiting for a connection, first come first served.
    private var waiting: [(id: Int, continuation: CheckedContinuation<Slot, any Error>)] = []
    private var nextWaiter = 0

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

    deinit {
        close()
    }

    /// Runs `body` with a connection of the pool, given back afterwards.
    func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await take()
        defer { giveBack(connection) }
        return try await body(connection)
    }

    /// How many callers wait for a connection now.
    var callersWaiting: Int { lock.withLock { waiting.count } }

    /// Closes every idle connection and fails every waiting caller; the pool takes no more.
    func close() {
        let (connections, waiters) = lock.withLock {
            closed = true
            defer {
                idle = []
                waiting = []
            }
            return (idle, waiting)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: closedError) }
        for connection in connections { Self.close(connection) }
    }

    /// Closes a connection without waiting, keeping it until it is closed: the driver asserts
    /// that no connection is let go open.
    private static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private var closedError: StoreError { .unavailable(location: location, detail: "the store was closed") }

    /// What a caller gets: an idle connection, or the right to open a new one with an id.
    private enum Slot: Sendable {
        case idle(PostgresConnection)
        case new(id: Int)
    }

    private func take() async throws -> PostgresConnection {
        let slot: Slot
        switch try lock.withLock({ try immediateSlot() }) {
        case .some(let found): slot = found
        case .none: slot = try await waitForSlot()
        }
        switch slot {
        case .idle(let connection):
            return connection
        case .new(let id):
            do {
                return try await PostgresConnection.connect(
                    on: group.next(), configuration: configuration, id: id, logger: logger
                ).get()
            } catch {
                release(slotOf: nil)
                throw PostgresEventStore.storeError(error, location: location)
            }
        }
    }

    /// An idle connection, or a new one's id while fewer than `maximum` are open; `nil` when the
    /// caller must wait. Called with the lock held.
    private func immediateSlot() throws -> Slot? {
        if closed { throw closedError }
        while let connection = idle.popLast() {
            if !connection.isClosed { return .idle(connection) }
            open -= 1
        }
        guard open < maximum else { return nil }
        open += 1
        nextID += 1
        return .new(id: nextID)
    }

    /// Waits, suspended, for a connection given back, up to `waitTimeout`.
    private func waitForSlot() async throws -> Slot {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        // The clock that ends the wait: an event loop's timer, taken off the loop's timers when
        // the wait ends otherwise. (A task sleeping for it, `Task.sleep`, one for each wait,
        // hundreds a second under load, came with stalls of seconds: docs/experiments.md,
        // 2026-11-28, evening.)
        let clock = group.next().scheduleTask(in: .nanoseconds(Int64(waitTimeout * 1_000_000_000))) {
            self.stopWaiting(
                id,
                with: StoreError.unavailable(
                    location: self.location,
                    detail: "all \(self.maximum) connections stayed busy for \(Int(self.waitTimeout)) seconds"))
        }
        defer { clock.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let slot: Result<Slot?, any Error> = lock.withLock {
                    // A connection may have come back between the first look and now; a caller
                    // cancelled before it queues is not queued (the handler found no one).
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let slot = Result { try immediateSlot() }
                    if case .success(.none) = slot { waiting.append((id, continuation)) }
                    return slot
                }
                switch slot {
                case .success(.some(let found)): continuation.resume(returning: found)
                case .success(.none): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            stopWaiting(id, with: CancellationError())
        }
    }

    /// Ends a caller's wait with `error`, unless it got a connection already.
    private func stopWaiting(_ id: Int, with error: any Error) {
        let waiter = lock.withLock { () -> CheckedContinuation<Slot, any Error>? in
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: index).continuation
        }
        waiter?.resume(throwing: error)
    }

    private func giveBack(_ connection: PostgresConnection) {
        release(slotOf: connection)
    }

    /// Hands a connection given back, or the slot of one that closed or never opened, to the
    /// first waiting caller, or keeps it idle.
    private func release(slotOf connection: PostgresConnection?) {
        let usable = connection.flatMap { $0.isClosed ? nil : $0 }
        let (waiter, closeIt): (CheckedContinuation<Slot, any Error>?, Slot?) = lock.withLock {
            if closed {
                open -= 1
                return (nil, usable.map { .idle($0) })
            }
            if !waiting.isEmpty {
                let waiter = waiting.removeFirst().continuation
                if let usable { return (waiter, .idle(usable)) }
                nextID += 1
                return (waiter, .new(id: nextID))
            }
            if let usable { idle.append(usable) } else { open -= 1 }
            return (nil, nil)
        }
        switch (waiter, closeIt) {
        case (let waiter?, let slot?): waiter.resume(returning: slot)
        case (nil, .idle(let connection)?): Self.close(connection)
        default: break
        }
    }
}
