import FetchPredictor
import Foundation

/// What the service's event batches would be read by if their types were generated from the
/// OpenAPI document: Codable, with the document's fields and nothing of the `jsonl` rules.
private struct CodableBatch: Decodable {
    struct Item: Decodable {
        var timestamp: String
        var event: String
        var app: String?
        var result: String?
        var bytes: Int?
        var duration: Double?
        var value: String?
    }
    var events: [Item]
}

/// Reads one batch of 10,000 events, a third of them fetches, with the service's reader
/// (`EventBatchReader`, the `jsonl` importer's rules: events made and checked) and with
/// `JSONDecoder` into Codable types (strings, nothing checked), alternately, and prints the best
/// of 15 reads of each, then what `JSONDecoder` does with a duplicate key, a fraction and an
/// unknown key.
///   fetchpredict-bench --batch-reader
func benchBatchReader() throws {
    let formatter = ISO8601DateFormatter()
    var items: [String] = []
    for index in 0..<10_000 {
        let stamp = formatter.string(from: Date(timeIntervalSince1970: Double(1_704_096_000 + index * 37)))
        let app = "com.example.app\(index % 40)"
        items.append(
            index % 3 == 0
                ? #"{"timestamp": "\#(stamp)", "event": "fetch", "app": "\#(app)", "result": "newData", "bytes": \#(index)}"#
                : #"{"timestamp": "\#(stamp)", "event": "launch", "app": "\#(app)"}"#)
    }
    let text = #"{"events": ["# + items.joined(separator: ", ") + "]}"
    let bytes = Array(text.utf8)
    let data = Data(text.utf8)
    var best = (reader: Double.infinity, decoder: Double.infinity)
    for _ in 0..<15 {
        var start = ContinuousClock.now
        let events = try EventBatchReader.read(bytes, maximumEvents: 100_000).get()
        best.reader = min(best.reader, milliseconds(ContinuousClock.now - start))
        start = ContinuousClock.now
        let decoded = try JSONDecoder().decode(CodableBatch.self, from: data)
        best.decoder = min(best.decoder, milliseconds(ContinuousClock.now - start))
        precondition(events.count == 10_000 && decoded.events.count == 10_000)
    }
    print(String(format: "a batch of 10,000 events (%d bytes), best of 15:", bytes.count))
    print(String(format: "  EventBatchReader, events made and checked: %.2f ms", best.reader))
    print(String(format: "  JSONDecoder, Codable strings, nothing checked: %.2f ms", best.decoder))
    func decodes(_ event: String) -> String {
        let body = Data(#"{"events": [{"timestamp": "2024-01-01T08:00:00Z", \#(event)}]}"#.utf8)
        do {
            let batch = try JSONDecoder().decode(CodableBatch.self, from: body)
            return
                "accepted (app \(batch.events[0].app ?? "none"), bytes \(batch.events[0].bytes.map(String.init) ?? "none"))"
        } catch {
            return "refused"
        }
    }
    print("JSONDecoder, the same key twice:", decodes(#""event": "launch", "app": "a", "app": "b""#))
    print(
        "JSONDecoder, a fraction of bytes:",
        decodes(#""event": "fetch", "app": "a", "result": "newData", "bytes": 1.5"#))
    print("JSONDecoder, an unknown key:", decodes(#""event": "launch", "app": "a", "ap": "b""#))
}
