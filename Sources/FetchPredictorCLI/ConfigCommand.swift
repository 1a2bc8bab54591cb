import ArgumentParser
import FetchPredictor
import Foundation

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change an app's fetch interval, the store's default interval, or a device's time zone.",
        discussion: """
            An interval is never (never woken, the default of apps that set none, as on iOS), \
            minimum (as often as the planner finds worthwhile) or a number of seconds (never two \
            fetches closer than that). With no change given, prints the current settings.

            Example:
              fetchpredict config com.example.news --interval 3600
              fetchpredict config com.example.chat --interval minimum --enable
              fetchpredict config --default-interval minimum --time-zone Europe/Warsaw
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The app to configure.", valueName: "app"))
    var app: String?

    @Option(help: ArgumentHelp("The app's minimum fetch interval: minimum, never or seconds.", valueName: "interval"))
    var interval: String?

    @Flag(inversion: .prefixedEnableDisable, help: "Enable or disable background fetch for the app.")
    var enable: Bool?

    @Option(help: ArgumentHelp("The interval of apps that set none: minimum, never or seconds.", valueName: "interval"))
    var defaultInterval: String?

    @Option(help: ArgumentHelp("The device's IANA time zone, such as Europe/Warsaw.", valueName: "zone"))
    var timeZone: String?

    @Flag(help: "Print the settings as JSON.")
    var json = false

    struct Settings: Encodable {
        var device: String
        var timeZone: String?
        var defaultInterval: FetchInterval
        var app: AppSettings?
    }

    func validate() throws {
        if app == nil && (interval != nil || enable != nil) {
            throw ValidationError("--interval, --enable and --disable need an app: fetchpredict config APP --interval 3600.")
        }
    }

    func parseInterval(_ text: String, option: String) throws -> FetchInterval {
        do {
            return try FetchInterval(parsing: text)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }

    func run() throws {
        let newInterval = try interval.map { try parseInterval($0, option: "--interval") }
        let newDefault = try defaultInterval.map { try parseInterval($0, option: "--default-interval") }
        let zone = try timeZone.map { try TimeZoneArgument.parse($0) }
        let eventStore = try store.openStore()
        if let app {
            if let newInterval { try eventStore.setInterval(newInterval, app: app, device: store.device) }
            if let enable { try eventStore.setEnabled(enable, app: app, device: store.device) }
        }
        if let newDefault { try eventStore.setDefaultInterval(newDefault) }
        if let zone { try eventStore.setTimeZone(zone, device: store.device) }
        let settings = Settings(
            device: store.device, timeZone: try eventStore.timeZone(device: store.device)?.identifier,
            defaultInterval: try eventStore.defaultInterval(),
            app: try app.map { try eventStore.settings(app: $0, device: store.device) })
        if json {
            print(try Output.json(settings))
            return
        }
        print("device \(settings.device): time zone \(settings.timeZone ?? "not set (the system's is used)")")
        print("default interval: \(settings.defaultInterval)")
        if let app = settings.app {
            let interval = app.interval.map(\.text) ?? "\(settings.defaultInterval) (the default)"
            print("\(app.app): interval \(interval), background fetch \(app.enabled ? "enabled" : "disabled")")
        }
    }
}
