import FetchPredictor
import FetchPredictorPostgres
import FetchPredictorService
import FetchPredictorTestSupport
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A service on a free loopback port over a new store, with a key for each of two tenants, for
/// one test; ``stop()`` ends it.
final class LiveService: @unchecked Sendable {
    /// The test's SQLite store: the one served, unless the service was given PostgreSQL.
    let store: EventStore
    /// The store the service was given: ``store``, one around it, or a PostgreSQL store.
    let served: any EventStoring
    /// The PostgreSQL database served, when the service was given one: another process's way in.
    let databaseURL: String?
    let folder: URL
    let port: Int
    /// Keys of tenants `acme` and `other`.
    let acme: String
    let other: String
    private let task: Task<Void, any Error>
    private let group: ServiceGroup

    /// An HTTP answer.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// - Parameters:
    ///   - serving: the store the service is given, made from the test's SQLite store: the store
    ///     itself, or one around it (such as a ``GatedStore``).
    ///   - freshness: run the freshness pass (``FreshnessPass``).
    ///   - postgres: serve a new database of the tests' PostgreSQL server instead.
    init(
        settings: ServiceSettings = ServiceSettings(), clock: @escaping @Sendable () -> Date = { Date() },
        sweeps: Bool = false, freshness: Bool = false, serving: (EventStore) -> any EventStoring = { $0 },
        postgres: Bool = false
    ) async throws {
        folder = TestFiles.scratchFolder("service")
        store = try EventStore(path: folder.appendingPathComponent("events.sqlite").path)
        databaseURL = postgres ? try TestCluster.shared.newDatabase() : nil
        served = try databaseURL.map { try PostgresEventStore(url: $0) } ?? serving(store)
        acme = try await served.createKey(tenant: "acme", now: Date()).key
        other = try await served.createKey(tenant: "other", now: Date()).key
        var settings = settings
        settings.port = 0
        // The sweep of kept wakes learns devices in the background, which would race the tests'
        // own order of learns; a test of the sweep turns it on.
        if !sweeps { settings.sweepPerSecond = 0 }
        // So does the freshness pass read events; a test of it turns it on.
        if !freshness { settings.freshnessPerSecond = 0 }
        // A test's devices are kept as soon as their events arrive.
        settings.freshnessSettle = .zero
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = FetchPredictorService.application(
            store: served, settings: settings, clock: clock, onRunning: { continuation.yield($0) })
        // Stopped gracefully, as SIGTERM stops serve: a cancelled server logs its listener's
        // CancellationError as an error, which a passing run should not print.
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        self.group = group
        // On threads of its own, as a separate process would be: the 77 command-line tests wait
        // for their processes on the shared pool (two threads on a 2-core machine), and a server
        // that queued behind them answered its client after the client's 60 s timeout.
        task = Task { try await withTaskExecutorPreference(Self.threads) { try await group.run() } }
        var iterator = ports.makeAsyncIterator()
        port = await iterator.next() ?? 0
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
        try? FileManager.default.removeItem(at: folder)
    }

    /// The threads every live service runs on, apart from the pool that tests block.
    static let threads = ServiceThreads()

    /// Sends a request; `key` is sent as a bearer key when given.
    func request(
        _ method: String, _ path: String, key: String? = nil, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }

    /// Every page of the listing `GET path` begins (a path with a query already), each
    /// page's cursor followed, percent-encoded, until a page gives none or `atMost` pages were
    /// read: the pages' JSON, in order. Each page must be 200.
    func pages(_ path: String, key: String, atMost limit: Int = 10_000) async throws -> [[String: Any]] {
        var pages: [[String: Any]] = []
        var cursor: String?
        repeat {
            let page = try await request("GET", path + (cursor.map { "&cursor=\(Self.segment($0))" } ?? ""), key: key)
            #expect(page.status == 200, "\(path): \(page.text)")
            pages.append(page.json)
            cursor = page.json["cursor"] as? String
        } while cursor != nil && pages.count < limit
        return pages
    }

