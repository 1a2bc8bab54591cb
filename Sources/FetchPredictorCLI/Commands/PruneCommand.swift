import ArgumentParser
import FetchPredictor
import Foundation

struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete for good every event before a date, and say how many.",
        discussion: """
            Deletes launches, fetch results and device events, of --device or of every device \
            with --all-devices, the apps left with neither events nor settings of their own, \
            and the learned models that remember them; the file is then \
            compacted so that nothing deleted lingers in it. Settings and the import log are kept.

            Example:
              fetchpredict prune --before 2024-01-01 --all-devices
            """)

    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "Delete events before this date (YYYY-MM-DD, device time) or instant (ISO 8601).", valueName: "date"))
    var before: String

    @Flag(help: "Prune every device, not only --device.")
    var allDevices = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        let eventStore = try store.openStore(creating: false)
        if !allDevices { try KnownNames.requireDevice(store.device, in: eventStore) }
        let zone = try eventStore.timeZone(device: store.device) ?? .current
        let text = before.count == 10 ? before + " 00:00" : before
        let instant = try TimeArgument.parse(text, option: "--before", zone: zone, now: Date())
        let report = try eventStore.prune(before: instant.milliseconds, device: allDevices ? nil : store.device)
        let scope = allDevices ? "every device" : "device \(store.device)"
        try output.print(report) {
            "Deleted \($0.total) events before \(TimestampFormatter.iso(instant.milliseconds)) "
                + "(\($0.launches) launches, \($0.fetches) fetches, \($0.deviceEvents) device events) from \(scope)."
        }
    }
}
