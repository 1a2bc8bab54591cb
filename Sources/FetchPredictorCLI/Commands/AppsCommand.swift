import ArgumentParser
import FetchPredictor
import Foundation

struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the apps of a device with their interval, launches and fetch results.",
        discussion: """
            Example:
              fetchpredict apps --device phone
              fetchpredict apps --all-devices --json
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "List the apps of every device.")
    var allDevices = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        let eventStore = try store.openStore(creating: false)
        if !allDevices { try KnownNames.requireDevice(store.device, in: eventStore) }
        let apps = try eventStore.apps(device: allDevices ? nil : store.device)
        var zones: [String: TimeZone] = [:]
        for device in Set(apps.map(\.device)) { zones[device] = try eventStore.timeZone(device: device) ?? .current }
        let scope = allDevices ? "any device" : "device \(store.device)"
        try output.print(apps) { Self.describe($0, zones: zones, scope: scope) }
    }

    /// The apps as a table, with a note on default intervals.
    static func describe(_ apps: [AppSummary], zones: [String: TimeZone], scope: String) -> String {
        if apps.isEmpty { return "No apps on \(scope) yet: import a log or record events first." }
        let rows = apps.map { app in
            [
                app.device, app.app, app.interval.text + (app.intervalIsDefault ? "*" : ""), app.enabled ? "yes" : "no",
                String(app.launches), String(app.fetchesNewData), String(app.fetchesNoData), String(app.fetchesFailed),
                Output.local(app.firstSeen, zones[app.device]!), Output.local(app.lastSeen, zones[app.device]!),
            ]
        }
        var text = Output.table(
            [
                "DEVICE", "APP", "INTERVAL", "ENABLED", "LAUNCHES", "NEWDATA", "NODATA", "FAILED", "FIRST SEEN",
                "LAST SEEN",
            ],
            rows, rightAligned: [4, 5, 6, 7])
        if apps.contains(where: \.intervalIsDefault) {
            text += "\n* the store's default interval; set one with fetchpredict config APP --interval."
        }
        return text
    }
}
