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
        return .success(Timestamp(milliseconds: local - .seconds(offset ?? 0), utcOffset: offset))
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
