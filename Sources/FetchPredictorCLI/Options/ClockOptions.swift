import ArgumentParser
import FetchPredictor
import Foundation

/// The clock option: `--now` pins the current time, so that a run prints the same every time.
struct ClockOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The time to take as now: ISO 8601 with Z or an offset, Unix seconds, or a local YYYY-MM-DD HH:MM in the device's zone (default: the system clock); answers are as of it, from the events before it.",
            valueName: "time"),
        transform: { text in
            // Checked here, read later: a local time needs the device's zone, which the store knows.
            guard
                TimestampParser.parseLocal(text) != nil
                    || (try? TimeArgument.parse(text, option: "--now", zone: nil, now: Date())) != nil
            else {
                throw ValidationError(
                    "'\(text)' is not a time: --now takes 2024-05-01T08:30:00Z, 2024-05-01T08:30:00+02:00, Unix seconds, or 2024-05-01 08:30 in the device's time zone."
                )
            }
            return text
        })
    var now: String?

    /// The time given, read in the device's zone when it is a local time, else the system
    /// clock: the one place the tool reads it.
    ///
    /// - Throws: for a local time when `zone` is `nil` (a device with no zone, or a command of
    ///   no device), saying to write it with an offset.
    func currentDate(in zone: TimeZone?) throws -> Date {
        guard let now else { return Date() }
        return try TimeArgument.parse(now, option: "--now", zone: zone, now: Date())
    }

    /// The time given, an instant (a local time is refused: no device's zone reads it), else the
    /// system clock.
    func currentDate() throws -> Date { try currentDate(in: nil) }
}
