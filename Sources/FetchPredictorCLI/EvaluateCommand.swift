import ArgumentParser
import FetchPredictor
import Foundation

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Backtest the predictor: fresh content at launch against periodic fetching and the oracle.",
        discussion: """
            Replays each device's launches through the library, as the backtest protocol \
            describes, at several budget levels, and scores the cold launches that find fresh \
            content. Give log files to evaluate them in a temporary store (one device per file), \
            or none to evaluate the store's devices.

            Example:
              fetchpredict evaluate export.json --time-zone Europe/Warsaw
              fetchpredict evaluate --db events.sqlite --scenario news.json --json
            """)

    @Argument(help: ArgumentHelp("Log files to evaluate instead of the store.", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("The database file, when no log files are given.", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Evaluate only this device of the store.", valueName: "name"))
    var device: String?

    @Option(help: ArgumentHelp("The time zone of the logs' devices (default: the device's, else UTC).", valueName: "zone"))
    var timeZone: String?

    @Option(help: ArgumentHelp("The order of day and month in App Usage dates: dmy or mdy."))
    var dateOrder: DateOrder?

    @Option(help: ArgumentHelp("A JSON file naming the apps in scope and their intervals: {\"apps\": {\"APP\": \"minimum\"}}.", valueName: "file"))
    var settings: String?

    @Option(help: ArgumentHelp("A JSON content scenario: when apps publish and when their fetches fail.", valueName: "file"))
    var scenario: String?

    @Option(help: ArgumentHelp("The freshness window, in minutes.", valueName: "minutes"))
    var window: Double = 30

    @Option(help: ArgumentHelp("The lead, in minutes.", valueName: "minutes"))
    var lead: Double = 1

    @Option(help: ArgumentHelp("Days of each device learned but not scored.", valueName: "days"))
    var warmupDays: Int = 7

    @Option(help: ArgumentHelp("The budget levels of the frontier, comma-separated.", valueName: "levels"))
    var budgets: String = BacktestSettings().budgets.map { String($0) }.joined(separator: ",")

    @Option(help: ArgumentHelp("The budget of the run written by --wakes-out and --launches-out.", valueName: "level"))
    var budget: Double = PredictorConfiguration().budget

    @Flag(help: "Plan from launches alone, ignoring fetch results (for comparison).")
    var ignoreFetchResults = false

    @Option(help: ArgumentHelp("Write every simulated fetch as CSV (device,app,start,result).", valueName: "file"))
    var wakesOut: String?

    @Option(help: ArgumentHelp("Write every scored cold launch as CSV (device,app,time,fresh).", valueName: "file"))
    var launchesOut: String?

    @Flag(help: "Print the results as JSON.")
    var json = false

    func validate() throws {
        guard window > lead, lead >= 0 else { throw ValidationError("--window must be longer than --lead, and --lead 0 or more.") }
        guard warmupDays >= 0 else { throw ValidationError("--warmup-days must be 0 or more.") }
        guard parsedBudgets() != nil else {
            throw ValidationError("--budgets must be numbers from 0 to 1 separated by commas, such as 0.5,0.75,0.9.")
        }
        guard (0...1).contains(budget) else { throw ValidationError("--budget must be from 0 to 1.") }
    }

    func parsedBudgets() -> [Double]? {
        let values = budgets.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil && (0...1).contains($0!) }) else { return nil }
        return values.map { $0! }
    }

    func run() throws {
        let zone = try timeZone.map { try TimeZoneArgument.parse($0) }
        var backtest = BacktestSettings()
        backtest.window = window * 60
        backtest.lead = lead * 60
        backtest.warmupDays = warmupDays
        backtest.budgets = parsedBudgets()!
        backtest.reportedBudget = budget
        backtest.configuration.usesFetchResults = !ignoreFetchResults
        if let scenario {
            do {
                backtest.scenario = try ContentScenario.parse(Data(contentsOf: URL(fileURLWithPath: scenario)))
            } catch {
                throw ValidationError("--scenario \(scenario): \(error)")
            }
        }
        if let settings { backtest.apps = try Self.readSettings(settings) }
        let devices = try loadDevices(zone: zone)
        let bar = ProgressBar(label: "evaluating")
        let report = Backtest.run(devices, settings: backtest, progress: { done, total in bar.update(Int64(done), Int64(total)) })
        bar.finish()
        if let wakesOut {
            let rows = report.fetches.map { "\($0.device),\($0.app),\(TimestampFormatter.iso($0.start)),\($0.result.rawValue)" }
            try (["device,app,start,result"] + rows).joined(separator: "\n").appending("\n").write(toFile: wakesOut, atomically: true, encoding: .utf8)
        }
        if let launchesOut {
            let rows = report.launches.map { "\($0.device),\($0.app),\(TimestampFormatter.iso($0.time)),\($0.fresh)" }
            try (["device,app,time,fresh"] + rows).joined(separator: "\n").appending("\n").write(toFile: launchesOut, atomically: true, encoding: .utf8)
        }
        if json {
            print(try Output.json(report))
        } else {
            print(Self.describe(report, backtest))
        }
    }

    static func readSettings(_ path: String) throws -> [String: FetchInterval] {
        struct File: Decodable { var apps: [String: FetchInterval] }
        do {
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path))).apps
        } catch {
            throw ValidationError("--settings \(path) is not a settings file such as {\"apps\": {\"com.example.news\": \"minimum\", \"com.example.mail\": 3600}}.")
        }
    }

    func loadDevices(zone: TimeZone?) throws -> [BacktestDevice] {
        let store: EventStore
        var names: [String]
        if files.isEmpty {
            store = try StoreOptions.open(path: db)
            names = try device.map { [$0] } ?? store.devices()
        } else {
            store = try EventStore.inMemory()
            names = []
            for file in files {
                let url = URL(fileURLWithPath: file)
                let name = files.count == 1 ? (device ?? "default") : url.deletingLastPathComponent().lastPathComponent + "/" + url.deletingPathExtension().lastPathComponent
                _ = try store.importFile(
                    file, options: ImportOptions(device: name, timeZone: zone, defaultTimeZone: zone ?? TimeZone(identifier: "UTC")!, dateOrder: dateOrder),
                    now: Date(timeIntervalSince1970: 0))
                names.append(name)
            }
        }
        return try names.map { name in
            let stored = try store.timeZone(device: name)
            let deviceZone = zone ?? stored ?? TimeZone(identifier: "UTC")!
            return BacktestDevice(name: name, timeZone: deviceZone, launches: try store.events(device: name).filter { $0.kind == .launch })
        }
    }

    static func describe(_ report: BacktestReport, _ settings: BacktestSettings) -> String {
        var lines: [String] = []
        lines.append(
            "Backtest: window \(Int(settings.window / 60)) min, lead \(Int(settings.lead / 60)) min, warm-up \(settings.warmupDays) days"
                + (settings.scenario == nil ? ", content changing all the time." : ", with a content scenario."))
        func table(_ figures: [StrategyFigures]) -> String {
            let rows = figures.map { figure -> [String] in
                [
                    figure.strategy, figure.budget.map { String(format: "%.2f", $0) } ?? "", String(figure.coldLaunches),
                    String(format: "%.3f", figure.freshRate), String(format: "%.2f", figure.wakesPerAppDay),
                    String(format: "%.1f", figure.deviceWakesPerDay), String(figure.wasted),
                    figure.medianContentAgeMinutes.map { String(format: "%.0f", $0) } ?? "-",
                ]
            }
            return Output.table(
                ["STRATEGY", "BUDGET", "COLD", "FRESH", "WAKES/APP-DAY", "DEVICE WAKES/DAY", "WASTED", "MEDIAN AGE (MIN)"], rows,
                rightAligned: [1, 2, 3, 4, 5, 6, 7])
        }
        for device in report.devices {
            lines.append("")
            lines.append("device \(device.device) (\(device.timeZone)): \(device.scoredDays) scored days, \(device.apps.count) apps in scope")
            lines.append(table(device.strategies))
        }
        if report.devices.count > 1 {
            lines.append("")
            lines.append("overall:")
            lines.append(table(report.overall))
        }
        lines.append("")
        lines.append(
            "fresh@4: " + (report.freshAt4.map { String(format: "%.3f", $0) } ?? "not reached (the frontier does not span 4 wakes per app-day)")
                + "   wakes@50: " + (report.wakesAt50.map { String(format: "%.2f", $0) } ?? "not reached"))
        return lines.joined(separator: "\n")
    }
}
