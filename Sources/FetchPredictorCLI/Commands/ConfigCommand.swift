import ArgumentParser
import FetchPredictor
import Foundation

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract:
            "Show or change an app's fetch interval and constraints, the store's default interval, or a device's time zone.",
        discussion: """
            An interval is never (never woken, the default of apps that set none, as on iOS), \
            minimum (as often as the planner finds worthwhile) or a number of seconds (never two \
            fetches closer than that). With no change given, prints the current settings.

            Example:
              fetchpredict config com.example.news --interval 3600
              fetchpredict config com.example.chat --interval minimum --enable
              fetchpredict config com.example.photos --requires-power
              fetchpredict config --default-interval minimum
              fetchpredict config --default-interval 3600 --device tablet
              fetchpredict config --time-zone Europe/Warsaw --device tablet
              fetchpredict config --apps-matching 'com.example.*' --interval 3600
              fetchpredict config --time-zone Europe/Brussels --device fr --reread

            System packages (clocks and alarms, calls, the system UI, settings, installers, \
            permission dialogs, Play services) are never woken unless given an interval of their \
            own; fetchpredict apps marks them 'system'. --apps-matching PATTERN (`*` stands for \
            any run of characters; repeatable) and --apps-file FILE (a name or pattern a line, # \
            for comments) change every app of the device that fits, at once.

            An app that needs a state of the device, as BGProcessingTask and WorkManager let one \
            ask, is woken only where the device is likely in it: --requires-power (on external \
            power), --requires-unmetered (on Wi-Fi or another unmetered network), \
            --requires-battery-not-low (20% or more, or charging); each --no- form lifts it. \
            The chances come from the device's state events (fetchpredict state); a device that \
            never told its state plans the app as one that asks nothing.
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The app to configure.", valueName: "app"))
    var app: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The app's minimum fetch interval: minimum, never or seconds.", valueName: "interval"),
        transform: IntervalArgument.parse)
    var interval: FetchInterval?

    /// `--enable` or `--disable`.
    enum Switch: String, EnumerableFlag {
        case enable, disable

        static func help(for value: Switch) -> ArgumentHelp? {
            value == .enable ? "Enable background fetch for the app." : "Disable background fetch for the app."
        }
    }

    @Flag var fetchSwitch: Switch?

    @Option(
        help: ArgumentHelp(
            "Change every app of the device whose name fits this pattern (* for any run of characters); repeatable.",
            valueName: "pattern"))
    var appsMatching: [String] = []

    @Option(
        help: ArgumentHelp(
            "Change every app of the device named, or fitting a pattern, in this file: one a line, # for comments.",
            valueName: "file"))
    var appsFile: String?

    /// Whether `--enable` or `--disable` was given, and which.
    var enable: Bool? { fetchSwitch.map { $0 == .enable } }

    @Flag(inversion: .prefixedNo, help: "Wake the app only while the device is on external power.")
    var requiresPower: Bool?

    @Flag(inversion: .prefixedNo, help: "Wake the app only while the device is on an unmetered network.")
    var requiresUnmetered: Bool?

    @Flag(
        inversion: .prefixedNo,
        help: "Wake the app only while the battery is not low (20% or more, or charging).")
    var requiresBatteryNotLow: Bool?

    /// The change of the app's settings the options ask for.
    var appChange: AppSettingsChange {
        AppSettingsChange(
            interval: interval.map { .some($0) }, enabled: enable, requiresPower: requiresPower,
            requiresUnmetered: requiresUnmetered, requiresBatteryNotLow: requiresBatteryNotLow)
    }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The interval of apps that set none, of the store or, with --device, of that device alone: minimum, never or seconds.",
            valueName: "interval"),
        transform: IntervalArgument.parse)
    var defaultInterval: FetchInterval?

    @Option(
        help: ArgumentHelp("The device's IANA time zone, such as Europe/Warsaw.", valueName: "zone"),
        transform: TimeZoneArgument.parse)
    var timeZone: TimeZone?

    @Option(
        help: ArgumentHelp(
            "A push budget: at most this many device wakes in any hour of a plan (1 to 60), or none; of the store's devices that set none or, with --device, of that device alone.",
            valueName: "count"))
    var wakesPerHour: WakesPerHourArgument?

    @Option(
        help: ArgumentHelp(
            "The forecaster the device is planned with, here and by the service: hazard, profile, daily or trees; default for the one each command or serve is given (--forecaster, hazard by default).",
            valueName: "name"))
    var forecaster: DeviceForecasterArgument?

    @Flag(
        help:
            "With --time-zone: read the device's imports of local times (App Usage, dumpsys) again in the new zone, in one transaction; each file must still be where it was imported from."
    )
    var reread = false

    @OptionGroup var output: OutputOptions

    /// The settings `config` shows.
    struct Settings: Encodable {
        var device: String
        /// Whether the store has the device; not in the JSON, whose shape scripts rely on.
        var deviceExists = true
        var timeZone: String?
        var defaultInterval: FetchInterval
        /// The device's push budget in force: its own, else its tenant's, else the store's.
        var wakesPerHour: Int?
        /// Whose budget that is.
        var wakesPerHourFrom = BudgetSource.none
        /// The device's own forecaster; `nil` for the one each command or the service is given.
        var forecaster: String?
        var app: AppSettings?

        enum CodingKeys: String, CodingKey {
            case device, timeZone, defaultInterval, wakesPerHour, wakesPerHourFrom, forecaster, app
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device, forKey: .device)
            try container.encodeIfPresent(timeZone, forKey: .timeZone)
            try container.encode(defaultInterval, forKey: .defaultInterval)
            try container.encodeIfPresent(wakesPerHour, forKey: .wakesPerHour)
            try container.encode(wakesPerHourFrom, forKey: .wakesPerHourFrom)
            // Always there, null for none of its own.
            try container.encode(forecaster, forKey: .forecaster)
            try container.encodeIfPresent(app, forKey: .app)
        }
    }

    /// Whether apps are chosen in bulk, by patterns.
    var inBulk: Bool { !appsMatching.isEmpty || appsFile != nil }

    func validate() throws {
        if reread {
            guard timeZone != nil, app == nil, appChange.isEmpty, defaultInterval == nil, !inBulk else {
                throw ValidationError(
                    "--reread moves a device to another zone: give it with --time-zone ZONE --device DEVICE alone.")
            }
            if store.deviceOption == nil {
                throw ValidationError(
                    "--reread reads a device's files again: name it with --device, even the default one.")
            }
            return
        }
        if inBulk {
            if app != nil {
                throw ValidationError("Give an app, or --apps-matching and --apps-file: not both.")
            }
            if appChange.isEmpty {
                throw ValidationError(
                    "--apps-matching and --apps-file change apps: give --interval, --enable, --disable or a --requires- option with them."
                )
            }
            if defaultInterval != nil || timeZone != nil {
                throw ValidationError(
                    "--apps-matching and --apps-file change apps alone: give --default-interval and --time-zone in a command of their own."
                )
            }
            return
        }
        if app == nil && !appChange.isEmpty {
            throw ValidationError(
                "--interval, --enable, --disable and the --requires- options need an app: fetchpredict config APP --interval 3600, or many with --apps-matching PATTERN."
            )
        }
    }

    /// The patterns of `--apps-matching` and of the lines of `--apps-file`.
    func bulkPatterns() throws -> [String] {
        var patterns = appsMatching
        if let appsFile {
            let text: String
            do {
                text = try String(contentsOfFile: appsFile, encoding: .utf8)
            } catch {
                throw ValidationError("Cannot read --apps-file \(appsFile): \(error.localizedDescription)")
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let entry = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .trimmingCharacters(in: .whitespaces)
                if !entry.isEmpty { patterns.append(entry) }
            }
            if patterns.isEmpty { throw ValidationError("--apps-file \(appsFile) names no app.") }
        }
        return patterns
    }

    /// Makes the change of every app of the device that fits a pattern, and says which.
    func changeInBulk(_ eventStore: any EventKeeping & DeviceSettingsKeeping) async throws {
        let patterns = try bulkPatterns()
        let names = try await eventStore.apps(device: store.device, asOf: nil).map(\.app)
        let chosen = names.filter { name in patterns.contains { SystemApps.matches(name, pattern: $0) } }
        for app in chosen { try await eventStore.changeApp(appChange, app: app, device: store.device) }
        var changes: [String] = []
        if let interval { changes.append("interval \(interval)") }
        if let enable { changes.append(enable ? "enabled" : "disabled") }
        for (flag, name) in [
            (requiresPower, "power"), (requiresUnmetered, "an unmetered network"),
            (requiresBatteryNotLow, "a battery not low"),
        ] {
            if let flag { changes.append((flag ? "requiring " : "not requiring ") + name) }
        }
        let shown = chosen.prefix(10).joined(separator: ", ") + (chosen.count > 10 ? ", ..." : "")
        let change = BulkChange(
            device: store.device, apps: chosen, interval: interval, enabled: enable, requiresPower: requiresPower,
            requiresUnmetered: requiresUnmetered, requiresBatteryNotLow: requiresBatteryNotLow)
        try output.print(change) { _ in
            chosen.isEmpty
                ? "No app of device \(store.device) fits \(patterns.joined(separator: ", ")): nothing changed."
                : "\(Output.count(chosen.count, "app")) of device \(store.device) set to \(changes.joined(separator: ", ")): \(shown)."
        }
    }

    /// What a move with --reread did, in JSON.
    struct Moved: Encodable {
        var device: String
        var timeZone: String
        var imports: [ImportReport]
    }

    /// What a change in bulk did, in JSON.
    struct BulkChange: Encodable {
        var device: String
        var apps: [String]
        var interval: FetchInterval?
        var enabled: Bool?
        var requiresPower: Bool?
        var requiresUnmetered: Bool?
        var requiresBatteryNotLow: Bool?
    }

    func run() async throws {
        // Only a change makes a store: showing the settings of a path with none is an error.
        let changes =
            !appChange.isEmpty || defaultInterval != nil || timeZone != nil || wakesPerHour != nil || forecaster != nil
        if reread, let timeZone {
            let eventStore = try store.openStore(creating: false)
            try await KnownNames.requireDevice(store.device, in: eventStore)
            let reports = try await eventStore.reread(device: store.device, in: timeZone, now: Date())
            try output.print(Moved(device: store.device, timeZone: timeZone.identifier, imports: reports)) { moved in
                ([
                    "Device \(moved.device) is in \(moved.timeZone) now; \(Output.count(reports.count, "import")) of local times read again in it\(reports.isEmpty ? "." : ":")"
                ]
                    + reports.map { "  " + ImportText.describe($0, zone: timeZone) }).joined(separator: "\n")
            }
            return
        }
        if inBulk {
            let eventStore = try store.openStore(creating: false)
            try await KnownNames.requireDevice(store.device, in: eventStore)
            try await changeInBulk(eventStore)
            return
        }
        let eventStore = try store.openStore(creating: changes)
        if let app, !appChange.isEmpty,
            try await !eventStore.appSettings(device: store.device).contains(where: { $0.app == app })
        {
            Output.error("\(app) is not in the store yet: its settings are kept for when its events come.")
        }
        // The zone first: when it is refused, nothing else changes either.
        if let timeZone { try await eventStore.setTimeZone(timeZone, device: store.device) }
        if let wakesPerHour {
            // With --device, that device's budget; without, the store's default.
            if store.deviceOption != nil {
                try await eventStore.setWakesPerHour(wakesPerHour.count, device: store.device)
            } else {
                try await eventStore.setDefaultWakesPerHour(
                    wakesPerHour.count, scope: DeviceIdentity(stored: store.device).scope)
            }
        }
        if let forecaster {
            try await eventStore.changeDevice(
                DeviceSettingsChange(forecaster: .some(forecaster.name)), device: store.device)
        }
        if let app, !appChange.isEmpty { try await eventStore.changeApp(appChange, app: app, device: store.device) }
        if let defaultInterval {
            // With --device, that device's default; without, the store's.
            if store.deviceOption != nil {
                try await eventStore.setDefaultInterval(defaultInterval, device: store.device)
            } else {
                try await eventStore.setDefaultInterval(defaultInterval)
            }
        }
        var appSettings: AppSettings?
        if let app { appSettings = try await eventStore.settings(app: app, device: store.device) }
        let budget = try await eventStore.effectiveWakesPerHour(device: store.device)
        // Whether the device is there, its zone, the default interval in force and its
        // forecaster, in one read.
        let planning = try await eventStore.planningSettings(device: store.device)
        let settings = Settings(
            device: store.device, deviceExists: planning.exists,
            timeZone: planning.timeZone.map(TimeZoneName.name(of:)), defaultInterval: planning.defaultInterval,
            wakesPerHour: budget.wakesPerHour, wakesPerHourFrom: budget.from, forecaster: planning.forecaster,
            app: appSettings)
        try output.print(settings, text: Self.describe)
    }

    /// Whose a budget in force is, as the text says it after the budget.
    static func whose(_ source: BudgetSource, device: String) -> String {
        switch source {
        case .device, .none: ""
        case .tenant: " (tenant \(DeviceIdentity(stored: device).tenant)'s)"
        case .store: " (the store's)"
        }
    }

    static func describe(_ settings: Settings) -> String {
        let zone =
            settings.deviceExists
            ? "time zone \(settings.timeZone ?? "not set: name it with --time-zone; daily habits need it")"
            : "not in the store yet (its events, or --time-zone, make it)"
        var lines = [
            "device \(settings.device): \(zone)",
            "default interval: \(settings.defaultInterval)",
            "push budget: "
                + (settings.wakesPerHour.map {
                    "at most \(Output.count($0, "device wake")) in any hour"
                        + Self.whose(settings.wakesPerHourFrom, device: settings.device)
                } ?? "none (set one with --wakes-per-hour)"),
            "forecaster: "
                + (settings.forecaster ?? "the one each command is given (--forecaster, hazard by default)"),
        ]
        if let app = settings.app {
            let interval = app.interval.map(\.text) ?? "\(settings.defaultInterval) (the default)"
            var line = "\(app.app): interval \(interval), background fetch \(app.enabled ? "enabled" : "disabled")"
            let required = [
                app.constraints.requiresPower ? "on power" : nil,
                app.constraints.requiresUnmetered ? "on an unmetered network" : nil,
                app.constraints.requiresBatteryNotLow ? "with a battery not low" : nil,
            ].compactMap { $0 }
            if !required.isEmpty { line += ", woken only " + required.joined(separator: " and ") }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
