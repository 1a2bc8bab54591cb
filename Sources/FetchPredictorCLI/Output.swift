import FetchPredictor
import Foundation

/// Printing helpers shared by the commands.
enum Output {
    /// The JSON form of a value: sorted keys, ISO 8601 dates, one trailing newline.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(TimestampFormatter.iso(date.milliseconds))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Writes to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal, where progress may be drawn.
    static var stderrIsTerminal: Bool { isatty(2) != 0 }

    /// A table with columns padded to their widest cell; numbers right-aligned.
    static func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// A date as `2024-05-01 08:30` in the zone.
    static func local(_ date: Date?, _ zone: TimeZone) -> String {
        guard let date else { return "-" }
        let offset = zone.secondsFromGMT(for: date)
        let text = TimestampFormatter.iso(date.milliseconds, utcOffset: offset)
        return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }
}

/// A progress bar on standard error, drawn only on a terminal and at most a hundred times.
/// It may be updated from any thread.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let label: String
    private var lastPercent = -1
    private let enabled: Bool

    init(label: String, enabled: Bool = Output.stderrIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    func update(_ done: Int64, _ total: Int64) {
        guard enabled, total > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        let percent = Int(done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let megabytes = String(format: "%.1f/%.1f MB", Double(done) / 1e6, Double(total) / 1e6)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)% \(megabytes)".utf8))
    }

    func finish() {
        guard enabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
