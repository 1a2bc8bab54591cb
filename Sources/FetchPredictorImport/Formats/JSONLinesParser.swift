import FetchPredictorCore

/// Reads the `jsonl` format: one JSON object a line with the fields of the csv format,
/// `timestamp` (ISO 8601 text or Unix seconds as a number), `app`, `event`, and optionally
/// `result`, `duration`, `bytes`, `value` (a battery level as a number, a network as text) and
/// `device`; any other key is refused. Blank lines are skipped.
///
/// Each line goes through the same ``JSONReader`` as ActivityWatch exports, with a tighter
/// nesting limit: the format's objects are flat.
struct JSONLinesParser: LogParser {
    /// The deepest nesting a line may have.
    static let maximumDepth = 16

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        let splitter = LineSplitter(source)
        var sawLine = false
        try splitter.forEachLine { line, number in
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
            sawLine = true
            sink.countRow()
            switch Self.object(line, name: source.name, line: number) {
            case .failure(let problem):
                sink.reject(line: number, field: "(line)", reason: problem.reason)
            case .success(let object):
                try Self.readObject(object, line: number, sink: sink)
            }
            return true
        }
        if !sawLine { throw ImportError.empty(file: source.name) }
    }

    /// The line as a JSON object, or why it is not one.
    static func object(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String = "", line: Int = 1
    ) -> Result<[String: JSONValue], ImportError.HeaderProblem> {
        var reader = JSONReader(bytes: bytes, name: name, line: line, maximumDepth: maximumDepth)
        let value: JSONValue
        do {
            value = try reader.readValue()
            try reader.expectEnd()
        } catch let error as ImportError {
            guard case .malformed(_, _, let reason) = error else { return .failure(.init(reason: "\(error)")) }
            return .failure(.init(reason: "the line is not valid JSON: \(reason)"))
        } catch {
            return .failure(.init(reason: "the line is not valid JSON"))
        }
        guard case .object(let members) = value else {
            return .failure(.init(reason: "the line is JSON but not an object"))
        }
        return .success(members)
    }

    /// The keys an event object may hold (`time` is read as `timestamp`).
    static let keys = ["timestamp", "time", "app", "event", "result", "duration", "bytes", "value", "device"]

    static func readObject(_ object: [String: JSONValue], line: Int, sink: ImportSink) throws {
        // A key no event has is refused, not dropped: a misspelt one would lose what it held.
        if let key = object.keys.sorted().first(where: { !keys.contains($0) }) {
            return sink.reject(
                line: line, field: String(key.prefix(40)),
                reason: FieldNames.notAField(key, known: keys.filter { $0 != "time" }))
        }
        let time: Timestamp
        switch object["timestamp"] ?? object["time"] {
        case nil:
            return sink.reject(line: line, field: "timestamp", reason: "the object has no 'timestamp'")
        case .number(let seconds)?:
            guard let milliseconds = Milliseconds(exactly: (seconds * 1000).rounded()) else {
                return sink.reject(line: line, field: "timestamp", reason: "the number is not a time in Unix seconds")
            }
            time = Timestamp(milliseconds: milliseconds)
        case .string(let string)?:
            switch TimestampParser.parse(string) {
            case .success(let value): time = value
            case .failure(let error):
                return sink.reject(line: line, field: "timestamp", reason: "'\(string.prefix(40))' is \(error)")
            }
        default:
            return sink.reject(line: line, field: "timestamp", reason: "the timestamp is neither text nor a number")
        }
        guard let kindText = object["event"]?.string else {
            return sink.reject(line: line, field: "event", reason: "the object has no 'event' text")
        }
        guard let kind = EventKind(parsing: kindText) else {
            return sink.reject(
                line: line, field: "event",
                reason: "'\(kindText.prefix(40))' is not an event: write \(EventKind.names)")
        }
        // A device event (unlock, screen on or off, the device's state) belongs to no app.
        let app = kind.isDeviceEvent ? "" : object["app"]?.string
        guard let app else {
            return sink.reject(line: line, field: "app", reason: "the object has no 'app' text")
        }
        var event = Event(kind: kind, app: app, time: time.milliseconds, utcOffset: time.utcOffset)
        if kind == .fetch {
            guard let resultText = object["result"]?.text else {
                return sink.reject(
                    line: line, field: "result", reason: "a fetch needs a result: newData, noData or failed")
            }
            guard let result = FetchResult(parsing: resultText) else {
                return sink.reject(
                    line: line, field: "result",
                    reason: "'\(resultText.prefix(40))' is not a result: write newData, noData or failed")
            }
            event.result = result
        }
        if let value = object["duration"], value != .null {
            guard let duration = value.number ?? value.string.flatMap(Double.init) else {
                return sink.reject(line: line, field: "duration", reason: "the duration is not a number of seconds")
            }
            event.duration = duration
        }
        if let value = object["bytes"], value != .null {
            // 1.5 is refused, not cut to 1: the contract says a whole number.
            guard let number = value.number, number >= 0, let bytes = Int64(exactly: number) else {
                return sink.reject(line: line, field: "bytes", reason: "bytes is not a whole number")
            }
            event.bytes = bytes
        }
        let value = object["value"].flatMap { $0 == .null ? nil : $0 }
        if let value, value.text == nil {
            return sink.reject(line: line, field: "value", reason: "the value is neither text nor a number")
        }
        switch EventLimits.value(value?.text, for: kind) {
        case .success(let value): event.value = value
        case .failure(let problem): return sink.reject(line: line, field: "value", reason: problem.reason)
        }
        if let value = object["device"], value != .null {
            guard let device = value.string, EventLimits.problem(withAppName: device) == nil else {
                return sink.reject(line: line, field: "device", reason: "the device is not a usable name")
            }
            event.device = device
        }
        try sink.emit(event, line: line)
    }
}
