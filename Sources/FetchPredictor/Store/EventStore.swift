import Foundation
import GRDB
import Synchronization

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
/// - ``record(_:device:newDeviceTimeZone:)``
/// - ``apps(device:)``
public final class EventStore: EventStoring {
    /// The database, shared by every task that uses the store.
    let writer: any DatabaseWriter
    /// How many calls the store has answered, by call.
    public let calls = StoreCalls()
    /// The path of the database file, or `:memory:`.
    public let path: String
    /// The path of the database file: where the store is.
    public var location: String { path }
    /// How long a write waits for another process's write, in seconds.
    let busyTimeout: TimeInterval

    /// The most connections that read at once, for a store with `concurrentReads`: GRDB's
    /// default is 5.
    static let readers = 16

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
        // A learn holds a reader for its whole read (seconds, for a million events): enough
        // readers that the short reads every request makes (its key, its device's settings) find
        // one free while several tenants learn, rather than wait for a learn to end.
        configuration.maximumReaderCount = Self.readers
        configuration.prepareDatabase { db in
            try db.execute(sql: durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            // Read through memory mapping: a learned model of a few MB costs no read calls.
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
            // Sorts and VACUUM keep their scratch data in memory: nothing is written outside the store's path.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // Deleted content is overwritten where that costs no more writes (the pages left free
            // go with the incremental vacuum): a device erased for good is not in the file.
            try db.execute(sql: "PRAGMA secure_delete = FAST")
        }
        // Opened again while SQLite declines at once to wait for another process (which a new
        // store's first moments, its journal mode changing, may make it do).
        writer = try Self.retryingBusy(path: path, busyTimeout: busyTimeout) { _ in
            let writer: any DatabaseWriter =
                concurrentReads
                ? try DatabasePool(path: path, configuration: configuration)
                : try DatabaseQueue(path: path, configuration: configuration)
            // One process at a time sets the journal mode and checks and migrates the schema: two
            // that create the same new store at once would both run the first migration.
            try Self.holdingFolderLock(of: path) {
                // WAL mode is stored in the file: set it once, when the file is new (a pool sets it
                // on opening).
                if isNew, !concurrentReads {
                    try writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
                }
                // A new file gives freed pages back a few at a time (``compact(_:)``), never by a
                // rewrite of the whole file; set before its first table, when it costs nothing.
                if isNew {
                    try writer.writeWithoutTransaction { db in
                        try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                        try db.execute(sql: "VACUUM")
                    }
                }
                try Self.migrate(writer, path: path)
            }
            return writer
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
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if header.isEmpty { return true }
        if header.prefix(16) != Data("SQLite format 3\0".utf8) {
            throw StoreError.notADatabase(path: path)
        }
        try checkLength(path: path, header: header, handle: handle)
        return false
    }

    /// Refuses a file shorter than its header says it is, as a copy cut short leaves it: SQLite
    /// would read the pages it has and answer without the others. A store with a write-ahead log
    /// beside it is left to SQLite, which completes an interrupted checkpoint from the log, and so
    /// is one with a rollback journal, which SQLite rolls back.
    private static func checkLength(path: String, header: Data, handle: FileHandle) throws {
        guard header.count == 100, !FileManager.default.fileExists(atPath: path + "-wal"),
            !FileManager.default.fileExists(atPath: path + "-journal")
        else { return }
        func integer(at offset: Int, bytes: Int) -> Int {
            header[offset..<(offset + bytes)].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = integer(at: 16, bytes: 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pages = integer(at: 28, bytes: 4)
        // The header's size counts only when written by a version that keeps it (SQLite's file format, 1.3.8).
        guard pages > 0, pageSize >= 512, integer(at: 24, bytes: 4) == integer(at: 92, bytes: 4),
            let length = try? handle.seekToEnd(), Int(length) < pages * pageSize
        else { return }
        throw StoreError.damaged(
            path: path,
            detail: "the file is \(length) bytes long where its header says \(pages * pageSize): it was cut short")
    }

    static func storeError(
        _ error: DatabaseError, path: String, busyTimeout: TimeInterval, waited: TimeInterval? = nil
    ) -> StoreError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            // Busy before the timeout is SQLite declining to wait (where waiting could deadlock):
            // said as it is, not as a wait that did not happen.
            if let waited, waited < busyTimeout {
                .sqlite(
                    path: path,
                    detail:
                        "\(error.message ?? "database is locked") (SQLite code \(error.extendedResultCode.rawValue), "
                        + "after \(String(format: "%.1f", waited)) s)")
            } else {
                .busy(path: path, seconds: Int(busyTimeout))
            }
        case .SQLITE_NOTADB: .notADatabase(path: path)
        case .SQLITE_CORRUPT: .damaged(path: path, detail: error.message ?? "corrupt")
        default: .sqlite(path: path, detail: error.message ?? "\(error.resultCode)")
        }
    }

    /// Whether an access that failed may be made again: SQLite answered busy before the access
    /// began (where waiting might deadlock it declines at once, as when another process moves the
    /// file's journal mode or reads a snapshot a commit just passed), and the busy timeout is not
    /// spent. Nothing was changed by the access, so doing it again is what the timeout promises.
    private static func mayRetry(
        _ error: DatabaseError, began: Bool, since start: ContinuousClock.Instant, busyTimeout: TimeInterval
    ) -> Bool {
        guard !began, error.resultCode == .SQLITE_BUSY else { return false }
        return ContinuousClock.now - start < .seconds(busyTimeout)
    }

    /// The pause, in seconds, between two tries of a busy access: 4 ms, doubling with each try
    /// to at most 0.1 s.
    private static func pause(afterTry tries: Int) -> TimeInterval { min(0.1, 0.002 * Double(1 << min(tries, 6))) }

    private static func waited(since start: ContinuousClock.Instant) -> TimeInterval {
        let elapsed = (ContinuousClock.now - start).components
        return TimeInterval(elapsed.seconds) + TimeInterval(elapsed.attoseconds) / 1e18
    }

    /// Runs `access` on the database at `path`, again while SQLite answers busy before it began
    /// and `busyTimeout` is not spent (``mayRetry(_:began:since:busyTimeout:)``), and turns
    /// SQLite's errors into ``StoreError``. `access` is given a function to call once it has the
    /// database, after which it is never run again.
    static func retryingBusy<T>(
        path: String, busyTimeout: TimeInterval, _ access: (_ began: () -> Void) throws -> T
    ) throws -> T {
        let start = ContinuousClock.now
        var tries = 0
        while true {
            var began = false
            do {
                return try access { began = true }
            } catch let error as DatabaseError {
                guard mayRetry(error, began: began, since: start, busyTimeout: busyTimeout) else {
                    throw storeError(error, path: path, busyTimeout: busyTimeout, waited: waited(since: start))
                }
                tries += 1
                Thread.sleep(forTimeInterval: pause(afterTry: tries))
            }
        }
    }

    /// ``retryingBusy(path:busyTimeout:_:)`` on this store.
    func retryingBusy<T>(_ access: (_ began: () -> Void) throws -> T) throws -> T {
        try Self.retryingBusy(path: path, busyTimeout: busyTimeout, access)
    }

    /// Runs `body` in one write transaction, turning SQLite errors into ``StoreError``.
    func write<T>(_ body: (Database) throws -> T, call: StaticString = #function) throws -> T {
        calls.count(call)
        return try retryingBusy { began in
            try writer.write { db in
                began()
                return try body(db)
            }
        }
    }

    /// Runs `body` in one write transaction and, when `commit` is false, rolls it back: what a
    /// change would do, measured on the store, with nothing changed.
    func write<T>(commit: Bool, _ body: (Database) throws -> T, call: StaticString = #function) throws -> T {
        if commit { return try write(body, call: call) }
        calls.count(call)
        return try retryingBusy { began in
            try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction {
                    began()
                    result = try body(db)
                    return .rollback
                }
                return result!
            }
        }
    }

