import FetchPredictorService
import Foundation
import Testing

/// No client shuts another out (issue 74, point 1): connections that have spoken but sit idle
/// between requests, or trickle a body, give their room to a new client at the limit, and one
/// address holds at most its share of the room.
@Suite(.serialized)
struct ConnectionFairnessTests {
    /// A GET /healthz over a new connection from `source`: its status line, or "" when the
    /// connection was closed without one.
    static func statusLine(port: Int, from source: String) -> String {
        guard let connection = try? RawConnection(port: port, from: source) else { return "" }
        defer { connection.close() }
        try? connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return String(connection.readAll(seconds: 3).split(separator: "\r\n").first ?? "")
    }

    /// `count` connections opened from `source`, each having sent `text`, off the shared pool.
    static func open(_ count: Int, port: Int, from source: String, sending text: String) async -> [RawConnection] {
        await offThePool {
            (0..<count).compactMap { _ -> RawConnection? in
                guard let connection = try? RawConnection(port: port, from: source) else { return nil }
                try? connection.send(text)
                return connection
            }
        }
    }

    static let keptAlive = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Connections from one address, each having asked /healthz and kept alive, hold every room;
    /// a client from another address is still answered, and the longest idle gave way.
    @Test func keptAliveConnectionsGiveWayToANewClient() async throws {
        var settings = ServiceSettings()
        settings.maximumConnections = 40
        settings.maximumConnectionsPerAddress = 0
        let service = try await LiveService(settings: settings)
        let port = service.port
        let held = await Self.open(40, port: port, from: "127.0.0.1", sending: Self.keptAlive)
        #expect(held.count == 40)
        // Each has its answer: all are idle between requests.
        let first = await offThePool { held.map { $0.readHead(seconds: 2).hasPrefix("HTTP/1.1 200") } }
        #expect(first.allSatisfy { $0 })
        // Ten new clients from another address, each keeping its connection, are answered.
        let newcomers = await offThePool {
            (0..<10).map { _ -> (RawConnection?, String) in
                guard let connection = try? RawConnection(port: port, from: "127.0.0.2") else { return (nil, "") }
                try? connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                return (connection, connection.readHead(seconds: 2))
            }
        }
        let answered = newcomers.filter { $0.1.hasPrefix("HTTP/1.1 200") }.count
        #expect(answered == 10, "only \(answered) of 10 new clients were answered beside kept-alive connections")
        // Ten of the kept-alive connections gave them their room.
        let closed = held.filter(\.isClosedByPeer).count
        #expect(closed == 10)
        for connection in held { connection.close() }
        for case let (connection?, _) in newcomers { connection.close() }
        await service.stop()
    }

    /// Connections that declare a body and send a byte every half second hold every room; past
    /// the grace, a new client is answered in their place.
    @Test func tricklingBodiesGiveWayAtTheLimit() async throws {
        var settings = ServiceSettings()
        settings.maximumConnections = 20
        settings.maximumConnectionsPerAddress = 0
        let service = try await LiveService(settings: settings)
        try await service.setUpPhone()
        let (port, key) = (service.port, service.acme)
        let trickling = await Self.open(
            20, port: port, from: "127.0.0.1",
            sending: "POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        #expect(trickling.count == 20)
        // A byte every half second on each, while the new clients ask, from 3 s on.
        let stop = Date().addingTimeInterval(8)
        let trickle = Task.detached {
            while Date() < stop, !Task.isCancelled {
                for connection in trickling { try? connection.send(" ") }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        try await Task.sleep(for: .seconds(3))
        let answered = await offThePool {
            (0..<10).filter { _ in Self.statusLine(port: port, from: "127.0.0.2").hasPrefix("HTTP/1.1 200") }.count
        }
        #expect(answered == 10, "only \(answered) of 10 new clients were answered beside trickling bodies")
        // Stopped before its sockets close, whose descriptors the next test may be given.
        trickle.cancel()
        await trickle.value
        for connection in trickling { connection.close() }
        await service.stop()
    }

    /// One address holds at most its cap of connections; another address is answered beside them.
    @Test func oneAddressHoldsAtMostItsShare() async throws {
        var settings = ServiceSettings()
        settings.maximumConnections = 100
        settings.maximumConnectionsPerAddress = 8
        let service = try await LiveService(settings: settings)
        let port = service.port
        let opened = await Self.open(30, port: port, from: "127.0.0.1", sending: Self.keptAlive)
        // Eight are answered and stay; the others are closed as they open.
        let answers = await offThePool {
            opened.map { $0.readHead(seconds: 2) }
        }
        #expect(
            answers.filter { $0.hasPrefix("HTTP/1.1 200") }.count == 8,
            "\(answers.filter { $0.hasPrefix("HTTP/1.1 200") }.count) of 30 were answered: \(answers.map { $0.prefix(12) })"
        )
        #expect(await offThePool { Self.statusLine(port: port, from: "127.0.0.3") }.hasPrefix("HTTP/1.1 200"))
        // Once the address closes its connections, it may open new ones.
        for connection in opened { connection.close() }
        try await Task.sleep(for: .milliseconds(300))
        #expect(await offThePool { Self.statusLine(port: port, from: "127.0.0.1") }.hasPrefix("HTTP/1.1 200"))
        let metrics = try await service.request("GET", "/metrics").text
        #expect(metrics.contains("fetchpredict_connections_over_address_limit_total"))
        await service.stop()
    }
}
