import ArgumentParser
import FetchPredictor
import Foundation

#if Service
    import FetchPredictorPostgres
#endif

/// The options of every command that uses the store: which SQLite file, or which PostgreSQL
/// database.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file.",
            discussion: "Defaults to $FETCHPREDICT_DB, else $XDG_DATA_HOME/fetchpredict/events.sqlite.",
            valueName: "path"))
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database to use instead of a file (default: $FETCHPREDICT_DATABASE_URL).",
            discussion: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]",
            valueName: "url"))
    var postgres: String?

    /// The PostgreSQL URL the options and the environment choose; `nil` for the SQLite file. A
    /// `--db` given on the command line wins over the environment's URL.
    func postgresURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let postgres { return postgres }
        if db != nil { return nil }
        if let url = environment["FETCHPREDICT_DATABASE_URL"], !url.isEmpty { return url }
        return nil
    }

    func validate() throws {
        if postgres != nil, db != nil {
            throw ValidationError("Give --db or --postgres, not both: they name two stores.")
        }
    }

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

    /// Opens the store the options name: the PostgreSQL database of `--postgres` (or of
    /// `$FETCHPREDICT_DATABASE_URL`), else the SQLite file.
    func openStore(
        creating: Bool = true, concurrentReads: Bool = false, durable: Bool = false
    ) throws -> any EventStoring {
        if let url = postgresURL() {
            #if Service
                return try PostgresEventStore(url: url)
            #else
                _ = url
                throw ValidationError(
                    "This fetchpredict was built without the PostgreSQL store (swift build --disable-default-traits): "
                        + "build it with the package's default traits to use --postgres or $FETCHPREDICT_DATABASE_URL.")
            #endif
        }
        return try openSQLiteStore(creating: creating, concurrentReads: concurrentReads, durable: durable)
    }

    /// Opens the SQLite file.
    ///
    /// A command that only reads passes `creating: false`, so that it never makes a folder or
    /// an empty store. A long-running process that reads beside its writes passes
    /// `concurrentReads: true`, and a service that acknowledges writes `durable: true`.
    private func openSQLiteStore(creating: Bool, concurrentReads: Bool, durable: Bool) throws -> EventStore {
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
        help: ArgumentHelp(
            "The device whose events these are (default: default; evaluate, export and imports take every device).",
            valueName: "name"))
    var deviceOption: String?

    /// The device named, else `default`.
    var device: String { deviceOption ?? "default" }

    /// The database path the options and the environment choose.
    func databasePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        database.databasePath(environment: environment)
    }

    /// Opens the store; see ``DatabaseOptions/openStore(creating:concurrentReads:durable:)``.
    func openStore(creating: Bool = true, concurrentReads: Bool = false) throws -> any EventStoring {
        try database.openStore(creating: creating, concurrentReads: concurrentReads)
    }

    /// The device's zone, for a command that reads or shows its local time.
    ///
    /// - Throws: ``StoreError/noTimeZone(device:)`` when it has none: no zone is assumed.
    func zone(in eventStore: any DeviceSettingsKeeping) async throws -> TimeZone {
        guard let zone = try await eventStore.timeZone(device: device) else {
            throw StoreError.noTimeZone(device: device)
        }
        return zone
    }

    func validate() throws {
        try database.validate()
        if let problem = EventLimits.problem(withAppName: device) {
            throw ValidationError(
                "The device name was refused: \(problem.replacingOccurrences(of: "app name", with: "device name")).")
        }
    }
}
