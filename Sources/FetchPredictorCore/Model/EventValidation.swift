import Foundation

/// The limits every stored event obeys, checked the same way by every importer and recorder.
public enum EventLimits {
    /// The earliest instant accepted: 1970-01-01T00:00:00Z. Earlier times in a phone's log are
    /// a clock or parsing error, never a real event.
    public static let earliest: Milliseconds = 0
    /// The first instant no longer accepted: 2100-01-01T00:00:00Z.
    public static let end: Milliseconds = 4_102_444_800_000
    /// The longest app name, in UTF-8 bytes. Android package names and iOS bundle identifiers
    /// are far shorter; a longer name is a sign of a wrong column.
    public static let maximumAppNameBytes = 255
    /// The longest duration accepted, in seconds: one day.
    public static let maximumDuration: Double = 86_400

    /// The field of an event that cannot be stored and why, or `nil` when it can: every limit
    /// below, checked in one order by the importers (per row) and by every store (per event
    /// recorded). The time's field is named `timeField` (a UTC offset out of range is the
    /// time's, since it is read from the time's text), the app's `appField`.
    public static func problem(with event: Event, timeField: String = "timestamp", appField: String = "app")
        -> (field: String, reason: String)?
    {
        if !event.kind.isDeviceEvent, let problem = problem(withAppName: event.app) { return (appField, problem) }
        if let problem = problem(withTime: event.time) { return (timeField, problem) }
        if let duration = event.duration, let problem = problem(withDuration: duration) {
            return ("duration", problem)
        }
        if let offset = event.utcOffset, let problem = problem(withUTCOffset: offset) { return (timeField, problem) }
        if let bytes = event.bytes, let problem = problem(withBytes: bytes) { return ("bytes", problem) }
        if event.kind == .fetch, event.result == nil { return ("result", "a fetch needs a result") }
        switch value(event.value, for: event.kind) {
        case .failure(let problem): return ("value", problem.reason)
        case .success(let value) where value != event.value:
            return ("value", "the value is not written as the store keeps it: '\(value ?? "")'")
        case .success: return nil
        }
    }

    /// Why an app name cannot be stored, or `nil` when it can.
    public static func problem(withAppName name: String) -> String? {
        if name.isEmpty { return "the app name is empty" }
        if name.utf8.count > maximumAppNameBytes {
            return "the app name is \(name.utf8.count) bytes long, more than \(maximumAppNameBytes)"
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the app name contains a control character"
        }
        if name.first!.isWhitespace || name.last!.isWhitespace {
            return "the app name starts or ends with white space"
        }
        // What a reader puts for bytes that are not UTF-8: two names would become one.
        if name.unicodeScalars.contains("\u{FFFD}") {
            return "the app name is not valid UTF-8 (it holds U+FFFD, the mark of bytes that were not)"
        }
        // One spelling a name: a letter and its accent as two characters ('e' then U+0301) read as
        // 'é' but are other bytes, so the store, the routes and the command line would tell them
        // apart. ASCII, as nearly every package name is, is in normal form C already.
        if !name.utf8.allSatisfy({ $0 < 0x80 }),
            name.precomposedStringWithCanonicalMapping.utf8.elementsEqual(name.utf8) == false
        {
            return
                "the app name is not in Unicode normal form C (a letter and its accent as two characters): write it precomposed"
        }
        return nil
    }

    /// Why an instant cannot be stored, or `nil` when it can.
    public static func problem(withTime time: Milliseconds) -> String? {
        if time < earliest { return "the time is before 1970, outside the range 1970–2099 this store accepts" }
        if time >= end { return "the time is after 2099, outside the range 1970–2099 this store accepts" }
        return nil
    }

    /// The largest UTC offset of a wall clock, in seconds either way: 18 hours, as ISO 8601 allows.
    public static let maximumUTCOffset = 64_800

    /// Why a UTC offset (in seconds) cannot be stored, or `nil` when it can.
    public static func problem(withUTCOffset offset: Int) -> String? {
        if abs(offset) > maximumUTCOffset { return "the UTC offset is more than 18 hours either way" }
        return nil
    }

    /// Why a number of bytes cannot be stored, or `nil` when it can.
    public static func problem(withBytes bytes: Int64) -> String? {
        bytes < 0 ? "the number of bytes must be 0 or more" : nil
    }

    /// Why a duration cannot be stored, or `nil` when it can.
    public static func problem(withDuration duration: Double) -> String? {
        if !duration.isFinite || duration < 0 { return "the duration must be a number of seconds, 0 or more" }
        if duration > maximumDuration { return "the duration is longer than a day" }
        return nil
    }

    /// The value of an event of `kind` as the store keeps it (a battery level as a whole
    /// percent, a network by its name in lower case), or why it is not one.
    ///
    /// A `battery` event needs a whole number from 0 to 100 (`57` and `57.0` are the same level,
    /// `57.5` is refused); a `network` event needs `unmetered`, `metered` or `none`, in any case; no
    /// other kind takes a value, and none is stored for it.
    public static func value(_ text: String?, for kind: EventKind) -> Result<String?, ValueProblem> {
        let text = text.map { String($0.trimmingWhiteSpace) }
        switch kind {
        case .battery:
            guard let text, !text.isEmpty else {
                return .failure(
                    ValueProblem("a battery event needs a value: the charge, a whole percent from 0 to 100"))
            }
            guard let number = Double(text), number.isFinite, let percent = Int(exactly: number),
                (0...100).contains(percent)
            else {
                return .failure(
                    ValueProblem("'\(text.prefix(40))' is not a battery level: write a whole percent from 0 to 100"))
            }
            return .success(String(percent))
        case .network:
            guard let text, !text.isEmpty else {
                return .failure(ValueProblem("a network event needs a value: unmetered, metered or none"))
            }
            guard let state = NetworkState(parsing: text) else {
                return .failure(ValueProblem("'\(text.prefix(40))' is not a network: write unmetered, metered or none"))
            }
            return .success(state.rawValue)
        default:
            guard let text, !text.isEmpty else { return .success(nil) }
            return .failure(
                ValueProblem(
                    "a\(kind == .unlock ? "n" : "") \(kind.rawValue) event takes no value, and this one has '\(text.prefix(40))'"
                ))
        }
    }

    /// Why a value cannot be stored for its event.
    public struct ValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }
}

extension String {
    /// The text without white space at either end.
    fileprivate var trimmingWhiteSpace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
