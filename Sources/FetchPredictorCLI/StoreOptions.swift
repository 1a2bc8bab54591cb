import ArgumentParser
import FetchPredictor
import Foundation

/// The options every command that uses the store shares.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file.",
            discussion: "Defaults to $FETCHPREDICT_DB, else $XDG_DATA_HOME/fetchpredict/events.sqlite.",
            valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("The device whose events these are.", valueName: "name"))
    var device: String = "default"

    /// The database path the options and the environment choose.
    func databasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let db { return db }
        if let path = environment["FETCHPREDICT_DB"], !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return dataHome + "/fetchpredict/events.sqlite"
    }

    func openStore() throws -> EventStore {
        // One connection: a command is a short-lived process that never reads beside its own writes.
        try EventStore(path: databasePath(), concurrentReads: false)
    }

    /// Opens the store at a path, or at the default one when `nil`.
    static func open(path: String?) throws -> EventStore {
        var options = StoreOptions()
        options.db = path
        return try options.openStore()
    }

    func validate() throws {
        if let problem = EventLimits.problem(withAppName: device) {
            throw ValidationError("The device name was refused: \(problem.replacingOccurrences(of: "app name", with: "device name")).")
        }
    }
}

/// The clock options: `--now` pins the current time, so that a run prints the same every time.
struct ClockOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The time to take as now, ISO 8601 or Unix seconds (default: the system clock).", valueName: "time"))
    var now: String?

    func currentDate() throws -> Date {
        guard let now else { return Date() }
        return try TimeArgument.parse(now, option: "--now", zone: TimeZone(identifier: "UTC")!, now: Date())
    }
}

/// Reads times given on the command line.
enum TimeArgument {
    /// `now`, ISO 8601 with Z or an offset, Unix seconds, or a local `YYYY-MM-DD HH:MM[:SS]` read
    /// in `zone`.
    static func parse(_ text: String, option: String, zone: TimeZone, now: Date) throws -> Date {
        if text == "now" { return now }
        switch TimestampParser.parse(text) {
        case .success(let stamp): return Date(milliseconds: stamp.milliseconds)
        case .failure(.missingOffset), .failure(.unreadable):
            if let fields = TimestampParser.parseLocal(text) {
                return Date(milliseconds: fields.instant(in: zone).0)
            }
        case .failure: break
        }
        throw ValidationError(
            "\(option) '\(text)' is not a time: write now, 2024-05-01T08:30:00Z, 2024-05-01 08:30 (device time) or Unix seconds.")
    }
}

/// Reads time zone names given on the command line.
enum TimeZoneArgument {
    static func parse(_ name: String, option: String = "--time-zone") throws -> TimeZone {
        guard let zone = TimeZone(identifier: name) else {
            throw ValidationError("\(option) '\(name)' is not a known time zone: use an IANA name such as Europe/Warsaw.")
        }
        return zone
    }
}