    /// A name as a path segment or query value: every byte but letters, digits and `-._~`
    /// percent-encoded.
    static func segment(_ name: String) -> String {
        name.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))!
    }

    /// Posts events, given as dictionaries of the `jsonl` format.
    func post(_ events: [[String: Any]], device: String = "phone", key: String? = nil) async throws -> Answer {
        let body = try JSONSerialization.data(withJSONObject: ["events": events])
        return try await request("POST", "/v1/devices/\(device)/events", key: key ?? acme, body: body)
    }

    /// Three weeks of a commuter's launches: news at 07:00 and 20:00, chat at 12:30, UTC.
    static func weeksOfLaunches(days: Int = 21, start: String = "2024-01-01") -> [[String: Any]] {
        var events: [[String: Any]] = []
        let base = ISO8601DateFormatter().date(from: start + "T00:00:00Z")!
        for day in 0..<days {
            for (hour, minute, app) in [(7, 0, "news"), (12, 30, "chat"), (20, 0, "news")] {
                let time = base.addingTimeInterval(Double(day * 86_400 + hour * 3600 + minute * 60))
                events.append([
                    "timestamp": ISO8601DateFormatter().string(from: time), "app": "com.example.\(app)",
                    "event": "launch",
                ])
            }
        }
        return events
    }

    /// Gives the device `phone` of tenant acme (or of the tenant of `key`) a zone and `minimum`
    /// as its default interval.
    func setUpPhone(device: String = "phone", key: String? = nil) async throws {
        let body = Data(#"{"timeZone":"Europe/Warsaw","defaultInterval":"minimum"}"#.utf8)
        let answer = try await request("PUT", "/v1/devices/\(device)", key: key ?? acme, body: body)
        #expect(answer.status == 200, "\(answer.text)")
    }
}

/// A plain TCP connection to the service, for requests no HTTP client would send.
struct RawConnection: Sendable {
    let descriptor: Int32

    /// - Parameter source: the loopback address it comes from, as another client's would
    ///   (Linux routes every 127.0.0.0/8 address to the loopback).
    init(port: Int, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source, Self.onIPv4(source, port: 0, { bind(descriptor, $0, $1) }) != 0 {
            _ = Glibc.close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        guard Self.onIPv4("127.0.0.1", port: port, { connect(descriptor, $0, $1) }) == 0 else {
            _ = Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Calls `body` (bind or connect) with an IPv4 address and port as a socket call takes them.
    private static func onIPv4(
        _ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        // MSG_NOSIGNAL: a write to a connection the service closed is an error, not SIGPIPE.
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw POSIXError(.EIO)
        }
    }

    /// Whether the other side closed the connection within `seconds`.
    func waitForClose(seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 { return true }  // closed
            if count < 0, errno == EINTR { continue }  // a signal, not an answer
            if count < 0 { return errno == ECONNRESET }  // a timeout, or reset
        }
    }

    /// Whether the other side has closed (or reset) the connection by now, without waiting; what
    /// it sent before is read through.
    var isClosedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// What the other side sent until the end of an answer's head (a blank line), until it closed
    /// the connection, or until `seconds` passed.
    func readHead(seconds: Int) -> String {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What the other side sent until it closed the connection, or `seconds` passed.
    func readAll(seconds: Int) -> String {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() { _ = Glibc.close(descriptor) }

    /// ``waitForClose(seconds:)`` on a thread outside the cooperative pool, which the service
    /// under test needs: tests run at once, and a few blocked reads would leave it no thread.
    func closed(within seconds: Int) async -> Bool {
        await offThePool { waitForClose(seconds: seconds) }
    }

    /// ``readAll(seconds:)`` on a thread outside the cooperative pool.
    func received(within seconds: Int) async -> String {
        await offThePool { readAll(seconds: seconds) }
    }
}

/// Runs blocking work on a thread outside the cooperative pool.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Runs jobs on a dispatch queue, whose threads grow when a job blocks, where the shared pool's
/// threads are as many as the cores and are held by every test that waits synchronously.
final class ServiceThreads: TaskExecutor {
    private let queue = DispatchQueue(label: "live-service", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
