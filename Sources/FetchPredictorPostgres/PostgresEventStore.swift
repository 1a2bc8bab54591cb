import FetchPredictor
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The PostgreSQL event store: what a fleet of devices, served by several instances of the HTTP
/// service, keeps on one database server.
///
/// It is the same store as the SQLite ``EventStore``, behind the same ``EventStoring`` protocol:
/// the same events give the same apps, peaks, next wakes and schedules. Events live in one table
/// partitioned by a hash of the device; a repeated event is stored once; every write bumps the
/// device's version, so that an instance keeping a learned model in memory learns what another
/// instance stored before it answers.
///
/// ```swift
/// let store = try PostgresEventStore(url: "postgres://fetchpredict@db.internal/fetchpredict")
/// let scheduler = FetchScheduler(store: store)
/// ```
///
/// The async calls wait suspended (a step whose rule is still synchronous, such as a batch of
/// events or an erasure, runs on a thread of Dispatch's meanwhile); the synchronous roles' calls
/// wait on the calling thread for the server, so run those off Swift's cooperative pool (the
/// service runs them on NIO's thread pool). When the server does not answer, a call throws
/// ``StoreError/unavailable(location:detail:)`` and the next one connects anew.
public final class PostgresEventStore: EventStoring {
    /// The server and database, without the password.
    public let location: String
    /// How many calls the store has answered, by call.
    public let calls = StoreCalls()
    let pool: ConnectionPool
    let logger: Logger

    /// The settings of the connections: how many, how long to wait, how long a statement may run.
    public struct Limits: Sendable {
        /// The most connections this process opens to the server.
        public var connections: Int = 8
        /// How long a call waits for a connection when all are busy, in seconds.
        public var connectionWait: TimeInterval = 10
        /// How long the server lets one statement run before it cancels it, in seconds.
        public var statementTimeout: TimeInterval = 30
        /// How long connecting may take, in seconds.
        public var connectTimeout: TimeInterval = 10

        /// The defaults: 8 connections, 10 s to get one, 30 s a statement, 10 s to connect.
        public init() {}
    }

    /// Connects to the database of `url` and creates or upgrades its schema.
    ///
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`
    ///     (`postgresql://` too); a `host=/path` query parameter names a Unix socket's folder.
    ///   - limits: the connections' limits.
    /// - Throws: ``StoreError/unavailable(location:detail:)`` when the server does not answer,
    ///   ``StoreError/newerSchema(path:)`` when a newer FetchPredictor migrated the database.
    public init(url: String, limits: Limits = Limits(), logger: Logger = Logger(label: "fetchpredict.postgres"))
        throws
    {
        let parsed = try DatabaseURL(url)
        location = parsed.location
        self.logger = logger
        var configuration = try parsed.configuration()
        configuration.options.connectTimeout = .milliseconds(Int64(limits.connectTimeout * 1000))
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", "\(Int(limits.statementTimeout * 1000))"),
            ("application_name", "fetchpredict"),
        ]
        pool = ConnectionPool(
            configuration: configuration, group: MultiThreadedEventLoopGroup.singleton,
            maximum: limits.connections, waitTimeout: limits.connectionWait, location: location, logger: logger)
        // Opening waits for the schema, as opening an SQLite file does.
        try Blocking.wait(preferring: DriverExecutor.shared) { [self] in try await migrate() }
    }

    /// Runs `body` in one transaction, committed when it returns (unless `commit` is false: a
    /// dry run) and rolled back when it throws; a serialization failure or deadlock runs it
    /// again, up to 3 times.
    @discardableResult
    func transaction<T>(
        snapshot: Bool = false, commit: Bool = true, _ body: (Transaction) async throws -> T,
        call: StaticString = #function
    ) async throws -> T {
        calls.count(call)
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await pool.withConnection { connection in
                    let transaction = Transaction(connection: connection, logger: logger, location: location)
                    // A snapshot reads every statement as of one moment, as an SQLite read does.
                    try await transaction.execute(Self.begin(snapshot: snapshot))
                    do {
                        let result = try await body(transaction)
                        try await transaction.execute(commit ? "COMMIT" : "ROLLBACK")
                        return result
                    } catch {
                        if !connection.isClosed {
                            do {
                                try await transaction.execute("ROLLBACK")
                            } catch {
                                // A connection that cannot roll back is not given to anyone else.
                                try? await connection.close()
                            }
                        }
                        throw error
                    }
                }
            } catch let error as PSQLError where attempt < 3 && Self.isRetryable(error) {
                continue
            } catch let error as PSQLError {
                throw Self.storeError(error, location: location)
            }
        }
    }

    private static func begin(snapshot: Bool) -> String {
        snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"
    }

    /// Runs `body` with one statement or a few that need no transaction of their own.
    func read<T>(_ body: (Transaction) async throws -> T, call: StaticString = #function) async throws -> T {
        calls.count(call)
        do {
            return try await pool.withConnection { connection in
                try await body(Transaction(connection: connection, logger: logger, location: location))
            }
        } catch let error as PSQLError {
            throw Self.storeError(error, location: location)
        }
    }

    private static func isRetryable(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    /// The store's error for an error of the driver: the server down, closed or unreachable is
    /// ``StoreError/unavailable(location:detail:)``; anything else names the server's message.
    static func storeError(_ error: any Error, location: String) -> any Error {
        if error is StoreError { return error }
        guard let error = error as? PSQLError else {
            return StoreError.unavailable(location: location, detail: "\(error)")
        }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            let message = info[.message] ?? "error \(state)"
            // 08: connection exceptions; 53: out of connections, memory or disk; 57P01-57P03:
            // the server shutting down or starting; 25006: a read-only server (after a failover).
            if state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P") || state == "25006" {
                return StoreError.unavailable(location: location, detail: message)
            }
            if state == "57014" {
                return StoreError.unavailable(location: location, detail: "a statement ran past the statement timeout")
            }
            return StoreError.sqlite(path: location, detail: message)
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return StoreError.unavailable(location: location, detail: "the connection failed or was closed")
        default:
            return StoreError.unavailable(location: location, detail: "\(error.code)")
        }
    }

    public func check() async throws {
        _ = try await read { try await $0.rows("SELECT 1") }
    }
}

