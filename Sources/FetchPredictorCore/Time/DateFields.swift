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
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0)
    {
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
