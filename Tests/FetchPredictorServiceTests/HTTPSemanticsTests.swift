import FetchPredictorTestSupport
import Foundation
import Testing

/// HTTP/1.1's own rules where a client's request leaves the usual path (issue 74, points 4 and 5):
/// an HTTP/1.0 request without keep-alive ends its connection, and a transfer coding the service
/// does not implement is refused, not read as if it were plain chunked.
struct HTTPSemanticsTests {
    /// RFC 9112, section 9.3: a server closes an HTTP/1.0 connection after its response unless
    /// the request asked to keep it alive.
    @Test func anHTTP10RequestIsAnsweredAndItsConnectionClosed() async throws {
        let service = try await LiveService()
        let socket = try RawConnection(port: service.port)
        defer { socket.close() }
        try socket.send("GET /healthz HTTP/1.0\r\n\r\n")
        // The whole answer arrives and the connection ends well before the read's 5 s.
        let started = Date()
        let answer = await socket.received(within: 5)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        #expect(answer.lowercased().contains("connection: close"), "\(answer.prefix(300))")
        #expect(Date().timeIntervalSince(started) < 4, "the HTTP/1.0 connection was left open")
        await service.stop()
    }

    /// An HTTP/1.0 client that asks for keep-alive keeps its connection for a second request.
    @Test func anHTTP10RequestWithKeepAliveKeepsItsConnection() async throws {
        let service = try await LiveService()
        let socket = try RawConnection(port: service.port)
        defer { socket.close() }
        try socket.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        try await Task.sleep(for: .milliseconds(300))
        try socket.send("GET /healthz HTTP/1.0\r\n\r\n")
        let answer = await socket.received(within: 5)
        #expect(answer.components(separatedBy: "HTTP/1.1 200").count - 1 == 2, "\(answer.prefix(600))")
        await service.stop()
    }

    /// A POST of one launch to the phone of tenant acme, its body chunked under `coding`: what
    /// the service answered within 5 s.
    static func postChunked(_ service: LiveService, coding: String, closing: Bool = false) async throws -> String {
        let socket = try RawConnection(port: service.port)
        defer { socket.close() }
        let body = #"{"events": [{"timestamp": "2024-01-01T07:00:00Z", "app": "a", "event": "launch"}]}"#
        try socket.send(
            "POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(service.acme)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: \(coding)\r\n"
                + (closing ? "Connection: close\r\n" : "") + "\r\n"
                + String(body.utf8.count, radix: 16) + "\r\n\(body)\r\n0\r\n\r\n")
        return await socket.received(within: 5)
    }

    /// RFC 9112, section 6.1: a transfer coding the server does not understand is answered 501;
    /// the body is not read as if it were chunked alone, and nothing of it is stored.
    @Test(arguments: ["gzip, chunked", "deflate, chunked", "x-bogus, chunked", "gzip,chunked"])
    func aTransferCodingTheServiceDoesNotImplementIs501(coding: String) async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let answer = try await Self.postChunked(service, coding: coding)
        #expect(answer.hasPrefix("HTTP/1.1 501"), "\(answer.prefix(300))")
        #expect(answer.lowercased().contains("content-type: application/json"), "\(answer.prefix(300))")
        #expect(answer.contains(#""field":"Transfer-Encoding""#), "\(answer.prefix(300))")
        let apps = try await service.request("GET", "/v1/devices/phone/apps", key: service.acme)
        #expect(apps.status == 200)
        #expect(!apps.text.contains(#""a""#), "the refused body was stored: \(apps.text)")
        await service.stop()
    }

    /// Chunked alone is still read, in any case of its name.
    @Test func aChunkedBodyIsStillRead() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let answer = try await Self.postChunked(service, coding: "Chunked", closing: true)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        await service.stop()
    }
}
