import Foundation

/// The frame of a chart of the report, its marks as values (``Node``). The report is
/// XHTML-compatible (every element closed, every attribute quoted), so that an XML parser reads
/// it and its charts, as the tests do.
/// An SVG chart being drawn: a plot area inside margins, with axes drawn by the caller.
struct SVGChart {
    let width: Double
    let height: Double
    let left: Double, right: Double, top: Double, bottom: Double
    private(set) var body: [Node] = []

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

    mutating func add(_ element: Node) { body.append(element) }

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
        let tooltip = shown == text ? Node.empty : Node("title", [.text(text)])
        add(
            Node(
                "text",
                [
                    "x": .coordinate(left - 6), "y": .coordinate(y), "text-anchor": "end", "class": "axis",
                    "data-label": .text(text),
                ],
                [.text(shown), tooltip]))
    }

    /// A text label.
    mutating func label(_ text: Value, x: Double, y: Double, anchor: String = "middle", className: String = "axis") {
        add(
            Node(
                "text",
                ["x": .coordinate(x), "y": .coordinate(y), "text-anchor": .text(anchor), "class": .text(className)],
                [.value(text)]))
    }

    /// The x axis of a day, from midnight, every `every` hours.
    mutating func hourAxis(every: Int = 3) {
        add(line(from: (left, y(0)), to: (x(1), y(0)), ["class": "frame"]))
        for hour in stride(from: 0, through: 24, by: every) {
            label(.text(Markup.clock(hour * 60)), x: x(Double(hour) / 24), y: height - 6)
        }
    }

    /// A line from one point to another, with more attributes after its ends.
    func line(
        from start: (x: Double, y: Double), to end: (x: Double, y: Double),
        _ attributes: KeyValuePairs<StaticString, Value> = [:]
    ) -> Node {
        Node(
            "line",
            attributes: [
                ("x1", .coordinate(start.x)), ("y1", .coordinate(start.y)), ("x2", .coordinate(end.x)),
                ("y2", .coordinate(end.y)),
            ] + Array(attributes))
    }

    /// A tick below the plot at `fraction` of its width, with its label under it; `value` (a
    /// number or a time) goes in `data-value`, and `grid` draws a dashed line up the plot.
    mutating func xTick(_ fraction: Double, label: Value, value: Value, grid: Bool = false) {
        let x = x(fraction)
        if grid { add(line(from: (x, top), to: (x, y(0)), ["class": "grid"])) }
        add(line(from: (x, y(0)), to: (x, y(0) + 4), ["class": "tick", "data-axis": "x", "data-value": value]))
        if !label.text.isEmpty {
            add(
                Node(
                    "text",
                    [
                        "x": .coordinate(x), "y": .coordinate(y(0) + 15), "text-anchor": "middle", "class": "axis",
                        "data-axis": "x", "data-value": value,
                    ], [.value(label)]))
        }
    }

    /// A tick left of the plot at `fraction` of its height, with its label left of it; `grid`
    /// draws a dashed line across the plot.
    mutating func yTick(_ fraction: Double, label: Value, value: Value, grid: Bool = false) {
        let y = y(fraction)
        if grid { add(line(from: (left, y), to: (x(1), y), ["class": "grid"])) }
        add(line(from: (left - 4, y), to: (left, y), ["class": "tick", "data-axis": "y", "data-value": value]))
        add(
            Node(
                "text",
                [
                    "x": .coordinate(left - 6), "y": .coordinate(y + 4), "text-anchor": "end", "class": "axis",
                    "data-axis": "y", "data-value": value,
                ], [.value(label)]))
    }

    /// The frame of the plot: its left and bottom edges.
    mutating func axes() {
        add(
            Node(
                "path",
                ["d": .path([("M", [left, top]), ("V", [y(0)]), ("H", [x(1)])]), "class": "frame", "fill": "none"]))
    }

    /// The name of the x axis, under its tick labels.
    mutating func xTitle(_ text: String) {
        label(.text(text), x: x(0.5), y: y(0) + 30, className: "title")
    }

    /// The name of the y axis, turned to read upwards, left of its tick labels.
    mutating func yTitle(_ text: String) {
        let x = 12.0, y = top + plotHeight / 2
        add(
            Node(
                "text",
                [
                    "x": .coordinate(x), "y": .coordinate(y), "transform": .function("rotate", [-90, x, y]),
                    "text-anchor": "middle", "class": "title",
                ], [.text(text)]))
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
        for (row, entriesOfRow) in Self.legendRows(entries, width: width).enumerated() {
            let middle = y + Double(row) * 16
            for (entry, x) in entriesOfRow {
                switch entry.swatch {
                case .line(let name):
                    add(line(from: (x, middle), to: (x + 16, middle), ["class": .text(name)]))
                case .circle(let name):
                    add(
                        Node(
                            "circle",
                            ["cx": .coordinate(x + 8), "cy": .coordinate(middle), "r": 4, "class": .text(name)]))
                case .square(let name):
                    add(
                        Node(
                            "rect",
                            [
                                "x": .coordinate(x + 4), "y": .coordinate(middle - 4), "width": 8, "height": 8,
                                "class": .text(name),
                            ]))
                case .bar(let name):
                    add(
                        Node(
                            "rect",
                            [
                                "x": .coordinate(x), "y": .coordinate(middle - 5), "width": 16, "height": 10,
                                "class": .text(name),
                            ]))
                case .lineAndPoint(let lineName, let point):
                    add(line(from: (x, middle), to: (x + 16, middle), ["class": .text(lineName)]))
                    add(
                        Node(
                            "circle",
                            ["cx": .coordinate(x + 8), "cy": .coordinate(middle), "r": 3, "class": .text(point)]))
                }
                add(
                    Node(
                        "text",
                        [
                            "x": .coordinate(x + 22), "y": .coordinate(middle + 4), "class": "legend",
                            "data-legend": .text(entry.series),
                        ], [.text(entry.label)]))
            }
        }
    }

    /// The chart's element, with its attributes after the frame's and an accessible title.
    func svg(_ attributes: KeyValuePairs<StaticString, Value>, title: String) -> Node {
        Node(
            "svg",
            attributes: [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("viewBox", .list([.coordinate(0), .coordinate(0), .coordinate(width), .coordinate(height)])),
                ("width", .coordinate(width)), ("height", .coordinate(height)), ("role", "img"),
            ] + Array(attributes),
            [Node("title", [.text(title)])] + body)
    }
}
