import Foundation

/// A part of the report's page as a value: an element with its attributes and what it holds, a
/// text, or a value. The page is built of these and written once, by ``render()``, which alone
/// escapes text and attribute values and formats numbers: no value reaches the page unescaped,
/// and the sections say what they show, not how it is written.
///
/// Element and attribute names are literals of the source (`StaticString`): nothing read from a
/// store or a log can name one.
struct Node: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Kind {
        case element(StaticString, [(StaticString, Value)], [Node])
        case value(Value)
        case styleSheet(StaticString)
        case group([Node])
    }

    fileprivate let kind: Kind

    /// An element: its name, its attributes in the order given, and what it holds.
    init(_ name: StaticString, _ attributes: KeyValuePairs<StaticString, Value> = [:], _ children: [Node] = []) {
        kind = .element(name, Array(attributes), children)
    }

    /// An element with no attributes.
    init(_ name: StaticString, _ children: [Node]) { kind = .element(name, [], children) }

    /// An element whose attributes are a list made by the caller.
    init(_ name: StaticString, attributes: [(StaticString, Value)], _ children: [Node] = []) {
        kind = .element(name, attributes, children)
    }

    /// Text, escaped when written.
    init(stringLiteral text: String) { kind = .value(.text(text)) }

    init(stringInterpolation: DefaultStringInterpolation) {
        kind = .value(.text(String(stringInterpolation: stringInterpolation)))
    }

    private init(kind: Kind) { self.kind = kind }

    /// Text, escaped when written.
    static func text(_ text: String) -> Node { Node(kind: .value(.text(text))) }

    /// A value (a number is formatted as ``Value`` says), escaped when written.
    static func value(_ value: Value) -> Node { Node(kind: .value(value)) }

    /// Nodes one after another, with no element around them.
    static func group(_ nodes: [Node]) -> Node { Node(kind: .group(nodes)) }

    /// Nothing.
    static let empty = group([])

    /// A style sheet's rules, written as they are: only a literal of the source can be one.
    static func styleSheet(_ rules: StaticString) -> Node { Node(kind: .styleSheet(rules)) }

    /// The page's markup.
    func render() -> String {
        var out = ""
        out.reserveCapacity(1 << 16)
        write(to: &out, inSVG: false)
        return out
    }

    /// HTML elements that hold nothing and close themselves.
    private static let void: Set<String> = ["meta", "br", "hr", "link"]
    /// HTML elements after whose start a line ends, to keep the page readable as text.
    private static let lineAfterStart: Set<String> = ["html", "head", "body"]
    /// HTML elements after whose end a line ends.
    private static let lineAfterEnd: Set<String> = [
        "html", "head", "body", "meta", "title", "style", "h1", "h2", "h3", "p", "section", "table", "footer",
    ]

    private func write(to out: inout String, inSVG: Bool) {
        switch kind {
        case .value(let value): value.write(to: &out)
        case .styleSheet(let rules): out += rules.description
        case .group(let nodes): for node in nodes { node.write(to: &out, inSVG: inSVG) }
        case .element(let staticName, let attributes, let children):
            let name = staticName.description
            let svg = inSVG || name == "svg"
            out += "<" + name
            for (attribute, value) in attributes {
                out += " "
                out += attribute.description
                out += "=\""
                value.write(to: &out)
                out += "\""
            }
            // SVG is XML: an empty element closes itself; an HTML one only when it is void.
            if children.isEmpty && (svg || Self.void.contains(name)) {
                out += "/>"
            } else {
                out += ">"
                if !svg && Self.lineAfterStart.contains(name) { out += "\n" }
                for child in children { child.write(to: &out, inSVG: svg) }
                out += "</" + name + ">"
            }
            if !svg && Self.lineAfterEnd.contains(name) { out += "\n" }
        }
    }
}

/// The value of an attribute, or a value shown as text: numbers are formatted when the page is
/// written, each kind its one way.
enum Value: ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, Sendable {
    case text(String)
    /// A coordinate, with at most one decimal.
    case coordinate(Double)
    /// A figure for a data attribute or a tick, with up to four decimals.
    case datum(Double)
    case integer(Int)
    /// Values one after another, separated by spaces.
    case list([Value])
    /// An SVG polyline's points: `x,y` pairs of coordinates.
    case points([(x: Double, y: Double)])
    /// An SVG path's steps: each a command and its coordinates (`M10 20h5v-3z`).
    case path([(command: Character, coordinates: [Double])])
    /// A transform's function of coordinates, such as `rotate(-90 12 150)`.
    case function(StaticString, [Double])

    init(stringLiteral text: String) { self = .text(text) }
    init(stringInterpolation: DefaultStringInterpolation) {
        self = .text(String(stringInterpolation: stringInterpolation))
    }
    init(integerLiteral value: Int) { self = .integer(value) }

    /// Writes the value, escaped: only a text can need it.
    func write(to out: inout String) {
        switch self {
        case .text(let text): Markup.escape(text, into: &out)
        case .list(let values):
            for (index, value) in values.enumerated() {
                if index > 0 { out += " " }
                value.write(to: &out)
            }
        default: out += text
        }
    }

    /// The value as it is written, before escaping.
    var text: String {
        switch self {
        case .text(let text): text
        case .coordinate(let value): Markup.number(value)
        case .datum(let value): Markup.value(value)
        case .integer(let value): String(value)
        case .list(let values): values.map(\.text).joined(separator: " ")
        case .points(let points): points.map { Markup.number($0.x) + "," + Markup.number($0.y) }.joined(separator: " ")
        case .path(let steps):
            steps.map { String($0.command) + $0.coordinates.map(Markup.number).joined(separator: " ") }.joined()
        case .function(let name, let arguments):
            "\(name)(" + arguments.map(Markup.number).joined(separator: " ") + ")"
        }
    }
}

/// How the page writes text and numbers: ``Node/render()`` alone escapes and formats with
/// these; the sections call only ``clock(_:)``, for the time of day a label says.
enum Markup {
    /// Text for an element or an attribute, with `&`, `<`, `>`, `"` and `'` escaped, appended to
    /// `escaped`; a text with nothing to escape (most are) is appended whole.
    static func escape(_ text: String, into escaped: inout String) {
        // Bytes that need a look: the five escaped, controls, and the first of U+FFFE and U+FFFF.
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
                && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != 0xEF
        }
        if plain {
            escaped += text
            return
        }
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
