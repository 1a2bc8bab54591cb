import FetchPredictorCore
import FetchPredictorImport
import FetchPredictorTestSupport
import Foundation
import Testing

/// The formats work on their own, with no database: parsers read any byte stream, and what the
/// writers write reads back as the same events.
struct FormatsWithoutStoreTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Parses bytes in memory with a format's parser, in chunks of the given size.
    func parse(_ bytes: [UInt8], format: ImportFormat, chunkSize: Int) throws -> [Event] {
        var events: [Event] = []
        let sink = ImportSink(file: "memory", skipInvalid: false, rejectionsKept: 5, onReject: nil) {
            events.append($0)
            return true
        }
        let source = MemoryByteSource(name: "memory", bytes: bytes, chunkSize: chunkSize)
        try format.parser(options: ImportOptions(timeZone: zone, dateOrder: .dmy)).parse(source, into: sink)
        #expect(sink.rejected == 0, "\(sink.firstRejections)")
        return events
    }

    /// Given each fixture in memory, when it is read in chunks of a few bytes and in one chunk,
    /// then the events are the same: no line or JSON value is lost at a chunk's seam.
    @Test(arguments: [
        ("commuter-28d.csv", ImportFormat.csv), ("night-owl-14d.jsonl", .jsonl),
        ("activitywatch-small.json", .activitywatch), ("app-usage-dmy.csv", .appUsage),
    ])
    func chunkSeamsLoseNothing(fixture: String, format: ImportFormat) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture(fixture))))
        let whole = try parse(bytes, format: format, chunkSize: 1 << 20)
        let small = try parse(bytes, format: format, chunkSize: 7)
        #expect(!whole.isEmpty)
        #expect(small == whole)
    }

    /// An importer's events are checked by the same rule as a recorded event's
    /// (`EventLimits.problem(with:)`): whatever a format's reader lets through, a row whose event
    /// breaks a limit is refused by its line and the field the rule names, and none is stored.
    @Test func theSinkRefusesWhatAStoreRefuses() throws {
        let broken = [
            Event(kind: .fetch, app: "news", time: 1_000),  // no result
            Event(kind: .fetch, app: "news", time: 2_000, result: .newData, bytes: -1),
            Event(kind: .launch, app: "news", time: 3_000, utcOffset: 19 * 3600),
            Event(kind: .battery, app: "", time: 4_000, value: "140"),
            Event(kind: .launch, app: "news", time: 5_000, value: "on"),
        ]
        var stored: [Event] = []
        let sink = ImportSink(file: "memory", skipInvalid: true, rejectionsKept: 10, onReject: nil) {
            stored.append($0)
            return true
        }
        for (index, event) in broken.enumerated() { try sink.emit(event, line: index + 2, appField: "package") }
        #expect(stored.isEmpty)
        #expect(sink.firstRejections.map(\.line) == [2, 3, 4, 5, 6])
        #expect(sink.firstRejections.map(\.field) == ["result", "bytes", "timestamp", "value", "value"])
        #expect(sink.firstRejections.map(\.field) == broken.map { EventLimits.problem(with: $0)!.field })
        // The app's field is the format's name for it.
        try sink.emit(Event(kind: .launch, app: " ", time: 6_000), line: 7, appField: "package")
        #expect(sink.firstRejections.last?.field == "package")
    }

    /// Names with commas, quotes, spaces inside and any Unicode survive the writers and the readers.
    @Test(arguments: [ImportFormat.csv, .jsonl])
    func writtenLogsReadBackAsTheSameEvents(format: ImportFormat) throws {
        let names = ["com.example.news", "Mail, Calendar", "say \"hi\"", "Zażółć gęślą jaźń", "📰 News", "a\\b/c"]
        var events: [Event] = []
        for (index, name) in names.enumerated() {
            let time = Milliseconds(1_700_000_000_000 + index * 61_250)
            events.append(Event(kind: .launch, app: name, time: time, utcOffset: 3600, duration: 12.5))
            events.append(
                Event(kind: .fetch, app: name, time: time + 1000, utcOffset: -18_000, result: .noData, duration: 3))
        }
        let text = format == .csv ? EventLogWriter.csv(events) : EventLogWriter.jsonLines(events)
        let read = try parse(Array(text.utf8), format: format, chunkSize: 64)
        #expect(read == events)
        let again = format == .csv ? EventLogWriter.csv(read) : EventLogWriter.jsonLines(read)
        #expect(again == text)
    }
}

/// A key or column no format knows is refused by its name, not dropped (issue 56): a fetch with
/// `"durration": 2.5` was stored with no duration.
struct UnknownFieldTests {
    @Test func anUnknownKeyOfAJSONLinesEventIsRefusedByLineAndName() throws {
        let path = TestFiles.write(
            #"""
            {"timestamp": "2024-01-01T08:00:00Z", "app": "news", "event": "launch"}
            {"timestamp": "2024-01-01T08:05:00Z", "app": "news", "event": "fetch", "result": "newData", "durration": 2.5}
            """#, name: "typo.jsonl")
        #expect {
            try ReadLog(path, options: ImportOptions(format: .jsonl))
        } throws: { error in
            let text = "\(error)"
            return text.contains("typo.jsonl:2:") && text.contains("durration")
                && text.contains("duration")
        }
    }

    @Test func anUnknownColumnOfTheCSVFormatIsRefusedByItsName() throws {
        let path = TestFiles.write(
            "timestamp,app,event,result,durration\n2024-01-01T08:05:00Z,news,fetch,newData,2.5\n", name: "typo.csv")
        #expect {
            try ReadLog(path, options: ImportOptions(format: .csv))
        } throws: { error in
            let text = "\(error)"
            return text.contains("typo.csv:1:") && text.contains("durration")
        }
        // Detected, the csv format says why it does not fit.
        #expect {
            try ReadLog(path)
        } throws: { error in "\(error)".contains("durration") }
    }

    @Test func theBatchReaderRefusesAnUnknownKeyByItsPath() {
        let body = #"{"events": [{"timestamp": "2024-01-01T08:05:00Z", "app": "n", "event": "launch", "extra": 1}]}"#
        guard case .failure(let problem) = EventBatchReader.read(Array(body.utf8), maximumEvents: 10) else {
            Issue.record("an unknown key was read")
            return
        }
        #expect(problem.field == "events[0].extra", "\(problem)")
    }
}
