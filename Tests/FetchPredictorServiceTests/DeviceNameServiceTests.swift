import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

/// A device's name is only a name, on both backends: names with quotes, spaces, letters beyond
/// ASCII, `--`, `;`, `%` and SQL in them go through every device route, the tenant's listing and
/// the feed's cursor, and come back as they were, never read as SQL nor as another device's.
@Suite(.serialized)
struct DeviceNameServiceTests {
    static let names = [
        #"it's "quoted""#, "a b  c", "Zürich Łódź 東京", "x--y", "semi;colon", "100% sure", "📱",
        "'); DROP TABLE device;--", "plain",
    ]
    static let now = "2024-01-22T05:00:00Z"
    static let before = "2024-01-23T05:00:00Z"

    static var backends: [Bool] { TestCluster.shared.isAvailable ? [false, true] : [false] }

    @Test(arguments: backends)
    func everyRouteTakesANameAsItIs(postgres: Bool) async throws {
        let service = try await LiveService(clock: { Date(timeIntervalSince1970: 1_706_000_000) }, postgres: postgres)
        for (index, name) in Self.names.enumerated() {
            let device = LiveService.segment(name)
            try await service.setUpPhone(device: device)
            // Each device's habits an hour apart, so that the feed orders them by time.
            let shifted = LiveService.weeksOfLaunches().map { event -> [String: Any] in
                var event = event
                let time = ISO8601DateFormatter().date(from: event["timestamp"] as! String)!
                event["timestamp"] = ISO8601DateFormatter().string(from: time.addingTimeInterval(Double(index) * 600))
                return event
            }
            #expect(try await service.post(shifted, device: device).status == 200, "\(name)")
            let app = try await service.request(
                "PUT", "/v1/devices/\(device)/apps/com.example.chat", key: service.acme,
                body: Data(#"{"interval":3600}"#.utf8))
            #expect(app.status == 200, "\(name): \(app.text)")
            for path in [
                "", "/next-wake?now=\(Self.now)", "/schedule?now=\(Self.now)&hours=24", "/apps?now=\(Self.now)",
                "/apps/com.example.news/habits?now=\(Self.now)",
            ] {
                let answer = try await service.request("GET", "/v1/devices/\(device)\(path)", key: service.acme)
                #expect(answer.status == 200, "\(name)\(path): \(answer.text)")
                if path.isEmpty || path.hasPrefix("/next-wake") {
                    #expect(answer.json["device"] as? String == name, "\(name)\(path): \(answer.text)")
                }
            }
            // Another tenant's key finds no such device.
            let theirs = try await service.request("GET", "/v1/devices/\(device)", key: service.other)
            #expect(theirs.status == 404, "\(name)")
        }
        // The tenant's listing, a page of two at a time, gives every name once, in byte order.
        let listed = try await service.pages("/v1/devices?limit=2", key: service.acme)
            .flatMap { $0["devices"] as? [String] ?? [] }
        #expect(listed == Self.names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        // The feed, a wake at a time by its cursor, gives every device's wake once, by its name.
        let fed = try await service.pages(
            "/v1/wakes?before=\(Self.before)&now=\(Self.now)&limit=1", key: service.acme
        ).flatMap { ($0["wakes"] as? [[String: Any]] ?? []).compactMap { $0["device"] as? String } }
        #expect(fed.sorted() == Self.names.sorted())
        // Deleting one device deletes it alone.
        let gone = Self.names[0]
        #expect(
            try await service.request("DELETE", "/v1/devices/\(LiveService.segment(gone))", key: service.acme).status
                == 200)
        #expect(
            try await service.request("GET", "/v1/devices/\(LiveService.segment(gone))", key: service.acme).status
                == 404)
        let left = try await service.request("GET", "/v1/devices?limit=100", key: service.acme)
        #expect(Set(left.json["devices"] as? [String] ?? []) == Set(Self.names.dropFirst()))
        await service.stop()
    }
}
