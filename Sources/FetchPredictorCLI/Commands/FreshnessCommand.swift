import ArgumentParser
import FetchPredictor
import Foundation

struct FreshnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "freshness",
        abstract: "Did the wakes pay? Fresh cold launches of the fetches the store holds, against fetching on a timer.",
        discussion: """
            Scores the fetch results and launches stored for a period as the backtest protocol \
            scores a replay: a cold launch (none of the app in the 30 minutes before) is fresh \
            when a fetch of the app that did not fail started in the 30 minutes before it and at \
            least a minute before it. Beside what happened, the same cold launches under a fetch \
            of every app every 30, 60 and 120 minutes, and under the oracle (a fetch just before \
            each cold launch). A fetch result's time is when the fetch began. A fetch is wasted when \
            it brings noData, fails, or is followed within a day by another refresh of the app \
            before any launch of it.

            By default each local day of the period is scored alone, with the apps launched or \
            fetched on it (its app-days), so that a period is the sum of its days, as the \
            service keeps a tenant's; --scope protocol scores as evaluate does (apps with 20 cold launches in the \
            whole log, after a warm-up of 7 days), so that a log whose wakes evaluate wrote \
            (--wakes-out), stored as fetch results, reads the same counts as evaluate's.

            Without --from, each device's period starts on the local day of its first launch or \
            fetch; without --to, it ends with the local day of its last.

            Example:
              fetchpredict freshness --device phone --from 2024-05-01 --to 2024-05-08
              fetchpredict freshness --all-devices --json
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Every device of the store, added up (default: the one --device names).")
    var allDevices = false

    @Option(
        help: ArgumentHelp(
            "The period's first instant: ISO 8601, Unix seconds, or a local YYYY-MM-DD [HH:MM] in the device's zone.",
            valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("The instant the period ends before, written as --from.", valueName: "time"))
    var to: String?

    @Option(help: ArgumentHelp("Score this app alone (default: every app).", valueName: "app"))
    var app: String?

    @Option(help: ArgumentHelp("What is scored: all (what happened) or protocol (as evaluate scores)."))
    var scope: FreshnessScope = .all

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        if !allDevices { try await KnownNames.requireDevice(store.device, in: eventStore) }
        let zone = allDevices ? nil : try await eventStore.timeZone(device: store.device)
        let start = try from.map { try Self.instant($0, option: "--from", zone: zone) }
        let end = try to.map { try Self.instant($0, option: "--to", zone: zone) }
        if let start, let end, start >= end {
            throw ValidationError("--from must come before --to: the period is empty.")
        }
        let settings = BacktestSettings()
        // What happened needs the window before the period (is a launch cold, is it fresh) and
        // a day after it (did a refresh waste a fetch).
        let (readFrom, readTo) =
            scope == .all
            ? (start.map { Freshness.readFrom($0, settings) }, end.map(Freshness.readTo))
            : (nil, nil)
        let devices = try await eventStore.backtestDevices(
            allDevices ? nil : [store.device], from: readFrom, to: readTo)
        let report = Freshness.measure(
            devices, from: start, to: end, scope: scope, apps: app.map { [$0] }, settings: settings)
        try output.print(report) { FreshnessText.describe($0) }
    }

    /// An instant the option gives; a date alone is its local midnight.
    static func instant(_ text: String, option: String, zone: TimeZone?) throws -> Milliseconds {
        let isDate = text.count == 10 && text.filter { $0 == "-" }.count == 2
        if isDate, zone == nil {
            throw ValidationError(
                "\(option) '\(text)' is a local date, and no device's zone reads it: write an instant, such as \(text)T00:00:00Z."
            )
        }
        return try TimeArgument.parse(isDate ? text + " 00:00" : text, option: option, zone: zone, now: Date())
            .milliseconds
    }
}

extension FreshnessScope: ExpressibleByArgument {}

/// What `freshness` prints: what happened against the baselines, each app's, each device's.
enum FreshnessText {
    static func describe(_ report: FreshnessReport) -> String {
        guard !report.devices.isEmpty else { return "No device to score." }
        var lines: [String] = []
        let zone = report.devices.count == 1 ? TimeZone(identifier: report.devices[0].timeZone) : nil
        let period =
            report.devices.count == 1
            ? "\(Output.local(report.devices[0].from, zone)) to \(Output.local(report.devices[0].to, zone))"
            : "\(Output.local(report.from, nil)) to \(Output.local(report.to, nil))"
        let scope =
            report.scope == .all
            ? "each day's apps launched or fetched" : "the backtest protocol's apps and days, as evaluate scores"
        let devices =
            report.devices.count == 1
            ? "device \(report.devices[0].device)" : Output.count(report.devices.count, "device")
        lines.append("Freshness of \(devices), \(period) (\(scope)): \(Output.count(report.observed.days, "day")).")
        lines.append("")
        lines.append(table("STRATEGY", [report.observed] + report.baselines) { $0.strategy })
        lines.append(
            "observed: the fetches stored; periodic-N: every app every N minutes; oracle: a fetch just before each cold launch."
        )
        if !report.apps.isEmpty {
            lines.append("")
            lines.append(table("APP", report.apps.map(\.observed), names: report.apps.map(\.app)))
        }
        if report.devices.count > 1 {
            lines.append("")
            lines.append(table("DEVICE", report.devices.map(\.observed), names: report.devices.map(\.device)))
        }
        if report.observed.coldLaunches == 0 {
            lines.append("")
            lines.append("No cold launch in the period: nothing to be fresh for.")
        }
        return lines.joined(separator: "\n")
    }

    private static func table(_ title: String, _ figures: [FreshnessFigures], names: [String]) -> String {
        var index = 0
        return table(title, figures) { _ in
            defer { index += 1 }
            return names[index]
        }
    }

    private static func table(
        _ title: String, _ figures: [FreshnessFigures], name: (FreshnessFigures) -> String
    ) -> String {
        let rows = figures.map { figure -> [String] in
            [
                name(figure), String(figure.coldLaunches), String(figure.freshColdLaunches),
                String(format: "%.3f", figure.freshRate), String(figure.fetches),
                String(format: "%.2f", figure.fetchesPerAppDay), String(format: "%.1f", figure.deviceWakesPerDay),
                String(figure.wasted), figure.medianContentAgeMinutes.map { String(format: "%.0f", $0) } ?? "-",
            ]
        }
        return Output.table(
            [
                title, "COLD", "FRESH", "FRESH RATE", "FETCHES", "FETCHES/APP-DAY", "DEVICE WAKES/DAY", "WASTED",
                "MEDIAN AGE (MIN)",
            ], rows, rightAligned: [1, 2, 3, 4, 5, 6, 7, 8])
    }
}
