import ArgumentParser
import FetchPredictor
import Foundation

/// The option of every command that uses the store: which file.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file.",
            discussion: "Defaults to $FETCHPREDICT_DB, else $XDG_DATA_HOME/fetchpredict/events.sqlite.",
            valueName: "path"))
    var db: String?

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

    /// Opens the store; a command that only reads passes `creating: false`, so that it never
    /// makes a folder or an empty store. A long-running process that reads beside its writes
    /// passes `concurrentReads: true`, and a service that acknowledges writes `durable: true`.
    func openStore(creating: Bool = true, concurrentReads: Bool = false, durable: Bool = false) throws -> EventStore {
        let path = databasePath()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ValidationError(
                "The database \(path) is a folder: name the database file in it, such as \(path)/events.sqlite.")
        }
        // By default one connection: a command is a short-lived process that never reads beside
        // its own writes.
        return try EventStore(path: path, concurrentReads: concurrentReads, creating: creating, durable: durable)
    }
}

/// The options of every command that uses the store for one device: which file, and which device.
struct StoreOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(
        name: .customLong("device"),
        help: ArgumentHelp("The device whose events these are (default: default).", valueName: "name"))
    var deviceOption: String?

    /// The device named, else `default`.
    var device: String { deviceOption ?? "default" }

    /// The database path the options and the environment choose.
    func databasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        database.databasePath(environment: environment)
    }

    /// Opens the store; see ``DatabaseOptions/openStore(creating:concurrentReads:)``.
    func openStore(creating: Bool = true, concurrentReads: Bool = false) throws -> EventStore {
        try database.openStore(creating: creating, concurrentReads: concurrentReads)
    }

    /// The device's zone, for a command that reads or shows its local time.
    ///
    /// - Throws: ``StoreError/noTimeZone(device:)`` when it has none: no zone is assumed.
    func zone(in eventStore: EventStore) throws -> TimeZone {
        guard let zone = try eventStore.timeZone(device: device) else { throw StoreError.noTimeZone(device: device) }
        return zone
    }

    func validate() throws {
        if let problem = EventLimits.problem(withAppName: device) {
            throw ValidationError(
                "The device name was refused: \(problem.replacingOccurrences(of: "app name", with: "device name")).")
        }
    }
}
