import FetchPredictor
import FetchPredictorPostgres
import FetchPredictorTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fetchpredict serve` as a process: what it acknowledged survives SIGTERM and kill -9.
@Suite(.serialized)
struct ServeProcessTests {
    /// The built tool, beside the test bundle.
    static let tool: String = {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = executable.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("fetchpredict").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("fetchpredict").path
    }()

    /// A running `fetchpredict serve` on a free port over a new store, and a key for it.
    struct Server {
        var process: Process
        var port: Int
        var key: String
        var store: String
        var log: Pipe

        init(store: String) throws {
            try self.init(storeArguments: ["--db", store])
        }

        /// A server of the store the arguments name (`--db PATH` or `--postgres URL`), with a new
        /// key, or with `key` when given (one made for another instance of the same store), and
        /// `options` of `serve`.
        /// With `openFiles`, the server runs under that limit of open files (`ulimit -n` in a
        /// child shell), as a small container's would.
        init(storeArguments: [String], key: String? = nil, options: [String] = [], openFiles: Int? = nil) throws {
            store = storeArguments.last!
            if let key {
                self.key = key
            } else {
                let create = Process()
                create.executableURL = URL(fileURLWithPath: ServeProcessTests.tool)
                create.arguments = ["keys", "create", "--tenant", "load"] + storeArguments
                let out = Pipe()
                create.standardOutput = out
                try create.run()
                create.waitUntilExit()
                self.key = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .split(separator: " ").last!.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            process = Process()
            process.executableURL = URL(fileURLWithPath: ServeProcessTests.tool)
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + storeArguments + options
            if let openFiles {
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments =
                    ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", ServeProcessTests.tool] + process.arguments!
            }
            log = Pipe()
            process.standardError = log
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var said = ""
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !said.contains(" ready") {
                let chunk = log.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            // "address=127.0.0.1:PORT" in the ready line.
            let line = said.split(separator: "\n").first { $0.contains(" ready") } ?? ""
            let address = line.split(separator: " ").first { $0.hasPrefix("address=") } ?? ""
            port = Int(address.split(separator: ":").last ?? "") ?? 0
        }
    }

    /// A count shared by the writers and the test.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var signalled = false
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
        /// Whether the signal was sent: from then on, a failed request ends a writer.
        var sent: Bool {
            get { lock.withLock { signalled } }
            set { lock.withLock { signalled = newValue } }
        }
    }

    /// Posts batches of 10 new launches from `writers` threads until the server stops answering
    /// after the signal; returns the batches acknowledged with a 2xx, each as its events'
    /// millisecond times. Threads and plain sockets, not tasks: the test must not wait for a
    /// cooperative thread that other suites keep busy.
    static func stream(to server: Server, writers: Int, acknowledged counter: Counter) -> [[Int64]] {
        let deadline = Date().addingTimeInterval(60)
        let results = Results()
        let threads = (0..<writers).map { writer in
            Thread {
                var acknowledged: [[Int64]] = []
                var batch = 0
                while Date() < deadline {
                    let times = (0..<10).map {
                        Int64(1_704_067_200_000 + writer * 1_000_000_000 + batch * 10_000 + $0)
                    }
                    batch += 1
                    let events = times.map {
                        #"{"timestamp": \#(Double($0) / 1000), "app": "com.example.w\#(writer)", "event": "launch"}"#
                    }
                    let body = #"{"events": ["# + events.joined(separator: ", ") + "]}"
                    let request =
                        "POST /v1/devices/phone/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer \(server.key)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
                    // Before the signal, a failure (a slow machine) is tried past; after it, the
                    // server is gone.
                    guard let connection = try? RawConnection(port: server.port) else {
                        if counter.sent { break }
                        Thread.sleep(forTimeInterval: 0.05)
                        continue
                    }
                    guard (try? connection.send(request)) != nil else {
                        connection.close()
                        if counter.sent { break }
                        continue
                    }
                    let answer = connection.readAll(seconds: 30)
                    connection.close()
                    if answer.hasPrefix("HTTP/1.1 2") {
                        acknowledged.append(times)
                        counter.add()
                    } else if counter.sent {
                        break
                    }
                }
                results.add(acknowledged)
            }
        }
        for thread in threads { thread.start() }
        while results.count < writers { Thread.sleep(forTimeInterval: 0.05) }
        return results.all
    }

    /// What the writer threads hand back.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [[[Int64]]] = []
        func add(_ acknowledged: [[Int64]]) { lock.withLock { batches.append(acknowledged) } }
        var count: Int { lock.withLock { batches.count } }
        var all: [[Int64]] { lock.withLock { batches.flatMap { $0 } } }
    }

    static func scratchStore() throws -> String {
        TestFiles.scratchFolder("serve").appendingPathComponent("events.sqlite").path
    }

    /// The stores a server is tested on: an SQLite file, and a database of the tests' PostgreSQL
    /// server when there is one.
    static var storeKinds: [String] { TestCluster.shared.isAvailable ? ["sqlite", "postgres"] : ["sqlite"] }

    @Test(arguments: [SIGTERM, SIGKILL], storeKinds)
    func everyAcknowledgedBatchSurvives(signal: Int32, storeKind: String) async throws {
        let path = try Self.scratchStore()
        let url = storeKind == "postgres" ? try TestCluster.shared.newDatabase() : nil
        let server = try Server(storeArguments: url.map { ["--postgres", $0] } ?? ["--db", path])
        #expect(server.port > 0)
        // Given writers streaming batches, when the signal comes mid-stream
        let pid = server.process.processIdentifier
        let counter = Counter()
        let killer = Thread {
            // Once 40 batches were acknowledged, however slow the machine is.
            let limit = Date().addingTimeInterval(30)
            while counter.value < 40, Date() < limit { Thread.sleep(forTimeInterval: 0.02) }
            counter.sent = true
            kill(pid, signal)
        }
        killer.start()
        let acknowledged = Self.stream(to: server, writers: 4, acknowledged: counter)
        server.process.waitUntilExit()
        // Then SIGTERM ends the service cleanly, and either way every acknowledged batch is stored once
        if signal == SIGTERM {
            #expect(server.process.terminationStatus == 0)
            #expect(server.process.terminationReason == .exit)
        }
        #expect(acknowledged.count >= 40, "too few batches were sent to tell")
        let reopened: any EventStoring
        if let url {
            reopened = try PostgresEventStore(url: url)
        } else {
            let file = try EventStore(path: path)
            #expect(try file.integrityCheck() == ["ok"])
            reopened = file
        }
        let times = try await reopened.events(device: "load/phone").map(\.time)
        let stored = Set(times)
        let missing = acknowledged.joined().filter { !stored.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) acknowledged events are missing")
        #expect(times.count == stored.count)
    }

    /// One request over a plain socket: the status and the body.
    static func http(_ method: String, _ path: String, to server: Server, body: String = "") throws -> (
        status: Int, body: String, head: String
    ) {
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        try connection.send(
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(server.key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                + body)
        let answer = connection.readAll(seconds: 30)
        let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
        let parts = answer.components(separatedBy: "\r\n\r\n")
        return (status, parts.dropFirst().joined(separator: "\r\n\r\n"), parts.first ?? "")
    }

    /// At --log-level debug every request is logged with its route and status; a second server on
    /// the port is refused in one sentence that names the address and what to do.
    @Test func requestsAreLoggedAndATakenPortIsSaid() throws {
        let store = try Self.scratchStore()
        var server = try Server(storeArguments: ["--db", store], options: ["--log-level", "debug"])
        #expect(server.port > 0)
        server.key = "not-a-key"
        #expect(try Self.http("GET", "/v1/devices/phone", to: server).status == 401)
        let second = Process()
        second.executableURL = URL(fileURLWithPath: Self.tool)
        second.arguments = ["serve", "--listen", "127.0.0.1:\(server.port)", "--db", store]
        let refusal = Pipe()
        second.standardError = refusal
        second.standardOutput = FileHandle.nullDevice
        try second.run()
        let said = String(decoding: refusal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 1)
        #expect(
            said.contains(
                "Cannot listen on 127.0.0.1:\(server.port): address already in use: another process listens there"),
            "\(said)")
        #expect(!said.contains("Usage:"))
        server.process.terminate()
        server.process.waitUntilExit()
        let log = String(decoding: server.log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("method=GET"), "\(log)")
        #expect(log.contains("route=/v1/devices/{device} status=401"), "\(log)")
    }

    /// Two `serve` instances on one PostgreSQL database answer as one: what is posted to one is
    /// in the other's apps and next wake, and both give the same wake.
    @Test(.enabled(if: TestCluster.shared.isAvailable)) func twoInstancesOnOnePostgresAnswerAsOne() throws {
        let url = try TestCluster.shared.newDatabase()
        let first = try Server(storeArguments: ["--postgres", url])
        let second = try Server(storeArguments: ["--postgres", url], key: first.key)
        defer {
            for server in [first, second] {
                server.process.terminate()
                server.process.waitUntilExit()
            }
        }
        #expect(first.port > 0 && second.port > 0)
        let put = try Self.http(
            "PUT", "/v1/devices/phone", to: first, body: #"{"timeZone":"Europe/Warsaw","defaultInterval":"minimum"}"#)
        #expect(put.status == 200, "\(put.body)")
        #expect(try Self.http("GET", "/v1/devices/phone", to: second).body.contains("Europe/Warsaw"))
        // A week through the first, then a second week: the second instance, which learned the
        // first week, learns the second before it answers.
        let events = LiveService.weeksOfLaunches(days: 14)
        for week in [events[..<21], events[21...]] {
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: ["events": Array(week)]), as: UTF8.self)
            let posted = try Self.http("POST", "/v1/devices/phone/events", to: first, body: body)
            #expect(posted.status == 200, "\(posted.body)")
            let apps = try Self.http("GET", "/v1/devices/phone/apps", to: second)
            let compact = apps.body.filter { !$0.isWhitespace }
            #expect(compact.contains("\"launches\":\(week.endIndex / 3 * 2)"), "\(apps.body)")
        }
        let now = "2024-01-15T00:00:00Z"
        let fromSecond = try Self.http("GET", "/v1/devices/phone/next-wake?now=\(now)", to: second)
        let fromFirst = try Self.http("GET", "/v1/devices/phone/next-wake?now=\(now)", to: first)
        #expect(fromSecond.status == 200 && fromSecond.body == fromFirst.body, "\(fromSecond.body)")
    }

    /// PostgreSQL stopped under the service: requests answer 503 with Retry-After while it is
    /// down, and succeed again once it is back, with no restart of the service.
    @Test(.enabled(if: LocalCluster.canStart)) func aDatabaseRestartIsRiddenOutWith503s() throws {
        let cluster = try LocalCluster()
        let server = try Server(storeArguments: ["--postgres", try cluster.newDatabase("restarted")])
        defer {
            server.process.terminate()
            server.process.waitUntilExit()
        }
        let put = try Self.http("PUT", "/v1/devices/phone", to: server, body: #"{"timeZone":"Europe/Warsaw"}"#)
        #expect(put.status == 200, "\(put.body)")
        try cluster.stop()
        for path in ["/v1/devices/phone", "/readyz"] {
            let down = try Self.http("GET", path, to: server)
            #expect(down.status == 503, "\(path): \(down.head)")
            #expect(down.head.lowercased().contains("retry-after: 1"), "\(down.head)")
        }
        let events = #"{"events": [{"timestamp": "2024-01-29T07:58:00Z", "app": "news", "event": "launch"}]}"#
        #expect(try Self.http("POST", "/v1/devices/phone/events", to: server, body: events).status == 503)
        try cluster.start()
        let back = try Self.http("POST", "/v1/devices/phone/events", to: server, body: events)
        #expect(back.status == 200, "\(back.body)")
        #expect(try Self.http("GET", "/v1/devices/phone", to: server).body.contains("Europe/Warsaw"))
        // The outage is logged once when it began and once when it ended, not a line a request.
        server.process.terminate()
        server.process.waitUntilExit()
        let log = String(decoding: server.log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.components(separatedBy: "the store does not answer").count - 1 == 1, "\(log.suffix(3000))")
        #expect(log.components(separatedBy: "the store answers again").count - 1 == 1, "\(log.suffix(3000))")
        #expect(log.contains("answered_503=3"), "\(log.suffix(3000))")
    }

    /// The Python client of examples/python replays a log through the API and prints the next
    /// wake: the one `fetchpredict next` gives for the same device.
    @Test func thePythonClientReplaysALog() throws {
        let store = try Self.scratchStore()
        let server = try Server(store: store)
        defer {
            server.process.terminate()
            server.process.waitUntilExit()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let log = root.appendingPathComponent("fixtures/night-owl-14d.jsonl").path
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", root.appendingPathComponent("examples/python/replay.py").path, log, "--url",
            "http://127.0.0.1:\(server.port)", "--key", server.key, "--time-zone", "America/New_York",
            "--batch", "250",
        ]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "\(said)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(said.contains("\(lines.count) events stored"), "\(said)")
        // The last event's time, as the client asked with it.
        let last = try #require(
            lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let now = try #require(last["timestamp"] as? String)
        let next = Process()
        next.executableURL = URL(fileURLWithPath: ServeProcessTests.tool)
        next.arguments = ["next", "--db", store, "--device", "load/replayed", "--now", now, "--json"]
        let answer = Pipe()
        next.standardOutput = answer
        try next.run()
        let json = answer.fileHandleForReading.readDataToEndOfFile()
        next.waitUntilExit()
        let wake = try #require(
            (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["wake"] as? [String: Any])
        let time = try #require(wake["time"] as? String)
        #expect(said.contains("Next wake after \(now): \(time)"), "\(said)")
    }
}