    /// Runs `body` in one read transaction, turning SQLite errors into ``StoreError``.
    func read<T>(_ body: (Database) throws -> T, call: StaticString = #function) throws -> T {
        calls.count(call)
        return try retryingBusy { began in
            try writer.read { db in
                began()
                return try body(db)
            }
        }
    }

    /// ``retryingBusy(path:busyTimeout:_:)`` for the async accesses.
    private func retryingBusy<T: Sendable>(_ access: (_ began: Began) async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        var tries = 0
        while true {
            let began = Began()
            do {
                return try await access(began)
            } catch let error as DatabaseError {
                guard Self.mayRetry(error, began: began.value, since: start, busyTimeout: busyTimeout) else {
                    throw Self.storeError(
                        error, path: path, busyTimeout: busyTimeout, waited: Self.waited(since: start))
                }
                tries += 1
                try await Task.sleep(for: .seconds(Self.pause(afterTry: tries)))
            }
        }
    }

    /// Runs `body` in one write transaction on GRDB's writer, the caller suspended meanwhile:
    /// for the store's async roles.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T, call: StaticString = #function) async throws
        -> T
    {
        calls.count(call)
        return try await retryingBusy { began in
            try await writer.write { db in
                began.set()
                return try body(db)
            }
        }
    }

    /// `write(commit:_:)` on GRDB's writer, the caller suspended meanwhile.
    func write<T: Sendable>(
        commit: Bool, _ body: @escaping @Sendable (Database) throws -> T, call: StaticString = #function
    ) async throws -> T {
        if commit { return try await write(body, call: call) }
        calls.count(call)
        return try await retryingBusy { began in
            try await writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction {
                    began.set()
                    result = try body(db)
                    return .rollback
                }
                return result!
            }
        }
    }

    /// Runs `body` in a read of one snapshot, the caller suspended meanwhile: for the store's
    /// async roles.
    ///
    /// Through GRDB's callback read, not its async one: that gives its reader back only once the
    /// caller's task resumes, so that with every reader held by tasks waiting to resume, the
    /// threads of Swift's pool that would resume them could all wait for a reader in a
    /// synchronous read, for good. This gives it back on the reader's own queue, as `body` ends.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T, call: StaticString = #function)
        async throws -> T
    {
        calls.count(call)
        return try await retryingBusy { began in
            try await withCheckedThrowingContinuation { continuation in
                writer.asyncRead { database in
                    continuation.resume(
                        with: Result {
                            let db = try database.get()
                            began.set()
                            return try body(db)
                        })
                }
            }
        }
    }
}

/// Whether an access of the database has begun: set from GRDB's queue, read by the caller.
private final class Began: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var value: Bool { flag.withLock { $0 } }
}
