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
        transform: { try TimeArgument.parse($0, option: "--now", zone: nil, now: Date()) })
    var now: Date?

    /// The time given, else the system clock: the one place the tool reads it.
    var currentDate: Date { now ?? Date() }
}
