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
        let millisecond = ((local % .perDay) + .perDay) % .perDay
        return (Int((local - millisecond) / .perDay), Int(millisecond))
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
