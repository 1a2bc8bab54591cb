import FetchPredictor
import Foundation

/// Printing helpers shared by the commands.
enum Output {
    /// The JSON form of a value: sorted keys, ISO 8601 dates, one trailing newline.
    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try WireJSON.encoder(pretty: true).encode(value), as: UTF8.self)
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
            let text = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
            // Only the end is trimmed: a right-aligned first column keeps its padding.
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// A count and its noun, singular for one: "1 row", "3 rows".
    static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : noun.hasSuffix("ch") ? "es" : "s")"
    }

    /// A time as `YYYY-MM-DD HH:MM` in the zone; in UTC, marked `Z`, when there is none.
    static func local(_ date: Date?, _ zone: TimeZone?) -> String {
        guard let date else { return "-" }
        guard let zone else { return String(TimestampFormatter.iso(date.milliseconds).prefix(16)) + "Z" }
        let offset = zone.secondsFromGMT(for: date)
        let text = TimestampFormatter.iso(date.milliseconds, utcOffset: offset)
        return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    /// The width text is wrapped to: `$COLUMNS`, else the terminal's, else 100.
    static var columns: Int {
        terminalColumns ?? 100
    }

    /// The width of the terminal standard output goes to, from `COLUMNS` or the terminal itself;
    /// `nil` when it goes to a file or a pipe and `COLUMNS` says nothing.
    static var terminalColumns: Int? {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        var size = winsize()
        if isatty(1) != 0, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }
}
