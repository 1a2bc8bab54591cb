import FetchPredictorCore
import Foundation

/// The JSON that the command line and the HTTP service write: sorted keys, instants
/// as ISO 8601 text in UTC to the millisecond, slashes unescaped.
public enum WireJSON {
    /// An encoder of that JSON; `pretty` for people, compact for the wire.
    public static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(TimestampFormatter.iso(date.milliseconds))
        }
        return encoder
    }
}
