/// A parsed timestamp: an instant and, when the text gave one, its UTC offset.
public struct Timestamp: Sendable, Hashable {
    /// The instant, in milliseconds since 1970 UTC.
    public var milliseconds: Milliseconds
    /// The UTC offset in seconds written with the time (`+02:00`), or `nil` for `Z`, Unix seconds
    /// and local times, whose wall clock comes from the device's time zone instead.
    public var utcOffset: Int?

    /// Creates a value with every field given.
    public init(milliseconds: Milliseconds, utcOffset: Int? = nil) {
        self.milliseconds = milliseconds
        self.utcOffset = utcOffset
    }
}

/// Why a text is not a timestamp.
public enum TimestampError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither ISO 8601 nor Unix seconds.
    case unreadable
    /// ISO 8601 with no `Z` and no offset: the instant is unknown.
    case missingOffset
    /// A field out of its range, such as month 13 or 25 o'clock.
    case outOfRange(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .unreadable:
            "not a timestamp: write ISO 8601 with Z or an offset (2024-05-01T08:30:00Z) or Unix seconds"
        case .missingOffset:
            "the time has no Z and no UTC offset, so its instant is unknown: add Z or an offset such as +02:00"
        case .outOfRange(let field):
            "the \(field) is out of range"
        }
    }
}

/// Fast parsers of the timestamp forms found in usage logs.
///
/// They work on UTF-8 bytes without Foundation, because an import parses one timestamp a row.
public enum TimestampParser {
    /// Parses ISO 8601 with `Z` or an offset (`2024-05-01T08:30:00.250+02:00`, a space instead of
    /// `T` accepted), or Unix seconds (`1714545000`, `1714545000.25`, negative before 1970).
    ///
    /// - Parameter text: the field's bytes, without surrounding quotes.
    /// - Returns: the instant and the offset the text gave.
    public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimestampError> {
        guard !text.isEmpty else { return .failure(.unreadable) }
        if text.count >= 10, text[4] == UInt8(ascii: "-"), isDigit(text[0]) {
            return parseISO(text)
        }
        return parseUnix(text).map { Timestamp(milliseconds: $0) }
    }

    /// Parses a timestamp from a string; see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``.
    public static func parse(_ text: String) -> Result<Timestamp, TimestampError> {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// Parses a local date and time with no offset, `YYYY-MM-DD[T ]HH:MM[:SS[.fff]]`, into its
    /// fields. Callers resolve them in a time zone.
    public static func parseLocal(_ text: String) -> DateFields? {
        var copy = text
        return copy.withUTF8 { bytes -> DateFields? in
            var index = 0
            guard case .success(let fields) = readDateTime(bytes, &index), index == bytes.count else { return nil }
            return fields
        }
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    /// Reads exactly `count` digits at `index`.
    @inline(__always)
    static func digits(_ text: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ count: Int) -> Int? {
        guard index + count <= text.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = text[index + offset]
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte &- 48)
        }
        index += count
        return value
    }

