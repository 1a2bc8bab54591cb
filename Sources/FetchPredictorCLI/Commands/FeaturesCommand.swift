import ArgumentParser
import FetchPredictor
import Foundation

struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "Write a launch model's training rows: each app's features at regular times, and what followed.",
        discussion: """
            Replays each log without storing it and, every --every minutes from the first \
            scored day (the 8th after the first event), writes a row for each app with at least \
            20 cold launches in the log: device, app, time, the features known at that time \
            (from the events up to it alone), and the label, 1 when a cold launch of the app \
            starts between 1 and 30 minutes later, else 0. The columns are named in the header; \
            a feature the log cannot tell (the time since an unlock, in a log without unlocks) is \
            written nan.

            Example:
              fetchpredict features export.json --time-zone Europe/Warsaw --out rows.csv
            """)

    @Argument(help: ArgumentHelp("Log files to replay.", valueName: "file"))
    var files: [String]

    @Option(
        help: ArgumentHelp("The time zone of the logs' devices.", valueName: "zone"),
        transform: TimeZoneArgument.parse)
    var timeZone: TimeZone

    @Option(help: ArgumentHelp("The order of day and month in App Usage dates: dmy or mdy."))
    var dateOrder: DateOrder?

    @Option(help: ArgumentHelp("The files' format, as import takes it (default: detected)."))
    var format: ImportFormat?

    @Option(parsing: .unconditional, help: ArgumentHelp("The minutes between decision times.", valueName: "minutes"))
    var every: Int = 10

    @Option(help: ArgumentHelp("Write the rows to this file (default: standard output).", valueName: "file"))
    var out: String?

    func validate() throws {
        guard every > 0 else { throw ValidationError("--every must be 1 minute or more.") }
        guard !files.isEmpty else { throw ValidationError("Name at least one log file.") }
    }

    func run() throws {
        let devices: [BacktestDevice]
        do {
            devices = try BacktestDevice.load(files: files, format: format, timeZone: timeZone, dateOrder: dateOrder)
        } catch ImportError.invalidRows(let file, let rejected, let first) {
            throw EvaluateCommand.InvalidRows(
                file, rejected: rejected, first: first, not: "read", remedy: "Fix the file; nothing was written.")
        }
        let file = try OutputFile(path: out, option: "--out")
        try file.line((["device", "app", "time"] + LaunchFeatures.names + ["label"]).joined(separator: ","))
        for device in devices {
            try device.launchFeatureRows(everyMinutes: every) { row in
                try file.line(Self.line(row))
            }
        }
        try file.close()
    }

    /// A row as CSV: names quoted when they hold a comma or a quote, times in ISO 8601 UTC,
    /// features in full: the shortest text that reads back as the same number (`nan` when
    /// unknown), so that a model fitted on the rows splits where the live features fall.
    static func line(_ row: LaunchFeatureRow) -> String {
        var fields = [CSVText.field(row.device), CSVText.field(row.app), TimestampFormatter.iso(row.time)]
        fields += row.features.values.map { "\($0)" }
        fields.append(row.label ? "1" : "0")
        return fields.joined(separator: ",")
    }
}
