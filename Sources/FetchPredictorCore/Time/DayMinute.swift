/// Minutes of the local day, `0..<1440`, on a clock that wraps at midnight: the one home of that
/// arithmetic for learning, planning and reasons.
enum DayMinute {
    /// Minutes in a day.
    static let perDay = 1440
    /// Minutes in an hour.
    static let perHour = 60

    /// A minute moved into `0..<1440`: the same minute of the day.
    @inline(__always) static func wrapped(_ minute: Int) -> Int {
        (minute % perDay + perDay) % perDay
    }

    /// The minutes between two minutes of the day, the short way round midnight.
    @inline(__always) static func distance(_ a: Int, _ b: Int) -> Int {
        let distance = abs(a - b) % perDay
        return min(distance, perDay - distance)
    }

    /// The minutes from `start` forward to `end`, across midnight when `end` comes earlier.
    @inline(__always) static func ahead(from start: Int, to end: Int) -> Int {
        wrapped(end - start)
    }
}
