import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// The device's state (power, battery, network, Low Power Mode) is read from the csv and jsonl
/// formats with its value, stored, exported and read back; a bad value is refused by file, line
/// and field, and nothing of the file is stored.
struct DeviceStateImportTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Imports a file into a store that holds one already, expects it refused, and returns the
    /// first row refused.
    func refusedRow(_ text: String, name: String) throws -> Rejection {
        let store = try EventStore.inMemory()
        _ = try store.importFile(TestFiles.fixture("commuter-28d.csv"), options: ImportOptions(), now: now)
        let before = try store.eventCounts()
        let path = TestFiles.write(text, name: name)
        let error = try #require(throws: ImportError.self) {
            try store.importFile(path, options: ImportOptions(), now: now)
        }
        #expect(try store.eventCounts() == before, "nothing of a refused file is stored")
        #expect("\(error)".contains(path), "the message names the file")
        guard case .invalidRows(_, _, let first) = error, let rejection = first.first else {
            Issue.record("not a refusal of rows: \(error)")
            throw error
        }
        return rejection
    }

    @Test(arguments: [
        ("battery,140", "not a battery level"), ("battery,57.5", "not a battery level"),
        ("battery,-1", "not a battery level"), ("battery,", "needs a value"), ("network,wifi", "not a network"),
        ("network,", "needs a value"), ("lowPowerOn,1", "takes no value"), ("launch,2", "takes no value"),
    ])
    func aBadValueIsRefusedByLineAndField(row: String, says: String) throws {
        let fields = row.split(separator: ",", omittingEmptySubsequences: false)
        let (kind, value) = (fields[0], fields[1])
        let app = kind == "launch" ? "com.example.news" : ""
        let csv =
            "timestamp,app,event,value\n2024-01-01T08:00:00Z,com.example.mail,launch,\n"
            + "2024-01-01T09:00:00Z,\(app),\(kind),\(value)\n"
        let rejection = try refusedRow(csv, name: "state.csv")
        #expect(rejection.line == 3 && rejection.field == "value")
        #expect(rejection.reason.contains(says), "\(rejection.reason)")
        // The same in JSON Lines, a number where it is one.
        let json = Double(value).map { _ in String(value) } ?? (value.isEmpty ? "null" : "\"\(value)\"")
        let jsonl =
            #"{"timestamp":"2024-01-01T08:00:00Z","app":"com.example.mail","event":"launch"}"# + "\n"
            + #"{"timestamp":"2024-01-01T09:00:00Z","app":"\#(app)","event":"\#(kind)","value":\#(json)}"# + "\n"
        let again = try refusedRow(jsonl, name: "state.jsonl")
        #expect(again.line == 2 && again.field == "value")
    }

    /// Every kind of state, as a user's file writes it (any case, a level as 57.0), is stored as
    /// the store keeps it, exported, and the export imports as the same events.
    @Test func stateIsStoredExportedAndReadBack() throws {
        let csv = """
            timestamp,app,event,value
            2024-01-01T08:00:00Z,com.example.news,launch,
            2024-01-01T08:01:00Z,,battery,57.0
            2024-01-01T08:02:00Z,,network,Unmetered
            2024-01-01T08:03:00Z,,powerConnected,
            2024-01-01T08:04:00Z,,POWERDISCONNECTED,
            2024-01-01T08:05:00Z,,lowPowerOn,
            2024-01-01T08:06:00Z,,lowPowerOff,
            2024-01-01T08:07:00Z,,network,none

            """
        let store = try EventStore.inMemory()
        let summary = try store.importFile(
            TestFiles.write(csv, name: "state.csv"), options: ImportOptions(), now: now)
        #expect(summary.stored == 8)
        var exported: [Event] = []
        try store.forEachStoredEvent { exported.append($0) }
        let states = exported.filter(\.kind.isDeviceState)
        #expect(
            states.map { "\($0.kind.rawValue) \($0.value ?? "-")" } == [
                "battery 57", "network unmetered", "powerConnected -", "powerDisconnected -", "lowPowerOn -",
                "lowPowerOff -", "network none",
            ])
        #expect(states[0].batteryPercent == 57 && states[1].networkState == .unmetered)
        for text in [EventLogWriter.csv(exported), EventLogWriter.jsonLines(exported)] {
            let name = text.hasPrefix("timestamp") ? "again.csv" : "again.jsonl"
            let again = try EventStore.inMemory()
            _ = try again.importFile(TestFiles.write(text, name: name), options: ImportOptions(), now: now)
            var read: [Event] = []
            try again.forEachStoredEvent { read.append($0) }
            #expect(read == exported, "\(name)")
        }
        // A battery level is a number in JSON, a network text.
        let line = EventLogWriter.jsonLine(states[0])
        #expect(line.contains(#""value":57"#))
        #expect(EventLogWriter.jsonLine(states[1]).contains(#""value":"unmetered""#))
    }
}
