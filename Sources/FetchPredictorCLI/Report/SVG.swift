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

    /// A tick below the plot at `fraction` of its width, with its label under it; `value` (already
    /// a number or a time) goes in `data-value`, and `grid` draws a dashed line up the plot.
    mutating func xTick(_ fraction: Double, label: String, value: String, grid: Bool = false) {
        let x = Markup.number(x(fraction))
        if grid {
            add(
                "<line x1=\"\(x)\" y1=\"\(Markup.number(top))\" x2=\"\(x)\" y2=\"\(Markup.number(y(0)))\" class=\"grid\"/>"
            )
        }
        add(
            "<line x1=\"\(x)\" y1=\"\(Markup.number(y(0)))\" x2=\"\(x)\" y2=\"\(Markup.number(y(0) + 4))\" class=\"tick\" data-axis=\"x\" data-value=\"\(Markup.escape(value))\"/>"
        )
        if !label.isEmpty {
            add(
                "<text x=\"\(x)\" y=\"\(Markup.number(y(0) + 15))\" text-anchor=\"middle\" class=\"axis\" data-axis=\"x\" data-value=\"\(Markup.escape(value))\">\(Markup.escape(label))</text>"
            )
        }
    }

    /// A tick left of the plot at `fraction` of its height, with its label left of it; `grid`
    /// draws a dashed line across the plot.
    mutating func yTick(_ fraction: Double, label: String, value: String, grid: Bool = false) {
        let y = Markup.number(y(fraction))
        if grid {
            add(
                "<line x1=\"\(Markup.number(left))\" y1=\"\(y)\" x2=\"\(Markup.number(x(1)))\" y2=\"\(y)\" class=\"grid\"/>"
            )
        }
        add(
            "<line x1=\"\(Markup.number(left - 4))\" y1=\"\(y)\" x2=\"\(Markup.number(left))\" y2=\"\(y)\" class=\"tick\" data-axis=\"y\" data-value=\"\(Markup.escape(value))\"/>"
        )
        add(
            "<text x=\"\(Markup.number(left - 6))\" y=\"\(Markup.number(self.y(fraction) + 4))\" text-anchor=\"end\" class=\"axis\" data-axis=\"y\" data-value=\"\(Markup.escape(value))\">\(Markup.escape(label))</text>"
        )
    }

    /// The frame of the plot: its left and bottom edges.
    mutating func axes() {
        add(
            "<path d=\"M\(Markup.number(left)) \(Markup.number(top))V\(Markup.number(y(0)))H\(Markup.number(x(1)))\" class=\"frame\" fill=\"none\"/>"
        )
    }

    /// The name of the x axis, under its tick labels.
    mutating func xTitle(_ text: String) {
        label(text, x: x(0.5), y: y(0) + 30, className: "title")
    }

    /// The name of the y axis, turned to read upwards, left of its tick labels.
    mutating func yTitle(_ text: String) {
        let x = Markup.number(12), y = Markup.number(top + plotHeight / 2)
        add(
            "<text x=\"\(x)\" y=\"\(y)\" transform=\"rotate(-90 \(x) \(y))\" text-anchor=\"middle\" class=\"title\">\(Markup.escape(text))</text>"
        )
    }

    /// Round values for the ticks of an axis from 0 to at least `maximum`: 0 and 2 to 6 steps of
    /// 1, 2 or 5 times a power of ten; the last is the axis' top.
    static func ticks(upTo maximum: Double) -> [Double] {
        let maximum = max(maximum, 1e-9)
        let magnitude = pow(10, (log10(maximum / 4)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { maximum / $0 <= 6 } ?? 10 * magnitude
        let count = Int((maximum / step - 1e-9).rounded(.up))
        return (0...max(count, 1)).map { Double($0) * step }
    }

    /// A mark and the series it stands for, in a legend.
    struct LegendEntry {
        /// How a series is drawn, in small.
        enum Swatch {
            case line(String), circle(String), square(String), bar(String)
            /// A line with a point on it, as a curve of measured points is drawn.
            case lineAndPoint(String, String)
        }
        var series: String
        var label: String
        var swatch: Swatch

        /// The width of the entry: its swatch, its label, and the gap after it.
        var width: Double { 22 + Double(label.count) * SVGChart.labelCharacterWidth + 16 }
    }

    /// The legend's entries in rows that fit a chart `width` wide, from its left edge, each at
    /// its x.
    static func legendRows(_ entries: [LegendEntry], width: Double) -> [[(LegendEntry, Double)]] {
        var rows: [[(LegendEntry, Double)]] = []
        var x = legendLeft
        for entry in entries {
            if rows.isEmpty || (x + entry.width > width && x > legendLeft) {
                rows.append([])
                x = legendLeft
            }
            rows[rows.count - 1].append((entry, x))
            x += entry.width
        }
        return rows
    }

    /// Where a legend's rows start, from the chart's left edge.
    static let legendLeft = 8.0

    /// The height a legend takes in a chart `width` wide: 16 pixels a row.
    static func legendHeight(_ entries: [LegendEntry], width: Double) -> Double {
        Double(legendRows(entries, width: width).count) * 16
    }

    /// The legend, its first row's middle at `y`: each entry's label carries its series in
    /// `data-legend`.
    mutating func legend(_ entries: [LegendEntry], y: Double) {
        for (row, line) in Self.legendRows(entries, width: width).enumerated() {
            let middle = y + Double(row) * 16
            for (entry, x) in line {
                let m = Markup.number(middle), x0 = Markup.number(x), x1 = Markup.number(x + 16)
                let center = Markup.number(x + 8)
                switch entry.swatch {
                case .line(let name):
                    add("<line x1=\"\(x0)\" y1=\"\(m)\" x2=\"\(x1)\" y2=\"\(m)\" class=\"\(name)\"/>")
                case .circle(let name):
                    add("<circle cx=\"\(center)\" cy=\"\(m)\" r=\"4\" class=\"\(name)\"/>")
                case .square(let name):
                    add(
                        "<rect x=\"\(Markup.number(x + 4))\" y=\"\(Markup.number(middle - 4))\" width=\"8\" height=\"8\" class=\"\(name)\"/>"
                    )
                case .bar(let name):
                    add(
                        "<rect x=\"\(x0)\" y=\"\(Markup.number(middle - 5))\" width=\"16\" height=\"10\" class=\"\(name)\"/>"
                    )
                case .lineAndPoint(let line, let point):
                    add("<line x1=\"\(x0)\" y1=\"\(m)\" x2=\"\(x1)\" y2=\"\(m)\" class=\"\(line)\"/>")
                    add("<circle cx=\"\(center)\" cy=\"\(m)\" r=\"3\" class=\"\(point)\"/>")
                }
                add(
                    "<text x=\"\(Markup.number(x + 22))\" y=\"\(Markup.number(middle + 4))\" class=\"legend\" data-legend=\"\(Markup.escape(entry.series))\">\(Markup.escape(entry.label))</text>"
                )
            }
        }
    }

    /// The element, with its attributes (already escaped) and an accessible title.
    func svg(attributes: String, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Markup.number(width)) \(Markup.number(height))\" width=\"\(Markup.number(width))\" height=\"\(Markup.number(height))\" role=\"img\" \(attributes)><title>\(Markup.escape(title))</title>"
            + body.joined() + "</svg>"
    }
}
