import ArgumentParser
import FetchPredictor
import Foundation

/// The clock option: `--now` pins the current time, so that a run prints the same every time.
struct ClockOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The time to take as now, ISO 8601 with Z or an offset, or Unix seconds (default: the system clock); answers are as of it, from the events up to it.",
            valueName: "time"),
        transform: { text in
            do {
                return try TimeArgument.parse(text, option: "--now", zone: nil, now: Date())
            } catch {
                throw ValidationError(
                    "'\(text)' is not an instant: --now takes one with Z or an offset (2024-05-01T08:30:00Z, 2024-05-01T08:30:00+02:00) or Unix seconds, never a local time."
                )
            }
        })
    var now: Date?

    /// The time given, else the system clock: the one place the tool reads it.
    var currentDate: Date { now ?? Date() }
}
