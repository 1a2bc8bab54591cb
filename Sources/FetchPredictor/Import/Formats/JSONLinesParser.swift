import Foundation

/// Reads the `jsonl` format: one JSON object a line with the fields of the csv format,
/// `timestamp` (ISO 8601 text or Unix seconds as a number), `app`, `event`, and optionally
/// `result`, `duration`, `bytes` and `device`. Blank lines are skipped.
struct JSONLinesParser {
    /// The deepest nesting a line may have; the format's objects are flat.
    static let maximumDepth = 16

    func parse(_ file: FileReader, into session: ImportSession) throws {
        let splitter = LineSplitter(file: file)
        var sawLine = false
        try splitter.forEachLine { line, number in
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
            sawLine = true
            session.countRow()
            switch Self.object(line) {
            case .failure(let problem):
                session.reject(line: number, field: "(line)", reason: problem.reason)
            case .success(let object):
                try Self.readObject(object, line: number, session: session)
            }
            return true
        }
        if !sawLine { throw ImportError.empty(file: file.path) }
    }

    /// The line as a JSON object, or why it is not one.
    static func object(_ line: UnsafeBufferPointer<UInt8>) -> Result<[String: Any], ImportError.HeaderProblem> {
        if let problem = nestingProblem(line) { return .failure(.init(reason: problem)) }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(buffer: line), options: [])
        } catch {
            return .failure(.init(reason: "the line is not valid JSON"))
        }
        guard let object = parsed as? [String: Any] else {
            return .failure(.init(reason: "the line is JSON but not an object"))
        }
        return .success(object)
    }

    /// Refuses deep nesting before the JSON parser sees it, so that no input can exhaust the stack.
    static func nestingProblem(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in line {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maximumDepth { return "the JSON nests deeper than \(maximumDepth) levels" }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return nil
    }

    static func readObject(_ object: [String: Any], line: Int, session: ImportSession) throws {
        func text(_ key: String) -> String? {
            switch object[key] {
            case let value as String: value
            case let value as NSNumber: value.stringValue
            default: nil
            }
        }
        let time: Timestamp
        switch object["timestamp"] ?? object["time"] {
        case nil:
            return session.reject(line: line, field: "timestamp", reason: "the object has no 'timestamp'")
        case let number as NSNumber:
            time = Timestamp(milliseconds: Milliseconds((number.doubleValue * 1000).rounded()))
        case let string as String:
            switch TimestampParser.parse(string) {
            case .success(let value): time = value
            case .failure(let error):
                return session.reject(line: line, field: "timestamp", reason: "'\(string.prefix(40))' is \(error)")
            }
        default:
            return session.reject(line: line, field: "timestamp", reason: "the timestamp is neither text nor a number")
        }
        guard let app = object["app"] as? String else {
            return session.reject(line: line, field: "app", reason: "the object has no 'app' text")
        }
        guard let kindText = object["event"] as? String else {
            return session.reject(line: line, field: "event", reason: "the object has no 'event' text")
        }
        let kind: EventKind
        switch kindText.lowercased() {
        case "launch": kind = .launch
        case "fetch": kind = .fetch
        default:
            return session.reject(
                line: line, field: "event", reason: "'\(kindText.prefix(40))' is not an event: write launch or fetch")
        }
        var event = Event(kind: kind, app: app, time: time.milliseconds, utcOffset: time.utcOffset)
        if kind == .fetch {
            guard let resultText = text("result") else {
                return session.reject(line: line, field: "result", reason: "a fetch needs a result: newData, noData or failed")
            }
            guard let result = FetchResult(parsing: resultText) else {
                return session.reject(
                    line: line, field: "result", reason: "'\(resultText.prefix(40))' is not a result: write newData, noData or failed")
            }
            event.result = result
        }
        if let value = object["duration"], !(value is NSNull) {
            guard let duration = (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap(Double.init) else {
                return session.reject(line: line, field: "duration", reason: "the duration is not a number of seconds")
            }
            event.duration = duration
        }
        if let value = object["bytes"], !(value is NSNull) {
            guard let bytes = (value as? NSNumber)?.int64Value, bytes >= 0 else {
                return session.reject(line: line, field: "bytes", reason: "bytes is not a whole number")
            }
            event.bytes = bytes
        }
        if let value = object["device"], !(value is NSNull) {
            guard let device = value as? String, EventLimits.problem(withAppName: device) == nil else {
                return session.reject(line: line, field: "device", reason: "the device is not a usable name")
            }
            event.device = device
        }
        try session.emit(event, line: line)
    }
}
