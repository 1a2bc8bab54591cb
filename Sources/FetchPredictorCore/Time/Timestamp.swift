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
