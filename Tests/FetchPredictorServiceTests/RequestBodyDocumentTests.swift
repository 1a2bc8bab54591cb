import Foundation
import Testing

@testable import FetchPredictorService

/// The OpenAPI document and the types the routes read their bodies into cannot drift: every
/// route's body in the document names the fields its type reads, no more, no less, the same
/// required, each with the JSON types and the range its kind takes; a route with no body type
/// has no body in the document.
struct RequestBodyDocumentTests {
    /// A node of the document, as far as this test reads YAML: a mapping, a list or a scalar.
    indirect enum YAML {
        case map([(key: String, value: YAML)])
        case list([YAML])
        case scalar(String)

        subscript(_ key: String) -> YAML? {
            guard case .map(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }

        var items: [YAML] {
            switch self {
            case .list(let items): items
            case .scalar(let text) where text.hasPrefix("["):
                text.dropFirst().dropLast().split(separator: ",").map { .scalar(YAML.unquoted($0)) }
            default: []
            }
        }

        var text: String? { if case .scalar(let text) = self { text } else { nil } }

        static func unquoted(_ text: some StringProtocol) -> String {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.count >= 2 && (trimmed.first == "\"" && trimmed.last == "\"")
                ? String(trimmed.dropFirst().dropLast()) : trimmed
        }
    }

    /// Reads the block mappings, block lists, flow lists (kept as text), folded text and scalars
    /// of the document.
    struct Parser {
        var lines: [(indent: Int, text: String)]
        var index = 0

        init(_ document: String) {
            lines = document.split(separator: "\n").compactMap { line in
                let text = line.drop { $0 == " " }
                guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
                return (line.count - text.count, String(text))
            }
        }

        mutating func block(_ indent: Int) -> YAML {
            guard index < lines.count, lines[index].indent == indent else { return .scalar("") }
            if lines[index].text.hasPrefix("- ") {
                var items: [YAML] = []
                while index < lines.count, lines[index].indent == indent, lines[index].text.hasPrefix("- ") {
                    // An item's first line is read as the first line of a mapping two in.
                    lines[index] = (indent + 2, String(lines[index].text.dropFirst(2)))
                    items.append(
                        lines[index].text.contains(": ") || lines[index].text.hasSuffix(":")
                            ? block(indent + 2) : scalar())
                }
                return .list(items)
            }
            var members: [(key: String, value: YAML)] = []
            while index < lines.count, lines[index].indent == indent, !lines[index].text.hasPrefix("- ") {
                let text = lines[index].text
                let (key, rest) =
                    text.range(of: ": ").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) }
                    ?? (String(text.hasSuffix(":") ? text.dropLast() : text[...]), "")
                index += 1
                let value: YAML
                if rest == ">-" || rest == "|" || rest == ">" {
                    var folded: [String] = []
                    while index < lines.count, lines[index].indent > indent {
                        folded.append(lines[index].text)
                        index += 1
                    }
                    value = .scalar(folded.joined(separator: " "))
                } else if rest.isEmpty {
                    value =
                        index < lines.count && lines[index].indent > indent ? block(lines[index].indent) : .scalar("")
                } else {
                    value = .scalar(YAML.unquoted(rest))
                }
                members.append((YAML.unquoted(key), value))
            }
            return .map(members)
        }

        mutating func scalar() -> YAML {
            defer { index += 1 }
            return .scalar(YAML.unquoted(lines[index].text))
        }
    }

    static func document() throws -> YAML {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FetchPredictorService/openapi.yaml")
        var parser = Parser(try String(contentsOf: file, encoding: .utf8))
        return parser.block(0)
    }

    /// The JSON types a schema takes: its `type`, its `oneOf` and `anyOf` choices', and those of
    /// the component it refers to.
    static func types(_ schema: YAML, in document: YAML) -> Set<String> {
        var types = Set<String>()
        if let type = schema["type"] {
            types.formUnion(type.text?.hasPrefix("[") == true ? type.items.compactMap(\.text) : [type.text ?? ""])
        }
        for choice in (schema["oneOf"]?.items ?? []) + (schema["anyOf"]?.items ?? []) {
            types.formUnion(Self.types(choice, in: document))
        }
        if let reference = schema["$ref"]?.text, reference.hasPrefix("#/components/schemas/"),
            let component = document["components"]?["schemas"]?[String(reference.dropFirst(21))]
        {
            types.formUnion(Self.types(component, in: document))
        }
        return types
    }

    @Test func everyBodyInTheDocumentIsTheOneItsTypeReads() throws {
        let document = try Self.document()
        #expect(
            Self.types(try #require(document["components"]?["schemas"]?["Interval"]), in: document) == [
                "string", "integer",
            ])
        var bodies = 0
        for (route, type, _) in Routes.v1 {
            let operation = try #require(
                document["paths"]?["/v1" + route.path]?[route.method.rawValue.lowercased()],
                "\(route.method) \(route.path)")
            let schema = operation["requestBody"]?["content"]?["application/json"]?["schema"]
            guard let type else {
                #expect(
                    schema == nil, "\(route.method) \(route.path) has a body in the document and none in the service")
                continue
            }
            bodies += 1
            let name = "\(route.method) \(route.path)"
            let body = try #require(schema, "\(name) has no body in the document")
            #expect(body["additionalProperties"]?.text == "false", "\(name)")
            guard case .map(let properties) = try #require(body["properties"], "\(name)") else {
                Issue.record("\(name): properties is not a mapping")
                continue
            }
            #expect(Set(properties.map(\.key)) == Set(type.fields.map(\.name)), "\(name)")
            #expect(
                Set(body["required"]?.items.compactMap(\.text) ?? [])
                    == Set(type.fields.filter(\.required).map(\.name)), "\(name)")
            for field in type.fields {
                guard let property = properties.first(where: { $0.key == field.name })?.value else { continue }
                #expect(Self.types(property, in: document) == field.kind.jsonTypes, "\(name): \(field.name)")
                switch field.kind {
                case .whole(let range):
                    #expect(property["minimum"]?.text == String(range.lowerBound), "\(name): \(field.name)")
                    #expect(property["maximum"]?.text == String(range.upperBound), "\(name): \(field.name)")
                case .budget:
                    #expect(
                        property["minimum"]?.text == "1" && property["maximum"]?.text == "60", "\(name): \(field.name)")
                default: break
                }
            }
        }
        #expect(bodies == 5)
    }
}
