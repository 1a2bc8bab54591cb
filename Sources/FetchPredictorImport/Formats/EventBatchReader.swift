import FetchPredictorCore

/// Reads a batch of events sent as JSON, `{"events": [...]}`, each object a line of the `jsonl`
/// format: what the HTTP service takes. A batch is read whole or refused whole: the first
/// problem is returned with the event's position and field, and no event.
///
/// Unlike a log file, a batch names no device: the caller does. Its timestamps are instants, as
/// the `jsonl` format's are: a time without `Z` or an offset is refused.
public enum EventBatchReader {
    /// Why a batch was refused: the field at fault, as a path such as `events[3].timestamp`
    /// (`nil` when the body as a whole is at fault), and why.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The field at fault, or `nil` for the whole body.
        public var field: String?
        /// Why, in a sentence without a final period.
        public var reason: String
        /// Whether the batch holds more events than allowed.
        public var isTooLarge: Bool = false

        public var description: String { field.map { "\($0): \(reason)" } ?? reason }
    }

    /// The deepest nesting a batch may have: an object, its array, the flat events.
    static let maximumDepth = 8

    /// The events of a batch, in the order sent, or the first problem of the batch.
    ///
    /// - Parameters:
    ///   - bytes: the JSON text.
    ///   - maximumEvents: the most events a batch may hold.
    public static func read(_ bytes: [UInt8], maximumEvents: Int) -> Result<[Event], Problem> {
        let value: JSONValue
        do {
            value = try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(bytes: buffer, name: "body", line: 1, maximumDepth: maximumDepth)
                let value = try reader.readValue()
                try reader.expectEnd()
                return value
            }
        } catch let error as ImportError {
            if case .malformed(_, let line, let reason) = error {
                return .failure(Problem(field: nil, reason: "the body is not valid JSON: \(reason) (line \(line))"))
            }
            return .failure(Problem(field: nil, reason: "the body is not valid JSON"))
        } catch {
            return .failure(Problem(field: nil, reason: "the body is not valid JSON"))
        }
        guard case .object(let members) = value else {
            return .failure(Problem(field: nil, reason: "the body is not a JSON object with an 'events' array"))
        }
        if let other = members.keys.sorted().first(where: { $0 != "events" }) {
            return .failure(Problem(field: other, reason: "unknown field '\(other)': the body holds only 'events'"))
        }
        guard case .array(let items)? = members["events"] else {
            return .failure(Problem(field: "events", reason: "'events' must be an array of event objects"))
        }
        if items.count > maximumEvents {
            return .failure(
                Problem(
                    field: "events",
                    reason:
                        "the batch holds \(items.count) events, more than the \(maximumEvents) allowed: send it in parts",
                    isTooLarge: true))
        }
        var events: [Event] = []
        events.reserveCapacity(items.count)
        var problem: Problem?
        let sink = ImportSink(file: "body", skipInvalid: false, rejectionsKept: 1, onReject: nil) { event in
            events.append(event)
            return true
        }
        for (index, item) in items.enumerated() {
            guard case .object(let object) = item else {
                return .failure(Problem(field: "events[\(index)]", reason: "the event is not a JSON object"))
            }
            if let device = object["device"], device != .null {
                return .failure(
                    Problem(
                        field: "events[\(index)].device", reason: "the device is named by the path, not by the event"))
            }
            do {
                try JSONLinesParser.readObject(object, line: index, sink: sink)
            } catch {
                problem = Problem(field: "events[\(index)]", reason: "\(error)")
            }
            if let rejection = sink.firstRejections.first {
                return .failure(Problem(field: "events[\(index)].\(rejection.field)", reason: rejection.reason))
            }
            if let problem { return .failure(problem) }
        }
        return .success(events)
    }
}
