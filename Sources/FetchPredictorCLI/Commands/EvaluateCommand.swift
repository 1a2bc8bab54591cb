import ArgumentParser
import FetchPredictor
import Foundation

struct EvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Backtest the predictor: fresh content at launch against periodic fetching and the oracle.",
        discussion: """
            Replays each device's launches through the library, as the backtest protocol \
            describes, at several budget levels, and scores the cold launches that find fresh \
            content. Give log files to evaluate them without storing them: the devices are those \
            their rows name (a device column), else one per file, named after it; --time-zone \
            names the zone their habits are read in. Give none to evaluate the store's devices, \
            each in its own zone. With --device, only that device.

            Example:
              fetchpredict evaluate export.json --time-zone Europe/Warsaw
              fetchpredict evaluate --db events.sqlite --scenario news.json --json
            """)

    @Argument(help: ArgumentHelp("Log files to evaluate instead of the store.", valueName: "file"))
    var files: [String] = []

    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "The time zone of the logs' devices; needed with files (a store's devices have their own).",
            valueName: "zone"),
        transform: TimeZoneArgument.parse)
    var timeZone: TimeZone?

    @Option(help: ArgumentHelp("The order of day and month in App Usage dates: dmy or mdy."))
    var dateOrder: DateOrder?

    @Option(help: ArgumentHelp("The files' format, as import takes it (default: detected)."))
    var format: ImportFormat?

    @Option(
        help: ArgumentHelp(
            "A JSON file naming the apps in scope, their intervals and constraints: {\"apps\": {\"APP\": \"minimum\"}}.",
            valueName: "file"))
    var settings: String?

    @Option(
        help: ArgumentHelp("A JSON content scenario: when apps publish and when their fetches fail.", valueName: "file")
    )
    var scenario: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The freshness window, in minutes.", valueName: "minutes"))
    var window: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("The lead, in minutes.", valueName: "minutes"))
    var lead: Double = 1

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Days of each device learned but not scored.", valueName: "days"))
    var warmupDays: Int = 7

    @Option(
        help: ArgumentHelp(
            "The budget levels of the frontier, comma-separated (default: \(BudgetLevels(BacktestSettings().budgets))); the default level, \(PredictorConfiguration().budget), always runs too.",
            valueName: "levels"),
        transform: BudgetLevels.init(parsing:))
    var budgets = BudgetLevels(BacktestSettings().budgets)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rounds that each add the budget halfway between the levels fresh@4 and wakes@50 are read between "
                + "(0 for the levels alone).",
            valueName: "rounds"))
    var refinements = BacktestSettings().refinements

    @Option(
        help: ArgumentHelp(
            "The budget of the run written by --wakes-out and --launches-out (default: \(PredictorConfiguration().budget)).",
            valueName: "level"),
        transform: BudgetArgument.parse)
    var budget: Double = PredictorConfiguration().budget

    @Flag(help: "Plan from launches alone, ignoring fetch results (for comparison).")
    var ignoreFetchResults = false

    @Option(help: ForecasterArgument.help)
    var forecaster = ForecasterArgument.defaultValue

    @Option(help: WakePlanning.help)
    var planning = PredictorConfiguration().planning

    @Option(help: ArgumentHelp("Write every simulated fetch as CSV (device,app,start,result).", valueName: "file"))
    var wakesOut: String?

    @Option(help: ArgumentHelp("Write every scored cold launch as CSV (device,app,time,fresh).", valueName: "file"))
    var launchesOut: String?

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Write the frontier, the reliability of forecasts and each app's fresh launches as an HTML report.",
            valueName: "file"))
    var reportPath: String?

    @Flag(help: "Replay the valid rows of a file with invalid ones, and report the invalid.")
    var skipInvalid = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard window > lead, lead >= 0 else {
            throw ValidationError("--window must be longer than --lead, and --lead 0 or more.")
        }
        guard warmupDays >= 0 else { throw ValidationError("--warmup-days must be 0 or more.") }
        guard refinements >= 0 else { throw ValidationError("--refinements must be 0 or more.") }
    }

    func run() async throws {
        let backtest = try backtestSettings()
        let devices = files.isEmpty ? try await storeDevices() : try fileDevices()
        // The files written after the replay are opened before it, so that a path that cannot be
        // written is said at once, not after minutes of work.
        let wakesFile = try wakesOut.map { try OutputFile(path: $0, option: "--wakes-out") }
        let launchesFile = try launchesOut.map { try OutputFile(path: $0, option: "--launches-out") }
        let reportFile = try reportPath.map { try OutputFile(path: $0, option: "--report") }
        let bar = ProgressBar(label: "evaluating")
        let report = Backtest.run(devices, settings: backtest) { bar.update(Int64($0), Int64($1)) }
        bar.finish()
        if let wakesFile {
            try wakesFile.write(EvaluationText.wakesCSV(report))
            try wakesFile.close()
        }
        if let reportFile {
            try reportFile.line(HTMLReport.page(evaluation: report, settings: backtest))
            try reportFile.close()
        }
        if let launchesFile {
            try launchesFile.write(EvaluationText.launchesCSV(report))
            try launchesFile.close()
        }
        try output.print(report) { EvaluationText.describe($0, backtest) }
    }

    /// The store's devices, or the one `--device` names, which must be in it.
    func storeDevices() async throws -> [BacktestDevice] {
        let eventStore = try store.openStore(creating: false)
        if let device = store.deviceOption { try await KnownNames.requireDevice(device, in: eventStore) }
        return try await eventStore.backtestDevices(store.deviceOption.map { [$0] }, timeZone: timeZone)
    }

    /// The devices the files name, or the one `--device` names, which must be among them.
    func fileDevices() throws -> [BacktestDevice] {
        guard let timeZone else {
            throw ValidationError(
                "Daily habits are read in local time, and log files do not name their zone: give --time-zone, such as --time-zone Europe/Warsaw."
            )
        }
        var skipped = 0
        var devices: [BacktestDevice]
        do {
            devices = try BacktestDevice.load(
                files: files, format: format, timeZone: timeZone, dateOrder: dateOrder, skipInvalid: skipInvalid
            ) { rejection in
                guard skipInvalid else { return }
                skipped += 1
                if skipped <= 5 { Output.error("Skipped \(rejection)") }
            }
        } catch ImportError.invalidRows(let file, let rejected, let first) {
            // Said as evaluate does it: nothing is stored, and --skip-invalid replays the rest.
            throw InvalidRows(
                file, rejected: rejected, first: first, not: "evaluated",
                remedy: "Fix the file, or give --skip-invalid to replay its valid rows.")
        }
        if skipped > 5 { Output.error("... and \(skipped - 5) more invalid rows skipped.") }
        if let device = store.deviceOption {
            let names = devices.map(\.name)
            devices = devices.filter { $0.name == device }
            if devices.isEmpty {
                throw ValidationError(
                    "The files name no device '\(device)': they hold \(names.joined(separator: ", "))."
                )
            }
        }
        return devices
    }

    /// A log file with invalid rows, evaluated without --skip-invalid: an error in the data,
    /// not in how the command was called.
    /// A log that a replay refused for its invalid rows, said in the command's terms (a replay
    /// stores nothing, so "imported" is not the word).
    struct InvalidRows: Error, CustomStringConvertible {
        var description: String

        /// Why the file was `not` done, then the refused rows after the first, one a line, as
        /// `import` says them.
        init(_ file: String, rejected: Int, first: [Rejection], not done: String, remedy: String) {
            let headline =
                "\(file) was not \(done): \(Output.count(rejected, "invalid row")), the first: "
                + "\(first.first.map(\.description) ?? "?"). \(remedy)"
            description = ([headline] + ImportText.furtherRows(rejected, first: first)).joined(separator: "\n")
        }
    }

    /// The backtest's settings from the options and the files they name.
    func backtestSettings() throws -> BacktestSettings {
        var backtest = BacktestSettings()
        backtest.window = window * 60
        backtest.lead = lead * 60
        backtest.warmupDays = warmupDays
        backtest.budgets = budgets.values
        backtest.refinements = refinements
        backtest.reportedBudget = budget
        backtest.configuration.usesFetchResults = !ignoreFetchResults
        backtest.forecaster = try forecaster.forecaster()
        backtest.configuration.planning = planning
        if let scenario {
            let data = try Self.read(scenario, option: "--scenario")
            do {
                backtest.scenario = try ContentScenario.parse(data)
            } catch {
                throw ValidationError("--scenario \(scenario): \(error)")
            }
        }
        if let settings { (backtest.apps, backtest.constraints) = try Self.readSettings(settings) }
        return backtest
    }

    /// The bytes of a file an option names, or why they cannot be read, naming the option.
    static func read(_ path: String, option: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isFolder: ObjCBool = false
            let reason =
                !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                ? "there is no such file" : isFolder.boolValue ? "it is a folder" : "it cannot be read"
            throw ValidationError("\(option) \(path): \(reason).")
        }
    }

    /// The apps of a settings file, their intervals and constraints: each app's value is an
    /// interval, or an object of an "interval" and the constraints `config` sets
    /// ("requiresPower", "requiresUnmetered", "requiresBatteryNotLow": true or false). An app
    /// whose value cannot be read is named, with its value and the field at fault.
    static func readSettings(_ path: String) throws -> (
        intervals: [String: FetchInterval], constraints: [String: AppConstraints]
    ) {
        let data = try read(path, option: "--settings")
        guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let apps = file["apps"] as? [String: Any]
        else {
            throw ValidationError(
                "--settings \(path) is not a settings file such as {\"apps\": {\"com.example.news\": \"minimum\", \"com.example.mail\": 3600, \"com.example.photos\": {\"interval\": \"minimum\", \"requiresPower\": true}}}."
            )
        }
        var intervals: [String: FetchInterval] = [:]
        var constraints: [String: AppConstraints] = [:]
        for (app, value) in apps.sorted(by: { $0.key < $1.key }) {
            func refuse(_ field: String, _ value: Any, _ reason: String) -> ValidationError {
                let json = (try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)) ?? Data()
                return ValidationError(
                    "--settings \(path): the \(field) of \(app), \(String(decoding: json, as: UTF8.self)), is refused: \(reason)"
                )
            }
            var interval: Any = value
            if let object = value as? [String: Any] {
                let flags = AppConstraints.names
                if let unknown = object.keys.sorted().first(where: { $0 != "interval" && !flags.contains($0) }) {
                    throw refuse(
                        "settings", value,
                        "'\(unknown)' is not a setting: an app has an interval and \(flags.joined(separator: ", ")).")
                }
                var made = AppConstraints()
                for flag in flags {
                    guard let given = object[flag] else { continue }
                    // Read as JSON again: JSONSerialization gives 1 and true alike.
                    let text =
                        (try? JSONSerialization.data(withJSONObject: given, options: .fragmentsAllowed)) ?? Data()
                    guard let flagValue = try? JSONDecoder().decode(Bool.self, from: text) else {
                        throw refuse(flag, given, "it is true or false.")
                    }
                    made.set(flag, to: flagValue)
                }
                if !made.isEmpty { constraints[app] = made }
                interval = object["interval"] ?? "minimum"
            }
            let json = (try? JSONSerialization.data(withJSONObject: interval, options: .fragmentsAllowed)) ?? Data()
            do {
                intervals[app] = try JSONDecoder().decode(FetchInterval.self, from: json)
            } catch {
                let reason =
                    (error as? FetchIntervalError)?.description
                    ?? "an interval is minimum, never or a number of seconds."
                throw refuse("interval", interval, reason)
            }
        }
        return (intervals, constraints)
    }
}
