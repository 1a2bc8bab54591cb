import FetchPredictor
import FetchPredictorService
import FetchPredictorTestSupport
import Foundation
import Testing

/// What one tenant's learning may cost the others, shown by the order of answers while a
/// device's learning is held still at the store, not by their times. Each service has a pool of
/// two threads of its own, whatever the machine's cores, and the tests run one at a time.
@Suite(.serialized) struct FairnessTests {
    @Test func aTenantsLearnHoldsUpNoOtherTenantAndItsOwnAreBounded() async throws {
        // Given tenant acme's device big learning, held still, at most one learn a tenant,
        // and no wait for a turn
        var settings = ServiceSettings()
        settings.learnsPerTenant = 1
        settings.learnWait = .zero
        // Two weeks of launches: a large learn at one event, so that every learn takes a turn.
        settings.largeLearn = 1
        let service = try await LiveService(settings: settings, serving: { GatedStore($0, gating: "acme/big") })
        let gate = try #require(service.served as? GatedStore)
        for (device, key) in [("big", service.acme), ("small", service.acme), ("phone", service.other)] {
            try await service.setUpPhone(device: device, key: key)
            let posted = try await service.post(LiveService.weeksOfLaunches(days: 14), device: device, key: key)
            #expect(posted.status == 200, "\(posted.text)")
        }
        let big = Task { try await service.request("GET", nextWake("big"), key: service.acme) }
        #expect(await gate.reachedGate())

        // When another tenant asks meanwhile: answered, while big still learns
        let other = try await service.request("GET", nextWake("phone"), key: service.other)
        #expect(other.status == 200, "\(other.text)")
        #expect(gate.learnCount("acme/phone") == 0 && gate.learnCount("other/phone") == 1)

        // And acme asks for a second learn: refused at its limit, with Retry-After, nothing learned
        let second = try await service.request("GET", nextWake("small"), key: service.acme)
        #expect(second.status == 429, "\(second.text)")
        #expect(second.headers["retry-after"] == "1")
        #expect((second.json["error"] as? String)?.contains("limit of concurrent learns") == true)
        #expect(gate.learnCount("acme/small") == 0)

        // And big again while it learns: 503, the thread not held
        let again = try await service.request("GET", nextWake("big"), key: service.acme)
        #expect(again.status == 503, "\(again.text)")
        #expect(again.headers["retry-after"] == "1")

        // Then, let go, big is answered, and acme's next learn is let in
        gate.open()
        #expect(try await big.value.status == 200)
        let small = try await service.request("GET", nextWake("small"), key: service.acme)
        #expect(small.status == 200, "\(small.text)")
        #expect(gate.learnCount("acme/big") == 1)
        await service.stop()
    }

    @Test func aRequestWaitsForItsTenantsTurnOffThePool() async throws {
        // Given acme's big device learning, held still, and a wait long enough for its turn
        var settings = ServiceSettings()
        settings.learnsPerTenant = 1
        settings.learnWait = .seconds(60)
        settings.largeLearn = 1
        let service = try await LiveService(settings: settings, serving: { GatedStore($0, gating: "acme/big") })
        let gate = try #require(service.served as? GatedStore)
        for device in ["big", "small"] {
            try await service.setUpPhone(device: device)
            _ = try await service.post(LiveService.weeksOfLaunches(days: 14), device: device)
        }
        try await service.setUpPhone(device: "phone", key: service.other)
        _ = try await service.post(LiveService.weeksOfLaunches(days: 14), device: "phone", key: service.other)
        let big = Task { try await service.request("GET", nextWake("big"), key: service.acme) }
        #expect(await gate.reachedGate())
        // When acme's second device waits for its turn, and big's second request for big
        let small = Task { try await service.request("GET", nextWake("small"), key: service.acme) }
        let bigAgain = Task { try await service.request("GET", nextWake("big"), key: service.acme) }
        // Then the waiting requests hold no thread: the other tenant is still answered (with two
        // threads in the pool, one learning, a waiter holding one would leave it none)
        for _ in 0..<3 {
            let other = try await service.request("GET", nextWake("phone"), key: service.other)
            #expect(other.status == 200, "\(other.text)")
        }
        #expect(gate.learnCount("acme/small") == 0)
        // And each wait is counted, by what it waits for
        let metrics = try await service.request("GET", "/metrics").text
        #expect(metrics.contains(#"fetchpredict_learn_waits_total{reason="tenant_limit"}"#), "\(metrics)")
        #expect(metrics.contains(#"fetchpredict_learn_waits_total{reason="device_being_learned"}"#))
        gate.open()
        #expect(try await big.value.status == 200)
        #expect(try await small.value.status == 200)
        #expect(try await bigAgain.value.status == 200)
        #expect(gate.learnCount("acme/big") == 1)
        await service.stop()
    }

    /// The path of a device's next wake just after its two weeks.
    func nextWake(_ device: String) -> String { "/v1/devices/\(device)/next-wake?now=2024-01-15T00:00:00Z" }
}
