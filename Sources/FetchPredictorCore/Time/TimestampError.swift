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
            "a time with no Z and no UTC offset, so its instant is unknown: add Z or an offset such as +02:00"
        case .outOfRange(let field):
            "a time whose \(field) is out of range"
        }
    }
}