/// One connection, inside a transaction or not: statements run and waited for.
struct Transaction: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    let location: String

    /// Runs one statement with no binds.
    func execute(_ sql: String) async throws {
        _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).get()
    }

    /// Runs a query and returns its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).get().rows
    }

    /// Runs a query and returns its rows, taken from the connection as they come, with
    /// backpressure: for many rows (a device's million events), which the driver would otherwise
    /// gather on its event loop, holding up the other connections' queries on that loop.
    func streamedRows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
        return rows
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    func changes(_ query: PostgresQuery) async throws -> Int {
        try await connection.query(query, logger: logger).get().metadata.rows ?? 0
    }

    /// The first column of the first row, or `nil` when there is no row.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        guard let row = try await rows(query).first else { return nil }
        return try row.decode(T.self)
    }

    /// Runs a statement prepared once per connection (the two that every request of the service
    /// runs: its key, then its device's settings), sparing the server the parse and plan of each.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }

    /// Sends `data`, rows in COPY's text format, into `table`'s `columns` by `COPY ... FROM STDIN`.
    func copy(into table: String, columns: [String], _ data: ByteBuffer) async throws {
        try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
            try await writer.write(data)
        }
    }
}

/// Runs the migrations that opening a store waits for (its one wait on a thread) on a Dispatch
/// queue of its own, outside Swift's cooperative pool, which the opening thread may be of.
enum DriverExecutor {
    static let shared = DispatchExecutor(label: "fetchpredict.postgres.driver")
}

/// A `postgres://` URL, read into a connection's configuration.
struct DatabaseURL {
    var host: String?
    var socketFolder: String?
    var port: Int
    var user: String
    var password: String?
    var database: String?
    var sslMode: String

    init(_ text: String) throws {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql"
        else {
            throw InvalidFieldError.invalid(
                field: "url", reason: "'\(Self.redacted(text))' is not a postgres:// or postgresql:// URL")
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        // URLComponents gives the parts decoded already: decoded again, '%25' in a password would break.
        host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        port = components.port ?? Int(query["port"] ?? "") ?? 5432
        user =
            components.user ?? query["user"]
            ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password ?? query["password"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
        sslMode = query["sslmode"] ?? "prefer"
        guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(sslMode) else {
            throw InvalidFieldError.invalid(
                field: "sslmode", reason: "'\(sslMode)' is none of disable, prefer, require, verify-full")
        }
        if host == nil && socketFolder == nil { host = "localhost" }
    }

    /// Where it points, for logs and messages: never the password.
    var location: String {
        let server = socketFolder.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host ?? "localhost"):\(port)"
        return "postgres://\(user)@\(server)/\(database ?? user)"
    }

    func configuration() throws -> PostgresConnection.Configuration {
        if let socketFolder {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password,
                database: database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case "disable", "allow":
            tls = .disable
        default:
            // As libpq: prefer and require encrypt without checking the certificate; verify-ca
            // and verify-full check it against the system's roots.
            var settings = TLSConfiguration.makeClientConfiguration()
            if sslMode == "prefer" || sslMode == "require" { settings.certificateVerification = .none }
            let context = try NIOSSLContext(configuration: settings)
            tls = sslMode == "prefer" ? .prefer(context) : .require(context)
        }
        return PostgresConnection.Configuration(
            host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
    }

    /// The URL with its password replaced, for an error message; a URL that does not parse is
    /// not shown at all, since its password cannot be found to hide.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "(a URL that could not be read)" }
        guard components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
