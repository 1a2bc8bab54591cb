import ArgumentParser
import FetchPredictor
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import usage logs into the store.",
        discussion: """
            Formats: csv (timestamp,app,event[,result,duration,bytes,device]), jsonl (the same \
            fields, one JSON object a line), activitywatch (an ActivityWatch "export all buckets" \
            file) and app-usage (a CSV export of the Android app App Usage). Without --format the \
            format is detected from the content. Each file is imported in one transaction: a file \
            with an invalid row is refused whole unless --skip-invalid is given. Importing a file \
            again stores nothing new.

            Example:
              fetchpredict import fixtures/commuter-28d.csv --device phone
              fetchpredict import Activity_history.csv --format app-usage --time-zone Europe/London --date-order dmy
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The files to import.", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("The format: csv, jsonl, activitywatch or app-usage (default: detected)."))
    var format: ImportFormat?

    @Option(
        help: ArgumentHelp(
            "The time zone of local times (App Usage), and of the device if it is new (default: the device's, else the system's).",
            valueName: "zone"))
    var timeZone: String?

    @Option(help: ArgumentHelp("The order of day and month in App Usage dates, when the file cannot tell: dmy or mdy."))
    var dateOrder: DateOrder?

    @Flag(help: "Store the valid rows of a file with invalid ones, and report the invalid.")
    var skipInvalid = false

    @Option(help: ArgumentHelp("Write every refused row to this file, one a line.", valueName: "file"))
    var rejects: String?

    @Option(
        name: .customLong("ignore-package"),
        help: ArgumentHelp(
            "An Android package that ends a visit but is not a launch (ActivityWatch), besides the built-in launchers; repeatable.",
            valueName: "package"))
    var ignoredPackages: [String] = []

    @Flag(help: "Print the reports as JSON.")
    var json = false

    @OptionGroup var clock: ClockOptions

    struct Failure: Encodable {
        var file: String
        var error: String
    }

    struct Summary: Encodable {
        var imports: [ImportReport]
        var failures: [Failure]
    }

    func run() throws {
        let zone = try timeZone.map { try TimeZoneArgument.parse($0) }
        let eventStore = try store.openStore()
        let now = try clock.currentDate()
        var rejectsHandle: FileHandle?
        if let rejects {
            guard FileManager.default.createFile(atPath: rejects, contents: nil) else {
                throw ValidationError("Cannot write --rejects \(rejects): check the folder exists and is writable.")
            }
            rejectsHandle = FileHandle(forWritingAtPath: rejects)
        }
        defer { try? rejectsHandle?.close() }
        let options = ImportOptions(
            format: format, device: store.device, timeZone: zone, defaultTimeZone: .current, dateOrder: dateOrder,
            skipInvalid: skipInvalid, extraIgnoredPackages: Set(ignoredPackages))
        var summary = Summary(imports: [], failures: [])
        for file in files {
            let bar = ProgressBar(label: (file as NSString).lastPathComponent)
            do {
                let report = try eventStore.importFile(
                    file, options: options, now: now, progress: bar.update,
                    onReject: { rejection in rejectsHandle?.write(Data((rejection.description + "\n").utf8)) })
                bar.finish()
                summary.imports.append(report)
                if !json { print(Self.describe(report)) }
                if !json, report.rejected > 0 {
                    for rejection in report.rejections { Output.error("  \(rejection)") }
                    if report.rejected > report.rejections.count {
                        Output.error("  ... and \(report.rejected - report.rejections.count) more\(rejects == nil ? " (all of them with --rejects FILE)" : " in \(rejects!)").")
                    }
                }
            } catch {
                bar.finish()
                summary.failures.append(Failure(file: file, error: "\(error)"))
                if !json { Output.error("Error: \(error)") }
                if case ImportError.invalidRows(_, let count, let first) = error, !json {
                    for rejection in first { Output.error("  \(rejection)") }
                    if count > first.count { Output.error("  ... and \(count - first.count) more.") }
                }
            }
        }
        if json { print(try Output.json(summary)) }
        if !summary.failures.isEmpty { throw ExitCode.failure }
    }

    static func describe(_ report: ImportReport) -> String {
        let how = report.formatDetected ? "detected" : "given"
        return "\(report.file) (\(report.format.rawValue), \(how)): \(report.rowsRead) rows read, "
            + "\(report.events) events: \(report.stored) stored, \(report.duplicates) duplicate, "
            + "\(report.rejected) rejected."
    }
}

extension ImportFormat: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}
