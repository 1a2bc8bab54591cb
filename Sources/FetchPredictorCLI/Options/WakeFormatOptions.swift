import ArgumentParser
import FetchPredictor

/// The forms `next` and `schedule` print wakes in.
enum WakeFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv, ics
}

/// The output options of `next` and `schedule`: `--format`, and `--json` as its short form.
struct WakeFormatOptions: ParsableArguments {
    @Option(help: "The form of the output: text, json, csv (one row per app fetch) or ics (an iCalendar file).")
    var format: WakeFormat?

    @Flag(help: "Print the result as JSON (the same as --format json).")
    var json = false

    /// The form chosen.
    var chosen: WakeFormat { json ? .json : format ?? .text }

    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) ask for two forms: give one of them.")
        }
    }
}
