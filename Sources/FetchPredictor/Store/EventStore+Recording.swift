import Foundation
import GRDB

extension EventStore {
    /// Records one event: a launch, a fetch result or a device event.
    ///
    /// - Parameters:
    ///   - event: what happened.
    ///   - device: the device it happened on, created when new.
    ///   - newDeviceTimeZone: the zone given to the device when this creates it.
    /// - Returns: `true` when it was stored, `false` when the same event was there already.
    /// - Throws: ``InvalidFieldError`` when the event breaks `EventLimits`.
    @discardableResult
    public func record(_ event: Event, device: String, newDeviceTimeZone: TimeZone? = nil) throws -> Bool {
        if let (field, reason) = StoreRules.problem(with: event, timeField: "time") {
            throw InvalidFieldError.invalid(field: field, reason: reason)
        }
        return try write { db in
            let writer = try EventWriter(db, newDeviceTimeZone: newDeviceTimeZone.map { (device, $0.identifier) })
            let stored = try writer.insert(event, device: device)
            try writer.invalidateLearnedModels()
            return stored
        }
    }

    /// Records a batch of events of one device, all or none: when one breaks `EventLimits`,
    /// nothing is stored and the error names its position in the batch.
    ///
    /// - Parameters:
    ///   - events: what happened, in any order; an event's own `device` is ignored.
    ///   - device: the device they happened on, created (with no time zone) when new.
    /// - Returns: how many were stored and how many were there already.
    /// - Throws: ``InvalidFieldError/invalidInBatch(index:field:reason:)`` for the first invalid event.
    @discardableResult
    public func record(_ events: [Event], device: String) throws -> RecordedBatch {
        for (index, event) in events.enumerated() {
            if let (field, reason) = StoreRules.problem(with: event) {
                throw InvalidFieldError.invalidInBatch(index: index, field: field, reason: reason)
            }
        }
        return try write { db in
            let writer = try EventWriter(db, newDeviceTimeZone: nil)
            var stored = 0
            for var event in events {
                event.device = nil
                if try writer.insert(event, device: device) { stored += 1 }
            }
            try writer.invalidateLearnedModels()
            let version = try Int64.fetchOne(db, sql: "SELECT version FROM device WHERE name = ?", arguments: [device])
            return RecordedBatch(stored: stored, duplicates: events.count - stored, version: version ?? 0)
        }
    }

}

/// What a batch of events did to the store.
public struct RecordedBatch: Sendable, Hashable, Codable {
    /// Events stored for the first time.
    public var stored: Int
    /// Events that were stored already, and were not stored again.
    public var duplicates: Int
    /// The device's version after the write.
    public var version: Int64

    /// Creates a value with every field given.
    public init(stored: Int, duplicates: Int, version: Int64) {
        self.stored = stored
        self.duplicates = duplicates
        self.version = version
    }
}
