import Foundation

/// Pieces of the report's markup: escaped text, compact numbers, and the frame of a chart. The
/// report is XHTML-compatible (every element closed, every attribute quoted), so that an XML
/// parser reads it and its charts, as the tests do.
enum Markup {
    /// Text for an element or an attribute, with `&`, `<`, `>`, `"` and `'` escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default:
                // Characters XML does not allow (controls, U+FFFE, U+FFFF) would make the page
                // unreadable as XML: they are shown as the replacement character.
                for scalar in character.unicodeScalars {
                    let value = scalar.value
                    let allowed =
                        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                        || (0xE000...0xFFFD).contains(value) || value >= 0x10000
                    escaped.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
                }
            }
        }
        return escaped
    }

    /// A coordinate with at most one decimal: charts need no more, and files stay small.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    /// A value for a data attribute, with up to four decimals.
    static func value(_ value: Double) -> String {
        let text = String(format: "%.4f", value)
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// `HH:MM` of a minute of the day.
    static func clock(_ minute: Int) -> String {
        String(format: "%02d:%02d", minute / 60 % 24, minute % 60)
    }
}

/// An SVG chart being drawn: a plot area inside margins, with axes drawn by the caller.
struct SVGChart {
    let width: Double
    let height: Double
    let left: Double, right: Double, top: Double, bottom: Double
    private(set) var body: [String] = []

    init(width: Double, height: Double, left: Double = 40, right: Double = 18, top: Double = 12, bottom: Double = 24) {
        self.width = width
        self.height = height
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
    }

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }

    /// The x of a value from 0 to 1 across the plot.
    func x(_ fraction: Double) -> Double { left + fraction * plotWidth }
    /// The y of a value from 0 (bottom) to 1 (top) of the plot.
    func y(_ fraction: Double) -> Double { top + (1 - fraction) * plotHeight }

    mutating func add(_ element: String) { body.append(element) }

    /// The widest a character of the charts' 11 px labels is, in pixels, on average over a name
    /// (package names are mostly lower-case letters and dots; 6.5 leaves room for wider fonts).
    static let labelCharacterWidth = 6.5

    /// A left margin that holds the longest of `labels` at the axis' right edge, from `minimum`
    /// to `maximum` pixels: beyond it, ``fitted(_:room:)`` shortens the label.
    static func leftMargin(for labels: [String], minimum: Double = 120, maximum: Double = 340) -> Double {
        let longest = Double(labels.map(\.count).max() ?? 0) * labelCharacterWidth + 12
        return min(maximum, max(minimum, longest.rounded(.up)))
    }

    /// A label cut in the middle, with an ellipsis, to fit `room` pixels.
    static func fitted(_ text: String, room: Double) -> String {
        let fits = Int(room / labelCharacterWidth)
        guard text.count > fits, fits > 3 else { return text }
        let head = (fits - 1) / 2, tail = fits - 1 - head
        return text.prefix(head) + "…" + text.suffix(tail)
    }

    /// The name of a row at the left of the plot, ending 6 pixels before it; a name cut to fit
    /// keeps the whole in its tooltip.
    mutating func rowLabel(_ text: String, y: Double) {
        let shown = Self.fitted(text, room: left - 6)
        let tooltip = shown == text ? "" : "<title>\(Markup.escape(text))</title>"
        add(
            "<text x=\"\(Markup.number(left - 6))\" y=\"\(Markup.number(y))\" text-anchor=\"end\" class=\"axis\" data-label=\"\(Markup.escape(text))\">\(Markup.escape(shown))\(tooltip)</text>"
        )
    }

    /// A text label.
    mutating func label(_ text: String, x: Double, y: Double, anchor: String = "middle", className: String = "axis") {
        add(
            "<text x=\"\(Markup.number(x))\" y=\"\(Markup.number(y))\" text-anchor=\"\(anchor)\" class=\"\(className)\">\(Markup.escape(text))</text>"
        )
    }

    /// The x axis of a day, from midnight, every `every` hours.
    mutating func hourAxis(every: Int = 3) {
        add(
            "<line x1=\"\(Markup.number(left))\" y1=\"\(Markup.number(y(0)))\" x2=\"\(Markup.number(x(1)))\" y2=\"\(Markup.number(y(0)))\" class=\"frame\"/>"
        )
        for hour in stride(from: 0, through: 24, by: every) {
            label(Markup.clock(hour * 60), x: x(Double(hour) / 24), y: height - 6)
        }
    }

    /// The element, with its attributes (already escaped) and an accessible title.
    func svg(attributes: String, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Markup.number(width)) \(Markup.number(height))\" width=\"\(Markup.number(width))\" height=\"\(Markup.number(height))\" role=\"img\" \(attributes)><title>\(Markup.escape(title))</title>"
            + body.joined() + "</svg>"
    }
}
