import Foundation
import GRDB

/// The SQLite event store: app launches, background-fetch results, device events, settings and
/// the import log of one database file.
///
/// One value wraps one database: share it between tasks freely. It opens the file in WAL mode
/// with a busy timeout, so that several processes using the same file wait for each other instead
/// of failing, and runs the store's migrations when it opens.
///
/// ```swift
/// let store = try EventStore(path: "/tmp/events.sqlite")
/// try store.record(.launch("com.example.news", at: now.milliseconds), device: "phone")
/// ```
///
/// ## Topics
/// - ``init(path:busyTimeout:concurrentReads:creating:durable:)``
/// - ``inMemory()``
/// - ``record(_:device:)``
/// - ``apps(device:)``
public final class EventStore: EventStoring {
    /// The database, shared by every task that uses the store.
    let writer: any DatabaseWriter
    /// The path of the database file, or `:memory:`.
    public let path: String
    /// The path of the database file: where the store is.
    public var location: String { path }
    /// How long a write waits for another process's write, in seconds.
    let busyTimeout: TimeInterval

    /// How long a write waits for another process's write to finish before giving up, by default.
    public static let defaultBusyTimeout: TimeInterval = 300

    /// Opens the store at `path`, creating it (mode 0600, in a folder created with mode 0700)
    /// when it does not exist yet and `creating` is `true`.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - busyTimeout: how long to wait for another process's write.
    ///   - concurrentReads: whether reads in this process may run beside a write (a pool of
    ///     connections, for long-lived schedulers); `false` opens one connection, which is
    ///     quicker to open, for short-lived processes such as the command-line tool.
    ///   - creating: whether to create the store when there is none; `false` for a reader, which
    ///     then gets ``StoreError/missing(path:)`` and leaves no folder or file behind.
    ///   - durable: whether every committed write is on the disk before the call returns, so that
    ///     not even a power loss undoes it (SQLite's `synchronous = FULL`), for a service that
    ///     acknowledges writes; otherwise a crash of the process loses nothing committed, but a
    ///     power loss may lose the last writes (`NORMAL`, quicker for imports).
    /// - Throws: ``StoreError`` when the file is not a FetchPredictor database, is damaged, or was
    ///   written by a newer version. The file is then left as it was.
    public init(
        path: String, busyTimeout: TimeInterval = EventStore.defaultBusyTimeout, concurrentReads: Bool = true,
        creating: Bool = true, durable: Bool = false
    ) throws {
        self.path = path
        self.busyTimeout = busyTimeout
        if !creating, !FileManager.default.fileExists(atPath: path) { throw StoreError.missing(path: path) }
        let isNew = try Self.prepareFile(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            // Read through memory mapping: a learned model of a few MB costs no read calls.
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
            // Sorts and VACUUM keep their scratch data in memory: nothing is written outside the store's path.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        do {
            if concurrentReads {
                writer = try DatabasePool(path: path, configuration: configuration)
            } else {
                // WAL mode is stored in the file: set it once, when the file is new.
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                if isNew { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") } }
                writer = queue
            }
            // One process at a time checks and migrates the schema: two that create the same
            // new store at once would both run the first migration.
            try Self.holdingFolderLock(of: path) { try Self.migrate(writer, path: path) }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    private init(writer: any DatabaseWriter, path: String) {
        self.writer = writer
        self.path = path
        busyTimeout = 0
    }

    /// A store in memory, for tests and for evaluations that must not touch the disk.
    public static func inMemory() throws -> EventStore {
        let queue = try DatabaseQueue()
        try migrate(queue, path: ":memory:")
        return EventStore(writer: queue, path: ":memory:")
    }

    private static func migrate(_ writer: any DatabaseWriter, path: String) throws {
        let migrator = Self.migrator
        let (superseded, complete) = try writer.read { db in
            (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
        }
        if superseded { throw StoreError.newerSchema(path: path) }
        // Only a store that needs it pays for a write transaction: queries stay read-only.
        if !complete { try migrator.migrate(writer) }
    }

    /// Runs `body` holding an exclusive `flock` on the folder of the store, which processes that
    /// open a store in that folder take in turn. SQLite's own locks are `fcntl` locks on the
    /// files, which `flock` does not touch; a folder that cannot be opened runs `body` unlocked.
    private static func holdingFolderLock<T>(of path: String, _ body: () throws -> T) throws -> T {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Creates the folder (0700) and the empty file (0600) when they do not exist, and refuses a
    /// file that exists and is not SQLite, without writing to it.
    /// - Returns: whether the file was created.
    @discardableResult
    private static func prepareFile(at path: String) throws -> Bool {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder) {
            do {
                try manager.createDirectory(
                    atPath: folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotCreate(path: folder, reason: "the folder cannot be made")
            }
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return true
        }
        guard errno == EEXIST else {
            throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.cannotCreate(path: path, reason: "the file exists but cannot be read")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return true }
        if header != Data("SQLite format 3\0".utf8) {
            throw StoreError.notADatabase(path: path)
        }
        return false
    }

    static func storeError(_ error: DatabaseError, path: String, busyTimeout: TimeInterval) -> StoreError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy(path: path, seconds: Int(busyTimeout))
        case .SQLITE_NOTADB: .notADatabase(path: path)
        case .SQLITE_CORRUPT: .damaged(path: path, detail: error.message ?? "corrupt")
        default: .sqlite(path: path, detail: error.message ?? "\(error.resultCode)")
        }
    }

    /// Runs `body` in one write transaction, turning SQLite errors into ``StoreError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Runs `body` in one write transaction and, when `commit` is false, rolls it back: what a
    /// change would do, measured on the store, with nothing changed.
    func write<T>(commit: Bool, _ body: (Database) throws -> T) throws -> T {
        if commit { return try write(body) }
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .rollback
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Runs `body` in one read transaction, turning SQLite errors into ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Runs `body` in one write transaction on GRDB's writer, the caller suspended meanwhile:
    /// for the store's async roles.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write(body)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Runs `body` in a read of one snapshot, the caller suspended meanwhile: for the store's
    /// async roles.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(body)
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: path, busyTimeout: busyTimeout)
        }
    }
}
