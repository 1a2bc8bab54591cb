import FetchPredictor
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
            self.store = store
            let create = Process()
            create.executableURL = URL(fileURLWithPath: ServeProcessTests.tool)
            create.arguments = ["keys", "create", "--tenant", "load", "--db", store]
            let out = Pipe()
            create.standardOutput = out
            try create.run()
            create.waitUntilExit()
            key = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: " ").last!.trimmingCharacters(in: .whitespacesAndNewlines)
            process = Process()
            process.executableURL = URL(fileURLWithPath: ServeProcessTests.tool)
            process.arguments = ["serve", "--db", store, "--listen", "127.0.0.1:0"]
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

    /// Posts batches of 10 new launches from `writers` tasks until `stop` says so; returns
    /// the batches acknowledged with a 2xx, each as its events' millisecond times.
    static func stream(to server: Server, writers: Int, for seconds: Double) async -> [[Int64]] {
        let deadline = Date().addingTimeInterval(seconds)
        return await withTaskGroup(of: [[Int64]].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var acknowledged: [[Int64]] = []
                    var batch = 0
                    // Keep sending past the deadline until the server stops answering.
                    while true {
                        let times = (0..<10).map {
                            Int64(1_704_067_200_000 + writer * 1_000_000_000 + batch * 10_000 + $0)
                        }
                        batch += 1
                        let events = times.map {
                            ["timestamp": Double($0) / 1000, "app": "com.example.w\(writer)", "event": "launch"]
                                as [String: Any]
                        }
                        var request = URLRequest(
                            url: URL(string: "http://127.0.0.1:\(server.port)/v1/devices/phone/events")!)
                        request.httpMethod = "POST"
                        request.setValue("Bearer \(server.key)", forHTTPHeaderField: "Authorization")
                        request.httpBody = try! JSONSerialization.data(withJSONObject: ["events": events])
                        request.timeoutInterval = 5
                        guard let (_, response) = try? await URLSession.shared.data(for: request) else { break }
                        if (response as! HTTPURLResponse).statusCode / 100 == 2 { acknowledged.append(times) }
                        if Date() > deadline.addingTimeInterval(10) { break }
                    }
                    return acknowledged
                }
            }
            var all: [[Int64]] = []
            for await batches in group { all += batches }
            return all
        }
    }

    static func scratchStore() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetchpredict-serve-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("events.sqlite").path
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func everyAcknowledgedBatchSurvives(signal: Int32) async throws {
        let store = try Self.scratchStore()
        let server = try Server(store: store)
        #expect(server.port > 0)
        // Given writers streaming batches, when the signal comes mid-stream
        let pid = server.process.processIdentifier
        let killer = Task {
            try await Task.sleep(for: .milliseconds(1500))
            kill(pid, signal)
        }
        let acknowledged = await Self.stream(to: server, writers: 4, for: 1.5)
        _ = await killer.result
        server.process.waitUntilExit()
        // Then SIGTERM ends the service cleanly, and either way every acknowledged batch is stored once
        if signal == SIGTERM {
            #expect(server.process.terminationStatus == 0)
            #expect(server.process.terminationReason == .exit)
        }
        #expect(acknowledged.count > 10, "too few batches were sent to tell")
        let reopened = try EventStore(path: store)
        #expect(try reopened.integrityCheck() == ["ok"])
        let stored = Set(try reopened.events(device: "load/phone").map(\.time))
        let missing = acknowledged.joined().filter { !stored.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) acknowledged events are missing")
        #expect(try reopened.eventCounts().launches == stored.count)
    }
}