    static func readDateTime(
        _ text: UnsafeBufferPointer<UInt8>, _ index: inout Int
    ) -> Result<DateFields, TimestampError> {
        guard let year = digits(text, &index, 4), index < text.count, text[index] == UInt8(ascii: "-") else {
            return .failure(.unreadable)
        }
        index += 1
        guard let month = digits(text, &index, 2), index < text.count, text[index] == UInt8(ascii: "-") else {
            return .failure(.unreadable)
        }
        index += 1
        guard let day = digits(text, &index, 2), index < text.count,
            text[index] == UInt8(ascii: "T") || text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "t")
        else { return .failure(.unreadable) }
        index += 1
        guard let hour = digits(text, &index, 2), index < text.count, text[index] == UInt8(ascii: ":") else {
            return .failure(.unreadable)
        }
        index += 1
        guard let minute = digits(text, &index, 2) else { return .failure(.unreadable) }
        var second = 0
        var millisecond = 0
        if index < text.count, text[index] == UInt8(ascii: ":") {
            index += 1
            guard let value = digits(text, &index, 2) else { return .failure(.unreadable) }
            second = value
            if index < text.count, text[index] == UInt8(ascii: ".") || text[index] == UInt8(ascii: ",") {
                index += 1
                var scale = 100
                var fractionDigits = 0
                while index < text.count, isDigit(text[index]) {
                    millisecond += Int(text[index] &- 48) * scale
                    scale /= 10
                    index += 1
                    fractionDigits += 1
                }
                guard fractionDigits > 0 else { return .failure(.unreadable) }
            }
        }
        guard (1...12).contains(month) else { return .failure(.outOfRange("month")) }
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
            return .failure(.outOfRange("day"))
        }
        guard hour <= 23 else { return .failure(.outOfRange("hour")) }
        guard minute <= 59 else { return .failure(.outOfRange("minute")) }
        guard second <= 60 else { return .failure(.outOfRange("second")) }
        return .success(
            DateFields(
                year: year, month: month, day: day, hour: hour, minute: minute,
                second: min(second, 59), millisecond: second == 60 ? 999 : millisecond))
    }

    static func parseISO(_ text: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, TimestampError> {
        var index = 0
        let fields: DateFields
        switch readDateTime(text, &index) {
        case .success(let value): fields = value
        case .failure(let error): return .failure(error)
        }
        guard index < text.count else { return .failure(.missingOffset) }
        var offset: Int?
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(text, &index, 2) else { return .failure(.unreadable) }
            var minutes = 0
            if index < text.count {
                if text[index] == UInt8(ascii: ":") { index += 1 }
                guard let value = digits(text, &index, 2) else { return .failure(.unreadable) }
                minutes = value
            }
            guard hours <= 18, minutes <= 59 else { return .failure(.outOfRange("UTC offset")) }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return .failure(.unreadable)
        }
        guard index == text.count else { return .failure(.unreadable) }
        let local = fields.millisecondsAsIfUTC
        return .success(Timestamp(milliseconds: local - Milliseconds(offset ?? 0) * 1000, utcOffset: offset))
    }

    static func parseUnix(_ text: UnsafeBufferPointer<UInt8>) -> Result<Milliseconds, TimestampError> {
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        var whole: Int64 = 0
        var wholeDigits = 0
        while index < text.count, isDigit(text[index]) {
            whole = whole * 10 + Int64(text[index] &- 48)
            wholeDigits += 1
            index += 1
            if wholeDigits > 12 { return .failure(.unreadable) }
        }
        guard wholeDigits > 0 else { return .failure(.unreadable) }
        var fraction: Int64 = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100
            var fractionDigits = 0
            while index < text.count, isDigit(text[index]) {
                fraction += Int64(text[index] &- 48) * scale
                scale /= 10
                index += 1
                fractionDigits += 1
            }
            guard fractionDigits > 0 else { return .failure(.unreadable) }
        }
        guard index == text.count else { return .failure(.unreadable) }
        let value = whole * 1000 + fraction
        return .success(negative ? -value : value)
    }
}

/// A calendar date and wall-clock time, without a zone.
public struct DateFields: Sendable, Hashable {
    /// The year, such as 2024.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 59.
    public var second: Int
    /// The millisecond, 0 to 999.
    public var millisecond: Int

    /// Creates a value with every field given.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// The instant these fields name when read as UTC.
    public var millisecondsAsIfUTC: Milliseconds {
        let days = Milliseconds(CivilDate.daysSince1970(year: year, month: month, day: day))
        let seconds = days * 86_400 + Milliseconds(hour * 3600 + minute * 60 + second)
        return seconds * 1000 + Milliseconds(millisecond)
    }
}

/// Proleptic Gregorian calendar arithmetic, without Foundation.
public enum CivilDate {
    /// Days from 1970-01-01 to the given date (negative before it).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (before it when negative).
    public static func fromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Splits a wall-clock instant (milliseconds since 1970 in local time) into its day since
    /// 1970-01-01 and the milliseconds into that day, rounding down before 1970 as after.
    @inline(__always)
    public static func split(localMilliseconds local: Milliseconds) -> (day: Int, millisecond: Int) {
        let millisecond = ((local % 86_400_000) + 86_400_000) % 86_400_000
        return (Int((local - millisecond) / 86_400_000), Int(millisecond))
    }

    /// The day of the week of a day counted from 1970-01-01, 1 for Sunday to 7 for Saturday,
    /// as `Calendar` numbers them.
    public static func weekday(days: Int) -> Int {
        // 1970-01-01 was a Thursday (5).
        ((days % 7 + 7 + 4) % 7) + 1
    }

    /// Whether the year has a 29th of February.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month of a year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Writes instants as ISO 8601 text.
public enum TimestampFormatter {
    /// `2024-05-01T08:30:00.250+02:00`, or with `Z` when `utcOffset` is `nil`. Milliseconds are
    /// written only when not zero.
    public static func iso(_ milliseconds: Milliseconds, utcOffset: Int? = nil) -> String {
        let (days, rest) = CivilDate.split(localMilliseconds: milliseconds + Milliseconds(utcOffset ?? 0) * 1000)
        let (year, month, day) = CivilDate.fromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(rest / 3_600_000, 2) + ":"
            + pad(rest / 60_000 % 60, 2) + ":" + pad(rest / 1000 % 60, 2)
        if rest % 1000 != 0 { text += "." + pad(rest % 1000, 3) }
        guard let utcOffset else { return text + "Z" }
        let sign = utcOffset < 0 ? "-" : "+"
        let magnitude = abs(utcOffset)
        return text + sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
