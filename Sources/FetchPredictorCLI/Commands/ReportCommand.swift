import ArgumentParser
import FetchPredictor
import Foundation

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report of a device: what was learned, the plan, and how good it is.",
        discussion: """
            One self-contained HTML file, with no network at all: the device and its apps; a \
            timeline of the next 24 hours' wakes with their reasons; each day's share of cold \
            launches that the fetches sent found fresh, against fetching every 30, 60 and 120 \
            minutes (what freshness counts); each app's weekday and \
            weekend profiles with its habits, the cold launches they were learned from, its \
            fetch results by hour and its state; with --evaluate, the backtest's frontier, the \
            reliability of its forecasts and each app's fresh launches. Charts are inline SVG; \
            the page reads in light and dark mode and prints.

            Example:
              fetchpredict report --device phone --out report.html
              fetchpredict report --device phone --evaluate --out report.html
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("The file to write.", valueName: "file"))
    var out = "report.html"

    @Flag(help: "Backtest the device too, and chart the frontier (slower: seconds for weeks of history).")
    var evaluate = false

    @OptionGroup var plan: PlanOptions

    @OptionGroup var clock: ClockOptions

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        try await KnownNames.requireDevice(store.device, in: eventStore)
        let zone = try await store.zone(in: eventStore)
        let bar = ProgressBar(label: "evaluating")
        let data = try await ReportData(
            store: eventStore, device: store.device, zone: zone, now: try clock.currentDate(in: zone),
            configuration: plan.configuration, forecaster: try plan.forecaster.forecaster(), evaluate: evaluate
        ) { bar.update(Int64($0), Int64($1)) }
        bar.finish()
        let file = try OutputFile(path: out, option: "--out")
        try file.line(HTMLReport.page(data))
        try file.close()
        Output.error(
            "Wrote \(out): \(data.apps.count) apps; \(WakeText.wakeCount(data.schedule)) in the next 24 hours."
                + (data.emptyHint.map { " \($0)" } ?? ""))
    }
}
