import FetchPredictor
import Synchronization

extension EventKeeping {
    /// The events ``EventKeeping/forEachEvent(device:after:through:_:)`` calls its body with, in
    /// its order: what a test compares, where the body may run on a thread of the store's.
    public func learningEvents(
        device: String, after time: Milliseconds, through end: Milliseconds = .max
    ) async throws -> [Event] {
        let events = Mutex<[Event]>([])
        try await forEachEvent(device: device, after: time, through: end) { event in
            events.withLock { $0.append(event) }
        }
        return events.withLock { $0 }
    }
}
