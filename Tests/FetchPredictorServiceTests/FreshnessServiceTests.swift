import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictorService

/// `GET /v1/freshness`: a device's figures from its events, a tenant's from the days the pass
/// keeps; tenants apart; erasure; bad periods refused by field.
struct FreshnessServiceTests {
    static var backends: [Bool] { TestCluster.shared.isAvailable ? [false, true] : [false] }

    /// A day of Mail in Berlin, worked by hand (as `fetchpredict freshness`'s test): 4 cold
    /// launches, one fresh; two of News, 40 minutes apart, never fetched.
    static var day: [[String: Any]] {
        [
            ["timestamp": "2024-05-06T08:00:00+02:00", "app": "Mail", "event": "fetch", "result": "newData"],
            ["timestamp": "2024-05-06T08:20:00+02:00", "app": "Mail", "event": "launch"],
            ["timestamp": "2024-05-06T10:00:00+02:00", "app": "Mail", "event": "fetch", "result": "newData"],
            ["timestamp": "2024-05-06T10:40:00+02:00", "app": "Mail", "event": "launch"],
            ["timestamp": "2024-05-06T12:00:00+02:00", "app": "Mail", "event": "fetch", "result": "noData"],
            ["timestamp": "2024-05-06T12:00:30+02:00", "app": "Mail", "event": "launch"],
            ["timestamp": "2024-05-06T14:00:00+02:00", "app": "Mail", "event": "fetch", "result": "failed"],
            ["timestamp": "2024-05-06T14:10:00+02:00", "app": "Mail", "event": "launch"],
            ["timestamp": "2024-05-06T14:20:00+02:00", "app": "Mail", "event": "launch"],
            ["timestamp": "2024-05-06T23:30:00+02:00", "app": "News", "event": "launch"],
            ["timestamp": "2024-05-07T00:10:00+02:00", "app": "News", "event": "launch"],
        ]
    }

