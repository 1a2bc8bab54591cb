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
}
