import FetchPredictor
import FetchPredictorService
import FetchPredictorTestSupport
import Foundation
import Testing

/// What the service was found to take loosely by a careless client (issue 41, point 4): one rule
/// for every input, and nothing stored from a refused one.
struct OneRuleTests {
    func batch(_ event: String) -> Data { Data(#"{"events": [\#(event)]}"#.utf8) }

    @Test func aBatchWithWhatTheContractForbidsIsRefusedByItsField() async throws {
        let service = try await LiveService()
        let event = #""timestamp": "2024-01-01T08:00:00Z", "app": "com.example.news""#
        for (body, field) in [
            // A fraction where the contract says a whole number: was stored as 1.
            (batch(#"{\#(event), "event": "fetch", "result": "newData", "bytes": 1.5}"#), "events[0].bytes"),
            // The same key twice: the last won.
            (batch(#"{\#(event), "event": "launch", "app": "com.example.chat"}"#), nil),
        ] {
            let answer = try await service.request("POST", "/v1/devices/phone/events", key: service.acme, body: body)
            #expect(answer.status == 400, "\(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(answer.text)")
        }
        // The same key twice in settings: the first won there, the last in events.
        let settings = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme,
            body: Data(#"{"timeZone": "UTC", "timeZone": "Europe/Warsaw"}"#.utf8))
        #expect(settings.status == 400, "\(settings.text)")
        #expect((settings.json["error"] as? String)?.contains("appears twice") == true, "\(settings.text)")
        // Bytes that are not UTF-8 in an app name: were stored as U+FFFD, two names as one.
        var raw = Array(#"{"events": [{"timestamp": "2024-01-01T08:00:00Z", "event": "launch", "app": "com.a"#.utf8)
        raw += [0xFF, 0xFE] + Array(#""}]}"#.utf8)
        let invalid = try await service.request("POST", "/v1/devices/phone/events", key: service.acme, body: Data(raw))
        #expect(invalid.status == 400, "\(invalid.text)")
        #expect(invalid.text.contains("UTF-8"), "\(invalid.text)")
        // And a U+FFFD sent as an escape is refused by the name rule, as every reader's is.
        let escaped = try await service.request(
            "POST", "/v1/devices/phone/events", key: service.acme,
            body: batch(#"{"timestamp": "2024-01-01T08:00:00Z", "event": "launch", "app": "com.a\ufffd"}"#))
        #expect(escaped.status == 400 && escaped.json["field"] as? String == "events[0].app", "\(escaped.text)")
        await #expect(try service.store.devices().isEmpty)
        await service.stop()
    }

    /// A name is in Unicode normal form C everywhere, or refused everywhere, by its field: a
    /// decomposed 'é' was stored by the events route and the importers, and refused by the per-app
    /// routes, so such an app could be neither set nor asked about.
    @Test func aNameNotInNormalFormCIsRefusedByEveryRoute() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let decomposed = try await service.post(
            [["timestamp": "2024-01-01T08:00:00Z", "app": "cafe\u{301}", "event": "launch"]], device: "phone")
        #expect(
            decomposed.status == 400 && decomposed.json["field"] as? String == "events[0].app", "\(decomposed.text)")
        let set = try await service.request(
            "PUT", "/v1/devices/phone/apps/cafe%CC%81", key: service.acme, body: Data(#"{"interval": "minimum"}"#.utf8))
        #expect(set.status == 400 && set.json["field"] as? String == "app", "\(set.text)")
        // Composed, the same name is stored and reached.
        let composed = try await service.post(
            [["timestamp": "2024-01-01T08:00:00Z", "app": "caf\u{E9}", "event": "launch"]], device: "phone")
        #expect(composed.status == 200, "\(composed.text)")
        let reached = try await service.request(
            "PUT", "/v1/devices/phone/apps/caf%C3%A9", key: service.acme, body: Data(#"{"interval": "minimum"}"#.utf8))
        #expect(reached.status == 200, "\(reached.text)")
        await #expect(try service.store.apps(device: "acme/phone").map(\.app).contains("caf\u{E9}"))
        #expect(throws: InvalidFieldError.self) {
            try service.store.record([.launch("cafe\u{301}", at: 1_704_096_000_000)], device: "acme/phone")
        }
        await service.stop()
    }

    /// An app the events route stores is one the per-app routes reach: a '/' or '..' in its
    /// name (sent as %2F) was refused there, so such an app could be neither set nor asked about.
    @Test func everyAppTheEventsRouteStoresIsReachedByTheAppRoutes() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let stored = try await service.post(
            [["timestamp": "2024-01-01T08:00:00Z", "app": "a/../b", "event": "launch"]], device: "phone")
        #expect(stored.status == 200, "\(stored.text)")
        let set = try await service.request(
            "PUT", "/v1/devices/phone/apps/a%2F..%2Fb", key: service.acme, body: Data(#"{"interval": "minimum"}"#.utf8))
        #expect(set.status == 200 && set.json["app"] as? String == "a/../b", "\(set.text)")
        let habits = try await service.request(
            "GET", "/v1/devices/phone/apps/a%2F..%2Fb/habits?now=2024-01-02T00:00:00Z", key: service.acme)
        #expect(habits.status == 200, "\(habits.text)")
        #expect(try service.store.settings(app: "a/../b", device: "acme/phone").interval == .minimum)
        await service.stop()
    }

    @Test func pathsKeysAndMethodsAreReadAsTheStandardsSay() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        // An empty segment is no route: it made a device named 'events'.
        let empty = try await service.request(
            "PUT", "/v1/devices//events", key: service.acme, body: Data(#"{"timeZone": "UTC"}"#.utf8))
        #expect(empty.status == 404, "\(empty.text)")
        await #expect(try service.store.devices() == ["acme/phone"])  // and no device 'events'
        // A device name the API accepts is one the command line reaches once the tenant is
        // prefixed: 'acme/' leaves 250 bytes of the 255.
        let long = try await service.request(
            "PUT", "/v1/devices/\(String(repeating: "d", count: 251))", key: service.acme,
            body: Data(#"{"timeZone": "UTC"}"#.utf8))
        #expect(long.status == 400 && long.json["field"] as? String == "device", "\(long.text)")
        let longest = try await service.request(
            "PUT", "/v1/devices/\(String(repeating: "d", count: 250))", key: service.acme,
            body: Data(#"{"timeZone": "UTC"}"#.utf8))
        #expect(longest.status == 200, "\(longest.text)")
        // The scheme of Authorization is case-insensitive.
        let lower = try await service.request(
            "GET", "/v1/devices/phone", headers: ["Authorization": "bearer \(service.acme)"])
        #expect(lower.status == 200, "\(lower.text)")
        // HEAD answers as GET, without a body.
        let head = try await service.request("HEAD", "/v1/devices/phone", key: service.acme)
        #expect(head.status == 200 && head.body.isEmpty, "\(head.status) \(head.text)")
        #expect(try await service.request("HEAD", "/healthz").status == 200)
        await service.stop()
    }
}

/// A client's broken framing or a body that stops is the client's error, never the service's:
/// no 500, no error in the log, no false alert in `/metrics`.
struct FramingTests {
    @Test func aMalformedChunkIs400() async throws {
        let service = try await LiveService()
        let socket = try RawConnection(port: service.port)
        defer { socket.close() }
        try socket.send(
            "POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(service.acme)\r\n"
                + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
        let answer = await socket.received(within: 15)
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
        await #expect(try service.store.devices().isEmpty)
        await service.stop()
    }

    /// A request the parser cannot read, before any route, is answered 400 with the JSON error
    /// body every other error has (Hummingbird's own answer had none), and the connection closed.
    @Test(arguments: [
        "GET /healthz HTTP/1.1\r\nHost x\r\n\r\n", "GET /healthz HTTP/9\r\n\r\n", "\u{1}\u{2}\u{3} junk\r\n\r\n",
    ])
    func aRequestTheParserCannotReadGetsAJSON400(request: String) async throws {
        let service = try await LiveService()
        let socket = try RawConnection(port: service.port)
        defer { socket.close() }
        try socket.send(request)
        let answer = await socket.received(within: 15)
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
        #expect(answer.lowercased().contains("content-type: application/json"), "\(answer.prefix(300))")
        #expect(answer.contains(#"{"error":"the request is not valid HTTP/1.1"}"#), "\(answer.prefix(300))")
        // And the service answers the next client.
        let health = try await service.request("GET", "/healthz")
        #expect(health.status == 200)
        await service.stop()
    }

    @Test func aBodyThatStopsIsNoErrorOfTheService() async throws {
        var settings = ServiceSettings()
        settings.readTimeout = .seconds(1)
        let service = try await LiveService(settings: settings)
        let socket = try RawConnection(port: service.port)
        try socket.send(
            "POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(service.acme)\r\n"
                + "Content-Length: 100\r\n\r\n{\"ev")
        #expect(await socket.closed(within: 10))
        socket.close()
        let metrics = try await service.request("GET", "/metrics")
        // The registry is the process's, which other tests share: only the events route counts.
        let failures = metrics.text.split(separator: "\n").filter {
            $0.hasPrefix("fetchpredict_http_requests_total") && $0.contains(#"route="/v1/devices/{device}/events""#)
                && $0.contains(#"status="5"#)
        }
        #expect(failures.isEmpty, "\(failures)")
        await #expect(try service.store.devices().isEmpty)
        await service.stop()
    }
}
