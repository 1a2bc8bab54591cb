import Foundation

/// An app's minimum background fetch interval, as it states it to the system.
///
/// Mirrors iOS's `setMinimumBackgroundFetchInterval(_:)`: ``never`` is the default, and an app
/// that never set an interval is never woken; ``minimum`` lets the system fetch as often as it finds
/// worthwhile; ``seconds(_:)`` is a floor, never two fetches of the app closer than that.
///
/// Written as text: `never`, `minimum`, or a positive whole number of seconds (`3600`).
public enum FetchInterval: Sendable, Hashable {
    /// Never woken for a background fetch.
    case never
    /// As often as the planner finds worthwhile, above its own floor.
    case minimum
    /// No two fetches closer than this many seconds.
    case seconds(Int)

    /// The largest interval accepted: 30 days. Larger values are almost surely a mistake.
    public static let maximumSeconds = 30 * 24 * 3600

    /// Reads an interval from its text form.
    ///
    /// - Parameter text: `never`, `minimum`, or a whole number of seconds from 1 to 2,592,000.
    /// - Throws: ``FetchIntervalError`` that says what was wrong with the text.
    public init(parsing text: String) throws(FetchIntervalError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch trimmed {
        case "never": self = .never
        case "minimum", "min": self = .minimum
        default:
            guard let value = Int(trimmed) else { throw .notAnInterval(text) }
            guard value > 0 else { throw .notPositive(value) }
            guard value <= Self.maximumSeconds else { throw .tooLong(value) }
            self = .seconds(value)
        }
    }

    /// The text form: `never`, `minimum` or the number of seconds.
    public var text: String {
        switch self {
        case .never: "never"
        case .minimum: "minimum"
        case .seconds(let seconds): String(seconds)
        }
    }
}

extension FetchInterval: CustomStringConvertible {
    /// A sentence for people.
    public var description: String { text }
}

extension FetchInterval: Codable {
    /// Creates a value from its coder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Int.self) {
            self = .seconds(seconds)
        } else {
            self = try FetchInterval(parsing: container.decode(String.self))
        }
    }

    /// Writes the value to an encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Why a text is not a fetch interval.
public enum FetchIntervalError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnInterval(String)
    case notPositive(Int)
    case tooLong(Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notAnInterval(let text):
            "'\(text)' is not an interval: write never, minimum or a whole number of seconds such as 3600."
        case .notPositive(let value):
            "An interval of \(value) seconds is not allowed: give a positive number of seconds, or minimum."
        case .tooLong(let value):
            "An interval of \(value) seconds is longer than 30 days (\(FetchInterval.maximumSeconds) s): give a shorter one, or never."
        }
    }
}