    func setUp(_ service: LiveService, device: String, key: String) async throws {
        let zone = Data(#"{"timeZone":"Europe/Berlin"}"#.utf8)
        #expect(try await service.request("PUT", "/v1/devices/\(device)", key: key, body: zone).status == 200)
        let posted = try await service.post(Self.day, device: device, key: key)
        #expect(posted.status == 200, "\(posted.text)")
    }

    func observed(_ answer: LiveService.Answer) -> [String: Any] { answer.json["observed"] as? [String: Any] ?? [:] }

    /// The tenant's figures once the pass kept every device.
    func kept(_ service: LiveService, _ query: String, key: String) async throws -> LiveService.Answer {
        for _ in 0..<200 {
            let answer = try await service.request("GET", "/v1/freshness?\(query)", key: key)
            #expect(answer.status == 200, "\(answer.text)")
            if answer.json["pendingDevices"] as? Int == 0 { return answer }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the freshness pass kept nothing in 10 s")
        return try await service.request("GET", "/v1/freshness?\(query)", key: key)
    }

    @Test(arguments: backends)
    func aDeviceAndATenantAreCountedAsWorkedByHand(postgres: Bool) async throws {
        // The service's clock on the day after: the gauges are of the last 7 days.
        let service = try await LiveService(
            clock: { Date(timeIntervalSince1970: 1_715_083_200) }, freshness: true, postgres: postgres)
        try await setUp(service, device: "phone", key: service.acme)
        try await setUp(service, device: "tablet", key: service.acme)
        try await setUp(service, device: "phone", key: service.other)
        let solo = try await service.post([Self.day[0], Self.day[1]], device: "solo", key: service.other)
        #expect(solo.status == 200, "\(solo.text)")

        let device = try await service.request(
            "GET", "/v1/freshness?from=2024-05-06&to=2024-05-08&device=phone", key: service.acme)
        #expect(device.status == 200, "\(device.text)")
        #expect(observed(device)["coldLaunches"] as? Int == 6)
        #expect(observed(device)["freshColdLaunches"] as? Int == 1)
        #expect(observed(device)["fetches"] as? Int == 4)
        #expect(device.json["device"] as? String == "phone")
        let baselines = device.json["baselines"] as? [[String: Any]] ?? []
        #expect(
            baselines.map { $0["strategy"] as? String } == ["periodic-30", "periodic-60", "periodic-120", "oracle"])

        // The tenant's two devices, from the kept days: twice the one's.
        let acme = try await kept(service, "from=2024-05-06&to=2024-05-08", key: service.acme)
        #expect(observed(acme)["coldLaunches"] as? Int == 12)
        #expect(observed(acme)["freshColdLaunches"] as? Int == 2)
        #expect(observed(acme)["fetches"] as? Int == 8)
        #expect(observed(acme)["days"] as? Int == 4)
        #expect(observed(acme)["medianContentAgeMinutes"] is NSNull)
        #expect((acme.json["apps"] as? [[String: Any]])?.map { $0["app"] as? String } == ["Mail", "News"])
        let mail = try await kept(service, "from=2024-05-06&to=2024-05-08&app=Mail", key: service.acme)
        #expect(observed(mail)["coldLaunches"] as? Int == 8)
        // The other tenant's, its own: a phone of the same name (a device with no zone has no
        // local days, so its fetch is in no day's figures).
        let other = try await kept(service, "from=2024-05-06&to=2024-05-08", key: service.other)
        #expect(observed(other)["coldLaunches"] as? Int == 6)
        #expect(observed(other)["fetches"] as? Int == 4)
        // A dashboard's gauges: by tenant and strategy, no device or app.
        let metrics = try await service.request("GET", "/metrics").text
        let rate = metrics.split(separator: "\n").filter {
            $0.hasPrefix("fetchpredict_freshness_cold_launches{") && $0.contains("tenant=\"acme\"")
                && $0.contains("strategy=\"observed\"")
        }
        // One registry serves every service of the test process: the value is the last any kept.
        let value = rate.first.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        #expect(rate.count == 1 && (value ?? 0) > 0, "\(rate)")
        #expect(!metrics.contains("fetchpredict_freshness_cold_launches{device"))
        // A device of another tenant is no device of this one's.
        let foreign = try await service.request(
            "GET", "/v1/freshness?from=2024-05-06&to=2024-05-08&device=solo", key: service.acme)
        #expect(foreign.status == 404 && foreign.json["field"] as? String == "device")

        // A device erased leaves its tenant's figures.
        #expect(try await service.request("DELETE", "/v1/devices/tablet", key: service.acme).status == 200)
        let erased = try await kept(service, "from=2024-05-06&to=2024-05-08", key: service.acme)
        #expect(observed(erased)["coldLaunches"] as? Int == 6)

        // Days with nothing in them: zeros, not an error.
        let empty = try await kept(service, "from=2025-01-01&to=2025-01-02", key: service.acme)
        #expect(observed(empty)["coldLaunches"] as? Int == 0 && observed(empty)["freshRate"] as? Double == 0)
        let quiet = try await service.request(
            "GET", "/v1/freshness?from=2025-01-01&to=2025-01-02&device=phone", key: service.acme)
        #expect(quiet.status == 200 && observed(quiet)["coldLaunches"] as? Int == 0)
        await service.stop()
    }

    @Test func badPeriodsAreRefusedNamingTheField() async throws {
        let service = try await LiveService()
        try await setUp(service, device: "phone", key: service.acme)
        for (query, field) in [
            ("to=2024-05-08", "from"), ("from=2024-05-06", "to"), ("from=yesterday&to=2024-05-08", "from"),
            ("from=2024-05-08&to=2024-05-06", "to"), ("from=2024-02-30&to=2024-03-02", "from"),
            ("from=2024-05-06T00:00:00Z&to=2024-05-08", "from"), ("from=2020-01-01&to=2024-01-01", "to"),
            ("from=2024-05-06&to=junk&device=phone", "to"), ("from=2024-05-06&to=2024-05-08&scope=protocol", "scope"),
            ("from=2024-05-06&to=2024-05-08&device=phone&scope=every", "scope"),
            ("from=2024-05-06&to=2024-05-08&device=a%2Fb", "device"),
        ] {
            let answer = try await service.request("GET", "/v1/freshness?\(query)", key: service.acme)
            #expect(answer.status == 400, "\(query): \(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(query): \(answer.text)")
        }
        let unknown = try await service.request(
            "GET", "/v1/freshness?from=2024-05-06&to=2024-05-08&device=nope", key: service.acme)
        #expect(unknown.status == 404)
        #expect(try await service.request("GET", "/v1/freshness?from=2024-05-06&to=2024-05-08").status == 401)
        // A device with no zone has no local days: 409, as its next wake is.
        #expect(try await service.post([Self.day[1]], device: "nozone", key: service.acme).status == 200)
        let nozone = try await service.request(
            "GET", "/v1/freshness?from=2024-05-06T00:00:00Z&to=2024-05-07T00:00:00Z&device=nozone", key: service.acme)
        #expect(nozone.status == 409 && nozone.json["field"] as? String == "timeZone", "\(nozone.text)")
        // A device's period may be instants.
        let instants = try await service.request(
            "GET", "/v1/freshness?from=2024-05-06T08:10:00%2B02:00&to=2024-05-06T12:30:00%2B02:00&device=phone",
            key: service.acme)
        #expect(instants.status == 200 && observed(instants)["coldLaunches"] as? Int == 3)
        await service.stop()
    }

    /// The pass works at most its share of the time: after a tick of a second at 5% it rests 19
    /// seconds; after a light tick, the tick's interval; at a share of 1, never more than that.
    @Test func thePassRestsSoThatItWorksItsShareOfTheTimeAtMost() {
        let second = Duration.seconds(1)
        func near(_ rest: Duration, _ expected: Duration) -> Bool {
            max(rest - expected, expected - rest) < .microseconds(1)
        }
        #expect(near(FreshnessPass.rest(after: .seconds(1), interval: second, share: 0.05), .seconds(19)))
        #expect(
            near(FreshnessPass.rest(after: .milliseconds(500), interval: second, share: 0.25), .milliseconds(1_500)))
        #expect(FreshnessPass.rest(after: .milliseconds(20), interval: second, share: 0.05) == second)
        #expect(FreshnessPass.rest(after: .seconds(3), interval: second, share: 1) == second)
    }
}
