import ArgumentParser
import FetchPredictor
import Foundation

struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the apps of a device with their interval, launches and fetch results.",
        discussion: """
            Example:
              fetchpredict apps --device phone
              fetchpredict apps --all-devices --json
              fetchpredict apps --now 2024-05-01T00:00:00Z
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "List the apps of every device.")
    var allDevices = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var clock: ClockOptions

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        if !allDevices { try await KnownNames.requireDevice(store.device, in: eventStore) }
        // As of --now when given: a local time in the device's zone (with --all-devices, an instant).
        let zone = allDevices ? nil : try await eventStore.timeZone(device: store.device)
        let asOf = try clock.now.map { _ in try clock.currentDate(in: zone) }
        let apps = try await eventStore.apps(device: allDevices ? nil : store.device, asOf: asOf)
        var zones: [String: TimeZone] = [:]
        for device in Set(apps.map(\.device)) { zones[device] = try await eventStore.timeZone(device: device) }
        let scope = allDevices ? "any device" : "device \(store.device)"
        try output.print(apps) { Self.describe($0, zones: zones, scope: scope) }
    }

    /// The apps as a table, with a note on default intervals, first and last seen in each device's zone (in UTC, marked Z, where it has none).
    static func describe(_ apps: [AppSummary], zones: [String: TimeZone], scope: String) -> String {
        if apps.isEmpty { return "No apps on \(scope) yet: import a log or record events first." }
        let rows = apps.map { app in
            [
                app.device, app.app, app.system ? "system" : app.interval.text + (app.intervalIsDefault ? "*" : ""),
                app.enabled ? "yes" : "no",
                String(app.launches), String(app.fetchesNewData), String(app.fetchesNoData), String(app.fetchesFailed),
                String(app.notifications),
                Output.local(app.firstSeen, zones[app.device]), Output.local(app.lastSeen, zones[app.device]),
            ]
        }
        var headers = [
            "DEVICE", "APP", "INTERVAL", "ENABLED", "LAUNCHES", "NEWDATA", "NODATA", "FAILED", "NOTIFIED", "FIRST SEEN",
            "LAST SEEN",
        ]
        var cells = rows
        // What an app needs of the device's state, where one needs anything.
        if apps.contains(where: { !$0.constraints.isEmpty }) {
            headers.insert("NEEDS", at: 4)
            for (index, app) in apps.enumerated() {
                let needs = [
                    app.requiresPower ? "power" : nil, app.requiresUnmetered ? "unmetered" : nil,
                    app.requiresBatteryNotLow ? "battery" : nil,
                ].compactMap { $0 }
                cells[index].insert(needs.isEmpty ? "-" : needs.joined(separator: ","), at: 4)
            }
        }
        let shift = headers.count - 11
        var text = Output.table(headers, cells, rightAligned: Set([4, 5, 6, 7, 8].map { $0 + shift }))
        if apps.contains(where: { $0.intervalIsDefault && !$0.system }) {
            text +=
                "\n* the default interval (the device's own, else the store's); set one with fetchpredict config APP --interval."
        }
        if apps.contains(where: \.system) {
            text +=
                "\nsystem: a system package (clock, calls, settings, installer...), never woken unless given an interval of its own: fetchpredict config APP --interval minimum, or for many at once --apps-matching PATTERN or --apps-file FILE."
        }
        return text
    }
}
