/// Text as a CSV field (RFC 4180).
public enum CSVText {
    /// The text as it is when it holds no comma, quote or line break, and no leading or trailing
    /// space; else in double quotes with its quotes doubled.
    public static func field(_ text: String) -> String {
        let needsQuotes =
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A text field of a file meant for a spreadsheet (a name, a reason), as ``field(_:)`` writes
    /// it, but that no spreadsheet reads as a formula: one that begins with `=`, `+`, `-`, `@`, a
    /// tab or a carriage return is written after a `'`, as OWASP's advice on CSV injection has it.
    /// Not for files read back as data, whose names must stay exact.
    public static func textCell(_ text: String) -> String {
        guard let first = text.first, "=+-@\t\r".contains(first) else { return field(text) }
        return field("'" + text)
    }
}
