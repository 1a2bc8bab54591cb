/// Writes instants as ISO 8601 text.
public enum TimestampFormatter {
    /// `2024-05-01T08:30:00.250+02:00`, or with `Z` when `utcOffset` is `nil`. Milliseconds are
    /// written only when not zero.
    public static func iso(_ milliseconds: Milliseconds, utcOffset: Int? = nil) -> String {
        let (days, rest) = CivilDate.split(localMilliseconds: milliseconds + .seconds(utcOffset ?? 0))
        let (year, month, day) = CivilDate.fromDays(days)
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(rest / 3_600_000, 2) + ":"
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
