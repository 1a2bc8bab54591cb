import FetchPredictorImport
import Foundation
import Synchronization

/// A file read on a thread of Dispatch's while its events are stored: the reader hands them over
/// in chunks and reads on, at most a few chunks ahead of the store. A store's import awaits each
/// chunk (a server's answer, a write) without holding up the reading, and the reading never
/// waits on the caller's thread.
package enum ReadAhead {
    /// Events in a chunk.
    package static let chunk = 4_096
    /// Chunks read ahead of the one being stored, at most: 65,536 events, more than the 50,000
    /// PostgreSQL's bulk loader sends in one `COPY`, so that the next of its chunks is read while
    /// the server stores one (with 4, its imports were 19% slower than when it read one chunk
    /// ahead itself).
    package static let ahead = 16

    /// Reads `path` with `reader`, calling `store` with each chunk of its events in order, and
    /// returns what the reader says of the file. When `store` throws, the reading stops (its
    /// thread is done before this returns) and that error is thrown; when the reading
    /// throws, the chunks before it have been stored and its error is thrown: either way, the
    /// caller rolls its transaction back. `progress` and `onReject` are called on the reader's
    /// thread.
    package static func read(
        _ path: String, with reader: LogReader, progress: (@Sendable (Int64, Int64) -> Void)?,
        onReject: (@Sendable (Rejection) -> Void)?, _ store: ([Event]) async throws -> Void
    ) async throws -> ImportReport {
        let (chunks, handOver) = AsyncThrowingStream.makeStream(of: [Event].self)
        let room = Room(chunks: ahead)
        // The reader starts on a thread of Dispatch's, not in a task: a task would wait for a
        // thread of Swift's pool, which a synchronous import's callers may all be holding.
        DispatchQueue.global().async {
            var chunk: [Event] = []
            chunk.reserveCapacity(Self.chunk)
            do {
                let read = try reader.read(path, progress: progress, onReject: onReject) { event in
                    if room.isClosed { throw CancellationError() }
                    chunk.append(event)
                    if chunk.count == Self.chunk {
                        try room.take()
                        handOver.yield(chunk)
                        chunk.removeAll(keepingCapacity: true)
                    }
                    return true
                }
                if !chunk.isEmpty {
                    try room.take()
                    handOver.yield(chunk)
                }
                room.keep(read)
                handOver.finish()
            } catch {
                handOver.finish(throwing: error)
            }
        }
        // The stream ends when the reader is done: it is the reader's last act.
        var handedOver = chunks.makeAsyncIterator()
        do {
            while let chunk = try await handedOver.next() {
                room.giveBack()
                try await store(chunk)
            }
        } catch {
            // The reader stops at its next event, and has stopped before the caller rolls back.
            room.close()
            while (try? await handedOver.next()) != nil {}
            throw error
        }
        guard let read = room.report else { throw CancellationError() }
        return read
    }

    /// The chunks the reader may still hand over before the store takes one: the reader waits
    /// for room on its own thread, and stops once the store has given up.
    private final class Room: @unchecked Sendable {
        /// Guards `free`, and wakes the reader waiting for room.
        private let condition = NSCondition()
        private var free: Int
        private let closed = Atomic(false)

        init(chunks: Int) { free = chunks }

        /// Whether the store has given up: the reader stops.
        var isClosed: Bool { closed.load(ordering: .acquiring) }

        /// Takes room for one chunk, waiting for it.
        ///
        /// - Throws: `CancellationError` once the store has given up.
        func take() throws {
            try condition.withLock {
                while free == 0, !isClosed { condition.wait() }
                if isClosed { throw CancellationError() }
                free -= 1
            }
        }

        /// Gives back the room of a chunk taken by the store.
        func giveBack() {
            condition.withLock {
                free += 1
                condition.signal()
            }
        }

        /// What the reader said of the file, once it has read it all.
        var report: ImportReport? { condition.withLock { kept } }
        private var kept: ImportReport?

        /// Keeps what the reader said of the file.
        func keep(_ report: ImportReport) { condition.withLock { kept = report } }

        /// Stops the reader at its next event.
        func close() {
            condition.withLock {
                closed.store(true, ordering: .releasing)
                condition.broadcast()
            }
        }
    }
}
