import ArgumentParser
import FetchPredictor
import Foundation

struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete for good every event before a date, every event one import stored, or a whole device.",
        discussion: """
            With --before, deletes launches, fetch results and device events before the date, \
            of --device or of every device with --all-devices. With --import ID, deletes exactly \
            the events that import stored (fetchpredict imports lists them) and its entry in the \
            import log, so that its file can be imported again, read another way; the events a \
            later import also held stay, as that import's. Either way the \
            apps left with neither events nor settings of their own go too, with the learned \
            models that remember what was deleted, and the file is compacted so that nothing \
            deleted lingers in it. --dry-run says what would go and changes nothing.

            With --all, erases the device that --device names (never the default by omission): \
            every event, app, setting, learned model and import record of it, and the device \
            itself, in one transaction, as a person's right to erasure asks.

            Example:
              fetchpredict prune --before 2024-01-01T00:00:00Z --all-devices --dry-run
              fetchpredict prune --import 1
              fetchpredict prune --device tablet --all
            """)

    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "Delete events before this date (YYYY-MM-DD, device time) or instant (ISO 8601).", valueName: "date"))
    var before: String?

    @Option(name: .customLong("import"), help: ArgumentHelp("Delete the events this import stored.", valueName: "id"))
    var importID: Int64?

    @Flag(help: "Prune every device, not only --device (with --before).")
    var allDevices = false

    @Flag(help: "Erase the device --device names: its events, apps, settings, models and import records, and itself.")
    var all = false

    @Flag(help: "Say what would be deleted, and delete nothing.")
    var dryRun = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if all {
            if before != nil || importID != nil || allDevices {
                throw ValidationError(
                    "--all erases one whole device: give it with --device alone, no --before, --import or --all-devices."
                )
            }
            if store.deviceOption == nil {
                throw ValidationError("--all erases a whole device: name it with --device, even the default one.")
            }
            return
        }
        if before == nil && importID == nil {
            throw ValidationError("Give --before DATE, --import ID, or --device D --all.")
        }
        if before != nil && importID != nil {
            throw ValidationError("Give --before DATE or --import ID, not both: they are two ways to prune.")
        }
        if importID != nil && allDevices {
            throw ValidationError("--import deletes one import's events, of whatever device: give no --all-devices.")
        }
    }

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        let report: PruneReport
        let scope: String
        if all {
            try await KnownNames.requireDevice(store.device, in: eventStore)
            report = try await eventStore.eraseDevice(store.device, dryRun: dryRun)
            scope = "and device \(store.device) itself, with its apps, settings, learned models and import records"
        } else if let importID {
            // --device may name the import's own device, as a check; any other is refused.
            if let device = store.deviceOption,
                let imported = try await eventStore.imports().first(where: { $0.id == importID }),
                imported.device != device
            {
                throw ValidationError(
                    "Import \(importID) was imported for device \(imported.device), not \(device): give its own device, or none."
                )
            }
            report = try await eventStore.prune(importID: importID, dryRun: dryRun)
            scope = "stored by import \(importID)"
        } else {
            if !allDevices { try await KnownNames.requireDevice(store.device, in: eventStore) }
            let zone = allDevices ? nil : try await eventStore.timeZone(device: store.device)
            let text = before!.count == 10 ? before! + " 00:00" : before!
            let instant = try TimeArgument.parse(text, option: "--before", zone: zone, now: Date())
            report = try await eventStore.prune(
                before: instant.milliseconds, device: allDevices ? nil : store.device, dryRun: dryRun)
            scope =
                "before \(TimestampFormatter.iso(instant.milliseconds)) from "
                + (allDevices ? "every device" : "device \(store.device)")
        }
        try output.print(Pruned(dryRun: dryRun, report: report)) {
            "\($0.dryRun ? "Would delete" : "Deleted") \(Output.count($0.report.total, "event")) \(scope) "
                + "(\(Output.count($0.report.launches, "launch")), \(Output.count($0.report.fetches, "fetch")), "
                + "\(Output.count($0.report.notifications, "notification")), "
                + "\(Output.count($0.report.deviceEvents, "device event")))"
                + ($0.report.kept > 0
                    ? "; \($0.dryRun ? "would keep" : "kept") \($0.report.kept) that a later import also holds" : "")
                + ($0.dryRun ? "; nothing was changed." : ".")
        }
    }

    /// What the command says in JSON.
    struct Pruned: Encodable {
        var dryRun: Bool
        var report: PruneReport

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(dryRun, forKey: .dryRun)
        }

        enum Keys: String, CodingKey { case dryRun }
    }
}
