/// Reads a JSON object of settings, such as the service's `PUT` bodies, with the parser and the
/// rules of every other JSON the project reads: strings that are valid UTF-8, no key twice, no
/// nesting beyond what a flat object needs.
public enum SettingsBodyReader {
    /// One member's value: settings are flat, so anything else is ``other``.
    public enum Value: Equatable, Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case other
    }

    /// The members of the object, or why the body is not a JSON object of settings, as a
    /// sentence without a final period.
    public static func read(_ bytes: [UInt8]) -> Result<[String: Value], SettingsBodyProblem> {
        let value: JSONValue
        do {
            value = try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(bytes: buffer, name: "body", line: 1, maximumDepth: 4)
                let value = try reader.readValue()
                try reader.expectEnd()
                return value
            }
        } catch let error as ImportError {
            if case .malformed(_, _, let reason) = error {
                return .failure(SettingsBodyProblem(reason: "the body is not valid JSON: \(reason)"))
            }
            return .failure(SettingsBodyProblem(reason: "the body is not a JSON object of settings"))
        } catch {
            return .failure(SettingsBodyProblem(reason: "the body is not a JSON object of settings"))
        }
        guard case .object(let members) = value else {
            return .failure(SettingsBodyProblem(reason: "the body is not a JSON object of settings"))
        }
        return .success(
            members.mapValues { member in
                switch member {
                case .string(let text): .string(text)
                case .number(let number): .number(number)
                case .bool(let flag): .bool(flag)
                case .null: .null
                case .array, .object: .other
                }
            })
    }
}

/// Why a settings body was refused.
public struct SettingsBodyProblem: Error, Equatable, Sendable {
    /// Why, in a sentence without a final period.
    public var reason: String
}
