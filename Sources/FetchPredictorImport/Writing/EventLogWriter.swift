import FetchPredictorCore
import Foundation

/// Writes events in the import formats, `csv` and `jsonl`, beside the parsers that read them
/// back: whatever it writes, app names with commas, quotes or any Unicode included, imports as
/// the same events.
///
/// ```swift
/// let text = EventLogWriter.csv(SyntheticLog(persona: .commuter, days: 28, timeZone: zone, seed: 1).events())
/// ```
public enum EventLogWriter {
    /// The header of the csv it writes: every column the csv format reads.
    public static let csvHeader = "timestamp,app,event,result,duration,bytes,value,device"

    /// The events as a csv file, header included.
    public static func csv(_ events: some Sequence<Event>) -> String {
        var text = csvHeader + "\n"
        for event in events { text += csvLine(event) + "\n" }
        return text
    }

    /// One event as a csv row, its fields quoted as RFC 4180 says where they need it.
    public static func csvLine(_ event: Event) -> String {
        [
            TimestampFormatter.iso(event.time, utcOffset: event.utcOffset), CSVText.field(event.app),
            event.kind.rawValue, event.result?.rawValue ?? "", event.duration.map(number) ?? "",
            event.bytes.map(String.init) ?? "", event.value.map(CSVText.field) ?? "",
            event.device.map(CSVText.field) ?? "",
        ].joined(separator: ",")
    }

    /// The events as JSON Lines, one object a line.
    public static func jsonLines(_ events: some Sequence<Event>) -> String {
        var text = ""
        for event in events { text += jsonLine(event) + "\n" }
        return text
    }

    /// One event as a JSON object on one line, with the fields of the csv form.
    public static func jsonLine(_ event: Event) -> String {
        var fields = [
            "\"timestamp\":" + JSONText.string(TimestampFormatter.iso(event.time, utcOffset: event.utcOffset)),
            "\"app\":" + JSONText.string(event.app), "\"event\":" + JSONText.string(event.kind.rawValue),
        ]
        if let result = event.result { fields.append("\"result\":" + JSONText.string(result.rawValue)) }
        if let duration = event.duration { fields.append("\"duration\":" + number(duration)) }
        if let bytes = event.bytes { fields.append("\"bytes\":" + String(bytes)) }
        if let value = event.value {
            // A battery level is a number; a network, text.
            fields.append("\"value\":" + (event.batteryPercent.map(String.init) ?? JSONText.string(value)))
        }
        if let device = event.device { fields.append("\"device\":" + JSONText.string(device)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A number in the shortest text that reads back as the same value: `20`, `1.5`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
