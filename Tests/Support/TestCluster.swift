import Foundation

/// A PostgreSQL server for the tests, and a new database on it for each store:
/// `$FETCHPREDICT_TEST_DATABASE_URL` when it is set, else a throwaway cluster this process starts
/// with the server's own `initdb` and `pg_ctl` (as the `postgres` user when run as root), and
/// stops when it exits.
public final class TestCluster: @unchecked Sendable {
    public static let shared = TestCluster()

    /// The server's URL without a database, or the reason there is none.
    private let server: Result<URLComponents, TestClusterError>
    private let lock = NSLock()
    private var count = 0

    public var isAvailable: Bool {
        if case .success = server { return true }
        return ProcessInfo.processInfo.environment["FETCHPREDICT_REQUIRE_POSTGRES"] == "1"
    }

    private init() {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["FETCHPREDICT_TEST_DATABASE_URL"], !url.isEmpty,
            let components = URLComponents(string: url)
        {
            server = .success(components)
        } else {
            server = Result { try Self.startCluster() }.mapError { $0 as? TestClusterError ?? .failed("\($0)") }
        }
    }

    /// Creates a new database on the server and returns its URL.
    public func newDatabase() throws -> String {
        let base = try server.get()
        let name = lock.withLock {
            count += 1
            return "fp_test_\(getpid())_\(count)"
        }
        return try Self.createDatabase(name, on: base)
    }

    /// Creates a database on a server and returns its URL.
    static func createDatabase(_ name: String, on server: URLComponents) throws -> String {
        var admin = server
        admin.path = "/postgres"
        try run(["psql", "-q", "-v", "ON_ERROR_STOP=1", admin.string!, "-c", "CREATE DATABASE \(name)"])
        var url = server
        url.path = "/\(name)"
        return url.string!
    }

    /// Starts the shared cluster, stopped and removed when the process exits.
    private static func startCluster() throws -> URLComponents {
        try LocalCluster(name: "shared").server
    }

    /// The path of a PostgreSQL program: on the PATH, or in Debian's versioned folder.
    static func findTool(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        return (path + debian).map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A TCP port nobody listens on now.
    public static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(socket, pointer, length)
                return getsockname(socket, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program and waits; a failure throws with what it printed. With `file`, what it
    /// prints goes there, and the program is waited for with `waitpid`: Foundation's `Process`
    /// waits until no process holds its child's descriptors, and a server that the program
    /// starts holds them for ever.
    ///
    /// The program inherits no descriptor but the three standard ones. The sockets SwiftNIO
    /// accepts are not closed on exec, and a PostgreSQL server started while another test's
    /// service held a connection would hold it too, open after the service closed it, for as
    /// long as the server runs.
    @discardableResult
    public static func run(_ arguments: [String], outputTo file: String? = nil) throws -> String {
        if let file {
            let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            let closeInherited =
                #"for path in /proc/$$/fd/*; do fd=${path##*/}; [ "$fd" -gt 2 ] && [ -L "$path" ] && eval "exec $fd>&-"; done; "#
            let command = [
                "/bin/bash", "-c", closeInherited + "exec \(quoted.joined(separator: " ")) >'\(file)' 2>&1 </dev/null",
            ]
            let argv = command.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/bin/bash", nil, nil, argv, environ) == 0 else {
                throw TestClusterError.failed("/bin/bash could not be started")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            guard status == 0 else {
                throw TestClusterError.failed("\(arguments.joined(separator: " ")) failed: \(text)")
            }
            return text
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw TestClusterError.failed("\(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}

/// A PostgreSQL cluster of its own, in a new temporary folder on a free port, trusting local
/// connections: for a test that stops and starts its server. Stopped (`pg_ctl stop -m
/// immediate`) and removed when the process exits.
public final class LocalCluster: @unchecked Sendable {
    /// The server's URL, without a database.
    public let server: URLComponents
    private let control: [String]
    private let folder: String
    private let options: String

    /// Whether this machine has PostgreSQL's programs to start a cluster.
    public static var canStart: Bool { TestCluster.findTool("initdb") != nil && TestCluster.findTool("pg_ctl") != nil }

    public init(name: String = UUID().uuidString) throws {
        guard let initdb = TestCluster.findTool("initdb"), let pgCtl = TestCluster.findTool("pg_ctl") else {
            throw TestClusterError.failed("initdb and pg_ctl were not found")
        }
        folder = "/tmp/fp-pg-\(getpid())-\(name.prefix(8))"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let asRoot = geteuid() == 0
        let user = asRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "postgres")
        if asRoot { try TestCluster.run(["chown", "postgres:postgres", folder]) }
        let port = TestCluster.freePort()
        let prefix = asRoot ? ["runuser", "-u", "postgres", "--"] : []
        control = prefix + [pgCtl, "-D", "\(folder)/data"]
        options = "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        try TestCluster.run(
            prefix + [initdb, "-D", "\(folder)/data", "-A", "trust", "-U", user, "--no-sync", "-E", "UTF8"])
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.host = "127.0.0.1"
        components.port = port
        components.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        server = components
        try start()
        LocalCluster.started.withLock { $0.append((control + ["-m", "immediate", "stop"], folder)) }
        if LocalCluster.started.withLock({ $0.count }) == 1 {
            atexit {
                for (stop, folder) in LocalCluster.started.withLock({ $0 }) {
                    _ = try? TestCluster.run(stop, outputTo: "/dev/null")
                    try? FileManager.default.removeItem(atPath: folder)
                }
            }
        }
    }

    /// Starts the server, and waits until it takes connections.
    public func start() throws {
        // The server outlives pg_ctl with its output: to a file, not to a pipe that would never end.
        try TestCluster.run(
            control + ["-l", "\(folder)/log", "-w", "-o", options, "start"], outputTo: "\(folder)/pg_ctl.out")
    }

    /// Stops the server at once, as a crash would.
    public func stop() throws {
        try TestCluster.run(control + ["-m", "immediate", "stop"], outputTo: "\(folder)/pg_ctl.out")
    }

    /// Creates a new database and returns its URL.
    public func newDatabase(_ name: String) throws -> String {
        try TestCluster.createDatabase(name, on: server)
    }

    /// The commands that stop the clusters started, and their folders, for the exit handler.
    private static let started = Locked<[(command: [String], folder: String)]>([])
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

public enum TestClusterError: Error, CustomStringConvertible {
    case failed(String)
    public var description: String {
        switch self {
        case .failed(let reason): "no PostgreSQL for the tests: \(reason)"
        }
    }
}
