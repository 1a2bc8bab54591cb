import FetchPredictorImport
import Foundation
import Synchronization

/// The events of a store: recorded in batches, read in the order a model learns them, counted per
/// app, exported, and pruned by age. One role of ``EventStoring``.
public protocol EventKeeping: AnyObject, Sendable {
    /// Records a batch of events of one device, all or none: when one breaks `EventLimits`,
    /// nothing is stored and the error names its position in the batch. The device is created
    /// (with no time zone) when new; an event's own `device` is ignored. A stored event bumps the
    /// device's version; an event older than a cached model drops that model.
    ///
    /// - Throws: ``InvalidFieldError/invalidInBatch(index:field:reason:)`` for the first invalid event.
    @discardableResult
    func record(_ events: [Event], device: String) async throws -> RecordedBatch

    /// How many of a device's events a model learns from (launches, fetches and its state) are
    /// after `time`, up to `end` (included), counting no further than `limit`: the answer is at
    /// most `limit`, and costs no more than reading that many.
    func eventCount(
        device: String, after time: Milliseconds, through end: Milliseconds, atMost limit: Int
    ) async throws -> Int

    /// Calls `body` with every launch and fetch of a device after `time`, up to `end` (included),
    /// in time order, a launch before a fetch at the same instant, then by app (in byte order):
    /// the order ``FetchScheduler`` learns in. `body` may run on a thread of the store's, not the
    /// caller's, as learning from a million events does not hold up a caller's thread.
    func forEachEvent(
        device: String, after time: Milliseconds, through end: Milliseconds,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws

    /// Every app of a device (or of all devices), with its settings and event counts, sorted by
    /// device, then by launches (most first), then by name, names in byte order.
    ///
    /// As of a time, only the events before it are counted (`Date.knownThrough`), and apps with none of them
    /// and no setting of their own are left out: the answer of a store holding only those events.
    func apps(device: String?, asOf time: Date?) async throws -> [AppSummary]

    /// Calls `body` with the stored events of one device (or of all), of every kind, each naming
    /// its device, ordered by device, time, kind (by name) and app, names in byte order: what
    /// `fetchpredict export` writes. Memory stays flat however many there are.
    ///
    /// - Parameters:
    ///   - device: the device; `nil` for every device.
    ///   - start: the earliest time kept (included); `nil` for no bound.
    ///   - end: the time events must be before; `nil` for no bound.
    ///   - body: called with each event, in that order, maybe on a thread of the store's.
    func forEachStoredEvent(
        device: String?, from start: Milliseconds?, to end: Milliseconds?,
        _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws

    /// Deletes for good every event before an instant, of one device or of all, and the learned
    /// models that remember them.
    ///
    /// - Parameters:
    ///   - time: events before it go.
    ///   - device: the device; `nil` for every device.
    ///   - dryRun: count what would go, and change nothing.
    func prune(before time: Milliseconds, device: String?, dryRun: Bool) async throws -> PruneReport
}

extension EventKeeping {
    /// Whether a device has an event a model learns from after `time`, up to `end` (included).
    public func hasEvents(device: String, after time: Milliseconds, through end: Milliseconds = .max)
        async throws -> Bool
    {
        try await eventCount(device: device, after: time, through: end, atMost: 1) > 0
    }

    /// Every launch and fetch of a device after `time`, in learning order.
    public func forEachEvent(
        device: String, after time: Milliseconds, _ body: @escaping @Sendable (Event) throws -> Void
    ) async throws {
        try await forEachEvent(device: device, after: time, through: .max, body)
    }

    /// Every app of every device, counting every event.
    public func apps() async throws -> [AppSummary] { try await apps(device: nil, asOf: nil) }

    /// Every app of a device, counting every event.
    public func apps(device: String) async throws -> [AppSummary] { try await apps(device: device, asOf: nil) }

    /// Deletes for good every event before an instant, of one device or of all (`nil`).
    public func prune(before time: Milliseconds, device: String?) async throws -> PruneReport {
        try await prune(before: time, device: device, dryRun: false)
    }

    /// Every event of a device in time order (then by kind and app), each naming no device;
    /// from `start` (included) and before `end` when given.
    public func events(device: String, from start: Milliseconds? = nil, to end: Milliseconds? = nil)
        async throws -> [Event]
    {
        let events = Mutex<[Event]>([])
        try await forEachStoredEvent(device: device, from: start, to: end) { event in
            var event = event
            event.device = nil
            events.withLock { $0.append(event) }
        }
        return events.withLock { $0 }
    }

    /// Records one event of a device, created when new.
    ///
    /// - Returns: `true` when it was stored, `false` when the same event was there already.
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the event breaks `EventLimits`.
    @discardableResult
    public func record(_ event: Event, device: String) async throws -> Bool {
        if let (field, reason) = EventLimits.problem(with: event, timeField: "time") {
            throw InvalidFieldError.invalid(field: field, reason: reason)
        }
        return try await record([event], device: device).stored == 1
    }
}
