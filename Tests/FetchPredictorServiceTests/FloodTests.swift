import FetchPredictorService
import FetchPredictorTestSupport
import Foundation
import Testing

/// The service survives the open network (issue 41): a flood of connections, which needs no key,
/// is shed, and the service answers once it ends.
@Suite(.serialized)
struct FloodTests {
    /// One GET over a new connection: its status line, or "" when the connection was refused or
    /// closed without one.
    func statusLine(_ path: String, port: Int) -> String {
        guard let connection = try? RawConnection(port: port) else { return "" }
        defer { connection.close() }
        try? connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return String(connection.readAll(seconds: 5).split(separator: "\r\n").first ?? "")
    }

    @Test func aConnectionFloodIsShedAndTheServiceAnswersOnceItEnds() async throws {
        // Given a service that may open 256 files, so that 128 connections are its limit, with
        // no cap per address (all the flood's connections come from one)
        let store = TestFiles.scratchFolder("flood").appendingPathComponent("events.sqlite").path
        let server = try ServeProcessTests.Server(
            storeArguments: ["--db", store], options: ["--max-connections-per-address", "0"], openFiles: 256)
        defer { if server.process.isRunning { server.process.terminate() } }
        #expect(server.port > 0)
        // When 600 connections are opened and held, more than its files allow
        let flood = await offThePool {
            (0..<600).compactMap { _ in try? RawConnection(port: server.port) }
        }
        #expect(flood.count > 300)
        // Then the excess is closed (the flood does not take its files), and once the flood ends
        // it is alive and answers within a second
        for connection in flood { connection.close() }
        let answered = await offThePool {
            let deadline = Date().addingTimeInterval(1)
            repeat {
                if statusLine("/healthz", port: server.port).hasPrefix("HTTP/1.1 200") { return true }
                Thread.sleep(forTimeInterval: 0.05)
            } while Date() < deadline
            return false
        }
        #expect(answered, "the service did not answer /healthz within a second of the flood's end")
        #expect(server.process.isRunning)
        // And its log says once that it shed load, and once that it stopped
        server.process.terminate()
        server.process.waitUntilExit()
        let log = String(decoding: server.log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.components(separatedBy: "shedding connections:").count - 1 == 1, "\(log.suffix(2000))")
        #expect(log.contains("stopped shedding connections"), "\(log.suffix(2000))")
    }

    /// Connections that have sent nothing give way to a new one, oldest first: a client with a
    /// request is answered while a flood of idle connections is held open.
    @Test func aClientIsAnsweredWhileIdleConnectionsAreHeld() async throws {
        let store = TestFiles.scratchFolder("flood").appendingPathComponent("events.sqlite").path
        let server = try ServeProcessTests.Server(
            storeArguments: ["--db", store], options: ["--max-connections-per-address", "0"], openFiles: 256)
        defer { if server.process.isRunning { server.process.terminate() } }
        // 400 idle connections opened and held, three times the service's room
        let flood = await offThePool {
            (0..<400).compactMap { _ in try? RawConnection(port: server.port) }
        }
        #expect(flood.count > 300)
        // While they are held, every one of 20 clients with a request is answered
        let answered = await offThePool {
            (0..<20).filter { _ in statusLine("/healthz", port: server.port).hasPrefix("HTTP/1.1 200") }.count
        }
        #expect(answered == 20, "only \(answered) of 20 clients were answered during the flood")
        // And the oldest idle connections were the ones closed for them
        let closed = await offThePool { flood.prefix(40).filter { $0.waitForClose(seconds: 1) }.count }
        #expect(closed == 40)
        for connection in flood { connection.close() }
        #expect(server.process.isRunning)
    }
}

/// Every request has a deadline to arrive whole (issue 41, point 2), also when the service never
/// reads its body: a byte every 300 ms resets the idle timeout but not this.
struct RequestDeadlineTests {
    @Test(arguments: [
        "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
        "POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
    ])
    func aTricklingRequestIsClosedAtItsDeadline(head: String) async throws {
        var settings = ServiceSettings()
        settings.readTimeout = .seconds(1)
        let service = try await LiveService(settings: settings)
        let socket = try RawConnection(port: service.port)
        try socket.send(head)
        // A byte every 300 ms for up to 6 s, while the connection lasts.
        let lasted = await offThePool { () -> Double in
            let started = Date()
            while Date().timeIntervalSince(started) < 6 {
                guard (try? socket.send("x")) != nil else { break }
                Thread.sleep(forTimeInterval: 0.3)
            }
            return Date().timeIntervalSince(started)
        }
        let closed = await socket.closed(within: 1)
        socket.close()
        #expect(closed && lasted < 5, "the trickling connection lasted \(lasted) s")
        #expect(try await service.request("GET", "/healthz").status == 200)
        await service.stop()
    }
}
