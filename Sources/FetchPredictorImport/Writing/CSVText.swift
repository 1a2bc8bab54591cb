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
}
