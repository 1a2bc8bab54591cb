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
    /// - Throws: ``RecordError`` when the event breaks ``EventLimits``.
    @discardableResult
    public func record(_ event: Event, device: String, newDeviceTimeZone: TimeZone? = nil) throws -> Bool {
        if !event.kind.isDeviceEvent, let problem = EventLimits.problem(withAppName: event.app) {
            throw RecordError.invalid(field: "app", reason: problem)
        }
        if let problem = EventLimits.problem(withTime: event.time) {
            throw RecordError.invalid(field: "time", reason: problem)
        }
        if let duration = event.duration, let problem = EventLimits.problem(withDuration: duration) {
            throw RecordError.invalid(field: "duration", reason: problem)
        }
        if event.kind == .fetch, event.result == nil {
            throw RecordError.invalid(field: "result", reason: "a fetch needs a result")
        }
        return try write { db in
            let writer = try EventWriter(db, newDeviceTimeZone: newDeviceTimeZone.map { (device, $0.identifier) })
            let stored = try writer.insert(event, device: device)
            try writer.invalidateLearnedModels()
            return stored
        }
    }
}
