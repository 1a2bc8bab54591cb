import FetchPredictorCore
import Foundation

/// Reads the `csv` format: a header naming `timestamp`, `app` and `event`, and optionally
/// `result`, `duration`, `bytes`, `value` and `device`, in any order; then one event a row.
///
/// `event` is `launch`, `fetch`, `notification`, or a device event (`unlock`, `screenOn`,
/// `screenOff`, and the device's state: `powerConnected`, `powerDisconnected`, `battery`,
/// `network`, `lowPowerOn`, `lowPowerOff`), whose `app` is empty; a fetch needs `result`, a
/// `battery` event a `value` of a whole percent, a `network` event `unmetered`, `metered` or `none`. Timestamps are ISO 8601 with `Z` or an
/// offset, or Unix seconds. A column it does not know is refused; blank lines are skipped.
struct CSVEventParser: LogParser {
    static let requiredColumns = ["timestamp", "app", "event"]
    static let optionalColumns = ["result", "duration", "bytes", "value", "device"]

    struct Columns {
        var timestamp = -1, app = -1, event = -1, result = -1, duration = -1, bytes = -1, value = -1, device = -1
        var count = 0
    }

    /// The columns of a header line, or why it is not this format's header.
    static func columns(ofHeader line: UnsafeBufferPointer<UInt8>) -> Result<Columns, ImportError.HeaderProblem> {
        CSVTable.names(ofHeader: line).flatMap { names in
            var columns = Columns()
            columns.count = names.count
            var unknown: String?
            for (index, name) in names.enumerated() {
                switch name {
                case "timestamp", "time": columns.timestamp = index
                case "app", "package", "bundle": columns.app = index
                case "event", "kind": columns.event = index
                case "result": columns.result = index
                case "duration": columns.duration = index
                case "bytes": columns.bytes = index
                case "value": columns.value = index
                case "device": columns.device = index
                case "": break  // a trailing comma's empty column holds nothing
                default: if unknown == nil { unknown = name }
                }
            }
            let required = zip(requiredColumns, [columns.timestamp, columns.app, columns.event])
            if let problem = CSVTable.missing(required.map { ($0, $1) }) { return .failure(problem) }
            // A column no event has is refused, not ignored: a misspelt one would lose what it held.
            if let unknown {
                return .failure(
                    .init(
                        reason: "the header's column "
                            + FieldNames.notAField(unknown, known: requiredColumns + optionalColumns)))
            }
            return .success(columns)
        }
    }

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        try CSVTable.read(
            source, into: sink, header: Self.columns(ofHeader:),
            needs: "the csv format needs the header timestamp,app,event",
            columnCount: \.count
        ) { fields, columns, number in
            try Self.readRow(fields, columns, line: number, sink: sink)
        }
    }

    static func readRow(_ fields: CSVLine, _ columns: Columns, line: Int, sink: ImportSink) throws {
        let time: Timestamp
        switch TimestampParser.parse(fields.bytes(columns.timestamp)) {
        case .success(let value): time = value
        case .failure(let error):
            let text = fields.string(columns.timestamp)
            return sink.reject(line: line, field: "timestamp", reason: "'\(text.prefix(40))' is \(error)")
        }
        let kindText = fields.bytes(columns.event)
        let kind: EventKind
        if equalsIgnoringCase(kindText, "launch") {
            kind = .launch
        } else if equalsIgnoringCase(kindText, "fetch") {
            kind = .fetch
        } else if let other = EventKind(parsing: fields.string(columns.event)) {
            kind = other
        } else {
            let text = fields.string(columns.event)
            return sink.reject(
                line: line, field: "event", reason: "'\(text.prefix(40))' is not an event: write \(EventKind.names)")
        }
        // A device event (unlock, screen on or off, the device's state) belongs to no app.
        var event = Event(
            kind: kind, app: kind.isDeviceEvent ? "" : fields.string(columns.app), time: time.milliseconds,
            utcOffset: time.utcOffset)
        if kind == .fetch {
            guard columns.result >= 0, !fields.isEmpty(columns.result) else {
                return sink.reject(
                    line: line, field: "result", reason: "a fetch needs a result: newData, noData or failed")
            }
            let text = fields.string(columns.result)
            guard let result = FetchResult(parsing: text) else {
                return sink.reject(
                    line: line, field: "result",
                    reason: "'\(text.prefix(40))' is not a result: write newData, noData or failed")
            }
            event.result = result
        }
        if columns.duration >= 0, !fields.isEmpty(columns.duration) {
            let text = fields.string(columns.duration)
            guard let duration = Double(text) else {
                return sink.reject(
                    line: line, field: "duration", reason: "'\(text.prefix(40))' is not a number of seconds")
            }
            event.duration = duration
        }
        if columns.bytes >= 0, !fields.isEmpty(columns.bytes) {
            let text = fields.string(columns.bytes)
            guard let bytes = Int64(text), bytes >= 0 else {
                return sink.reject(
                    line: line, field: "bytes", reason: "'\(text.prefix(40))' is not a whole number of bytes")
            }
            event.bytes = bytes
        }
        switch EventLimits.value(columns.value >= 0 ? fields.string(columns.value) : nil, for: kind) {
        case .success(let value): event.value = value
        case .failure(let problem): return sink.reject(line: line, field: "value", reason: problem.reason)
        }
        if columns.device >= 0, !fields.isEmpty(columns.device) {
            event.device = fields.string(columns.device)
            if let problem = EventLimits.problem(withAppName: event.device!) {
                return sink.reject(
                    line: line, field: "device",
                    reason: problem.replacingOccurrences(of: "app name", with: "device name"))
            }
        }
        try sink.emit(event, line: line)
    }

    /// Whether ASCII bytes equal a lower-case word, ignoring case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] {
            return false
        }
        return true
    }
}
