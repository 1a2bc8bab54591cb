import ArgumentParser
import FetchPredictor
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import usage logs into the store.",
        discussion: """
            Formats: csv (timestamp,app,event[,result,duration,bytes,device]), jsonl (the same \
            fields, one JSON object a line), activitywatch (an ActivityWatch "export all buckets" \
            file), activitywatch-csv (the CSV of one ActivityWatch bucket), app-usage (a CSV \
            export of the Android app App Usage), dumpsys (adb shell dumpsys usagestats) and \
            knowledgec (Apple's knowledgeC.db, read and never changed). Without --format the \
            format is detected from the content. App Usage and dumpsys write local times: they \
            need --time-zone, or a device that has a zone. Each file is imported in one \
            transaction: a file with an invalid row is refused whole unless --skip-invalid is \
            given. Importing a file again stores nothing new; importing it read another way is \
            refused.

            Example:
              fetchpredict import fixtures/commuter-28d.csv --device phone
              fetchpredict import usage.csv --time-zone Asia/Kolkata --date-order dmy
              fetchpredict import usage.txt --device pixel --time-zone Europe/Warsaw
              fetchpredict import knowledgeC.db --device mac --time-zone Europe/Paris
              fetchpredict import aw-bucket.csv --device phone
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The files to import.", valueName: "file"))
    var files: [String]

    @Option(
        help: ArgumentHelp(
            "The format: csv, jsonl, activitywatch, activitywatch-csv, app-usage, dumpsys or knowledgec (default: detected)."
        ))
    var format: ImportFormat?

    @Option(
        help: ArgumentHelp(
            "The time zone of local times (App Usage), and of the device if it is new (default: the device's; none is assumed).",
            valueName: "zone"),
        transform: TimeZoneArgument.parse)
    var timeZone: TimeZone?

    @Option(help: ArgumentHelp("The order of day and month in App Usage dates, when the file cannot tell: dmy or mdy."))
    var dateOrder: DateOrder?

    @Flag(
        help:
            "Import into the device with no --device even though it holds logs of another kind (a file of another phone goes to its own --device)."
    )
    var sameDevice = false

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

    @Option(
        name: .customLong("device-event-label"),
        help: ArgumentHelp(
            "An App Usage pseudo-row in the phone's language and what it is: LABEL=screenOn|screenOff|unlock|boot|shutdown|notification (a notification's rows are LABEL (App)); repeatable.",
            valueName: "label=kind"),
        transform: RowLabelArgument.parse)
    var rowLabels: [RowLabelArgument] = []

    @OptionGroup var output: OutputOptions

    @OptionGroup var clock: ClockOptions

    func run() async throws {
        // A new SQLite file, and the folders made for it, go again if nothing was imported into it.
        let path = store.database.postgresURL() == nil ? store.databasePath() : nil
        let isNew = path.map { !FileManager.default.fileExists(atPath: $0) } ?? false
        let newFolders = path.map(EventStore.missingFolders(for:)) ?? []
        let (summary, zoneless) = try await importFiles()
        if output.json {
            print(try Output.json(summary))
        } else if let note = ImportText.systemAppsNote(summary.systemApps) {
            print(note)
        }
        for note in ImportText.zoneNeeded(devices: zoneless) { Output.error(note) }
        guard summary.failures.isEmpty else {
            // A store this command made for files that all failed holds nothing: it goes, with
            // the folders made for it, so that a mistyped --db leaves nothing behind. (Its store
            // is closed by now.)
            if let path, isNew, summary.imports.isEmpty {
                EventStore.removeIfEmpty(at: path, madeFolders: newFolders)
            }
            throw ExitCode.failure
        }
    }

    /// Imports the files, each in its own transaction; the store is closed on return. Also
    /// returns the store's devices that have no time zone, when a file was imported.
    func importFiles() async throws -> (ImportText.Summary, zoneless: [String]) {
        let eventStore = try store.openStore()
        let before = Set(try await eventStore.devices())
        let rejectsFile = try rejects.map { try RejectsFile(path: $0) }
        let options = ImportOptions(
            format: format, device: store.device, timeZone: timeZone, dateOrder: dateOrder,
            skipInvalid: skipInvalid, extraIgnoredPackages: Set(ignoredPackages),
            rowLabels: Dictionary(rowLabels.map { ($0.label, $0.meaning) }, uniquingKeysWith: { _, last in last }))
        var summary = ImportText.Summary(imports: [], failures: [], systemApps: [])
        // The logs the device holds, read from the import log (which counts every stored event)
        // once, not for every file, then kept up with this command's own imports.
        var held: [HeldLog]?
        for file in files {
            let bar = ProgressBar(label: (file as NSString).lastPathComponent)
            do {
                try await checkSource(of: file, in: eventStore, held: &held)
                let report = try await eventStore.importFile(
                    file, options: options, now: try clock.currentDate(), progress: bar.update,
                    onReject: rejectsFile?.write)
                bar.finish()
                summary.imports.append(report)
                // The first log of a device is read back, for its import's id, which a refusal
                // names; later ones only add their kind.
                if held?.isEmpty == true {
                    held = nil
                } else {
                    held?.append(HeldLog(file: report.file, id: nil, format: report.format.rawValue))
                }
                let zone = try await eventStore.timeZone(device: report.devices.first ?? report.device)
                if !output.json { ImportText.show(report, zone: zone, rejectsPath: rejects) }
            } catch {
                bar.finish()
                summary.failures.append(ImportText.Failure(file: file, error: error))
                if !output.json { ImportText.show(error) }
            }
        }
        guard !summary.imports.isEmpty else { return (summary, []) }
        // Every device, not only --device: a device column spreads a file over several.
        // Only the devices this import wrote into: a note about another device, zoned or not,
        // would be about nothing this command did.
        let devices = Set(try await eventStore.devices())
        let written = devices.subtracting(before).union(devices.intersection(summary.imports.flatMap(\.devices)))
        var zoneless: [String] = []
        for device in written.sorted() {
            if try await eventStore.timeZone(device: device) == nil { zoneless.append(device) }
            // The apps taken as the system's, said with the import that brought them.
            summary.systemApps += try await eventStore.apps(device: device).filter(\.system).map {
                ImportText.SystemApp(device: device, app: $0.app, role: SystemApps.entry(for: $0.app)?.role ?? "")
            }
        }
        return (summary, zoneless)
    }

    /// A log the device holds: its file, its import's id (`nil` for one this command added after
    /// others, never the first, which a refusal names), and its format.
    struct HeldLog {
        var file: String
        var id: Int64?
        var format: String
    }

    /// A file of another kind of source than the logs its device already holds, imported with no
    /// `--device`: likely another phone's, which would be mixed into this one's habits unseen.
    struct OtherSource: Error, CustomStringConvertible {
        var file: String
        var device: String
        var format: ImportFormat
        var held: [HeldLog]

        var description: String {
            let first = held[0]
            let kinds = Set(held.compactMap { ImportFormat(rawValue: $0.format)?.source }).sorted()
            return "\(file) is a log of \(format.source) (\(format.rawValue)), and device \(device) holds "
                + "\(kinds.joined(separator: " and ")) logs (\((first.file as NSString).lastPathComponent), import \(first.id ?? 0)"
                + (held.count > 1 ? ", and \(held.count - 1) more" : "") + "): nothing was stored. "
                + "If it is another phone's, import it into a device of its own with --device NAME; "
                + "if it is this phone's, add --same-device."
        }
    }

    /// Refuses a file imported with no `--device` whose kind of source differs from every log
    /// the device holds (``OtherSource``), unless `--same-device` confirms it. A file whose format
    /// cannot be told is left to the import, which says why.
    func checkSource(of file: String, in eventStore: any ImportLogKeeping, held: inout [HeldLog]?) async throws {
        guard store.deviceOption == nil, !sameDevice else { return }
        if held == nil {
            held = try await eventStore.imports().filter { $0.device == store.device }.map {
                HeldLog(file: $0.file, id: $0.id, format: $0.format)
            }
        }
        guard let logs = held, !logs.isEmpty, let format = format ?? (try? ImportFormat.detect(inFileAt: file)) else {
            return
        }
        if !logs.contains(where: { ImportFormat(rawValue: $0.format)?.source == format.source }) {
            throw OtherSource(file: file, device: store.device, format: format, held: logs)
        }
    }
}
