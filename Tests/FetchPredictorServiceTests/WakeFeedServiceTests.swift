import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor
@testable import FetchPredictorService

/// `GET /v1/wakes` and `POST /v1/wakes/claim` over HTTP: the feed gives each device's wake as
/// next-wake does, page by page; a cursor is its tenant's alone; claims hand a wake out once.
@Suite(.serialized)
struct WakeFeedServiceTests {
    /// Five devices of acme and one of other, with three weeks of launches shifted by device.
    func fleet() async throws -> LiveService {
        let service = try await LiveService(clock: { Date(timeIntervalSince1970: 1_706_000_000) })
        for index in 0..<5 {
            try await service.setUpPhone(device: "phone\(index)")
            let shifted = LiveService.weeksOfLaunches().map { event -> [String: Any] in
                var event = event
                let time = ISO8601DateFormatter().date(from: event["timestamp"] as! String)!
                event["timestamp"] = ISO8601DateFormatter().string(from: time.addingTimeInterval(Double(index) * 1200))
                return event
            }
            #expect(try await service.post(shifted, device: "phone\(index)").status == 200)
        }
        try await service.setUpPhone(device: "theirs", key: service.other)
        #expect(
            try await service.post(LiveService.weeksOfLaunches(), device: "theirs", key: service.other).status == 200)
        return service
    }

    static let now = "2024-01-22T05:00:00Z"
    static let before = "2024-01-22T23:00:00Z"

    @Test func theFeedIsNextWakePageByPageAndATenantsOwn() async throws {
        let service = try await fleet()
        let pages = try await service.pages(
            "/v1/wakes?before=\(Self.before)&now=\(Self.now)&limit=2", key: service.acme)
        let wakes = pages.flatMap { $0["wakes"] as? [[String: Any]] ?? [] }
        // Another tenant's key with acme's cursor is refused, naming the field.
        for cursor in pages.compactMap({ $0["cursor"] as? String }) {
            let theirs = try await service.request(
                "GET", "/v1/wakes?before=\(Self.before)&now=\(Self.now)&cursor=\(cursor)", key: service.other)
            #expect(theirs.status == 400 && theirs.text.contains("cursor"))
        }
        let devices = wakes.compactMap { $0["device"] as? String }
        #expect(Set(devices) == Set((0..<5).map { "phone\($0)" }), "every acme device, none of other's")
        let times = wakes.compactMap { $0["time"] as? String }
        #expect(times == times.sorted())
        for wake in wakes {
            let device = wake["device"] as! String
            let next = try await service.request(
                "GET", "/v1/devices/\(device)/next-wake?now=\(Self.now)", key: service.acme)
            let expected = try JSONSerialization.data(withJSONObject: next.json["wake"] as Any, options: .sortedKeys)
            #expect(try JSONSerialization.data(withJSONObject: wake, options: .sortedKeys) == expected, "\(device)")
        }
        let theirs = try await service.request(
            "GET", "/v1/wakes?before=\(Self.before)&now=\(Self.now)", key: service.other)
        #expect((theirs.json["wakes"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == ["theirs"])
        let missing = try await service.request("GET", "/v1/wakes?now=\(Self.now)", key: service.acme)
        #expect(missing.status == 400 && missing.text.contains("before"))
        await service.stop()
    }

    /// A tenant's push budget is its devices' that set none, never another tenant's.
    @Test func aTenantsBudgetIsItsDevicesAlone() async throws {
        let service = try await fleet()
        func busiest(_ device: String, key: String) async throws -> Int {
            let answer = try await service.request(
                "GET", "/v1/devices/\(device)/schedule?from=\(Self.now)&hours=24", key: key)
            let times = (answer.json["wakes"] as? [[String: Any]] ?? []).compactMap { $0["time"] as? String }
                .compactMap { ISO8601DateFormatter().date(from: $0) }
            return times.map { start in times.filter { $0 >= start && $0 < start.addingTimeInterval(3600) }.count }
                .max() ?? 0
        }
        #expect(
            try await busiest("phone0", key: service.acme) > 1, "a budget of 1 that holds nothing back tests nothing")
        let theirs = try await busiest("theirs", key: service.other)
        let put = try await service.request(
            "PUT", "/v1/settings", key: service.acme, body: Data(#"{"wakesPerHour":1}"#.utf8))
        #expect(put.status == 200 && put.json["wakesPerHour"] as? Int == 1, "\(put.text)")
        #expect(try await busiest("phone0", key: service.acme) == 1)
        #expect(try await busiest("theirs", key: service.other) == theirs)
        let other = try await service.request("GET", "/v1/settings", key: service.other)
        #expect(other.text == #"{"wakesPerHour":null}"#)
        let bad = try await service.request(
            "PUT", "/v1/settings", key: service.acme, body: Data(#"{"wakesPerHour":0}"#.utf8))
        #expect(bad.status == 400 && bad.json["field"] as? String == "wakesPerHour")
        await service.stop()
    }

    /// A claim's instants are ISO 8601 or Unix seconds, as a query's are.
    @Test func aClaimTakesUnixSeconds() async throws {
        let service = try await fleet()
        let seconds = [Self.before, Self.now].map { Int(ISO8601DateFormatter().date(from: $0)!.timeIntervalSince1970) }
        let feed = try await service.request(
            "GET", "/v1/wakes?before=\(Self.before)&now=\(Self.now)&limit=3", key: service.acme)
        let body = Data(#"{"before":\#(seconds[0]),"now":\#(seconds[1]),"limit":3}"#.utf8)
        let claimed = try await service.request("POST", "/v1/wakes/claim", key: service.acme, body: body)
        #expect(claimed.status == 200, "\(claimed.text)")
        func devices(_ answer: LiveService.Answer) -> [String] {
            (answer.json["wakes"] as? [[String: Any]] ?? []).compactMap { $0["device"] as? String }
        }
        #expect(devices(claimed).count == 3)
        #expect(devices(claimed) == devices(feed))
        let bad = try await service.request(
            "POST", "/v1/wakes/claim", key: service.acme, body: Data(#"{"before":true}"#.utf8))
        #expect(bad.status == 400 && bad.json["field"] as? String == "before")
        await service.stop()
    }

    @Test func aClaimLeasesEachWakeOnce() async throws {
        let service = try await fleet()
        let body = Data(#"{"before":"\#(Self.before)","now":"\#(Self.now)","limit":3,"leaseSeconds":60}"#.utf8)
        let first = try await service.request("POST", "/v1/wakes/claim", key: service.acme, body: body)
        let second = try await service.request("POST", "/v1/wakes/claim", key: service.acme, body: body)
        let third = try await service.request("POST", "/v1/wakes/claim", key: service.acme, body: body)
        #expect(first.status == 200, "\(first.text)")
        let names = [first, second, third].map {
            ($0.json["wakes"] as? [[String: Any]] ?? []).compactMap { $0["device"] as? String }
        }
        #expect(names[0].count == 3 && names[1].count == 2 && names[2].isEmpty, "\(names)")
        #expect(Set(names.joined()).count == 5)
        let bad = try await service.request(
            "POST", "/v1/wakes/claim", key: service.acme,
            body: Data(#"{"before":"\#(Self.before)","now":"\#(Self.now)","leaseSeconds":0}"#.utf8))
        #expect(bad.status == 400 && bad.text.contains("leaseSeconds"))
        await service.stop()
    }
}

/// The sweep of `serve`: plans moved by a write, and plans whose wake passed, are planned again
/// in the background, and `/metrics` says how far behind it is.
@Suite(.serialized)
struct WakeSweepTests {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var time = ISO8601DateFormatter().date(from: "2024-01-22T05:00:00Z")!
        var now: Date { lock.withLock { time } }
        func set(_ date: Date) { lock.withLock { time = date } }
    }

    /// Waits up to 20 s for `condition`.
    func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func theSweepKeepsEveryPlanHolding() async throws {
        let clock = Clock()
        let service = try await LiveService(clock: { clock.now }, sweeps: true)
        for index in 0..<3 {
            try await service.setUpPhone(device: "phone\(index)")
            #expect(try await service.post(LiveService.weeksOfLaunches(), device: "phone\(index)").status == 200)
        }
        let devices = (0..<3).map { "acme/phone\($0)" }
        func allHold() throws -> Bool {
            try devices.allSatisfy { try service.store.keptWake(device: $0)?.planned.holds(at: clock.now) == true }
        }
        #expect(try await eventually(allHold), "the sweep planned every device written")
        let first = try #require(try service.store.keptWake(device: devices[0])?.planned.wake)
        // The wake passes: the sweep plans the device's next one.
        clock.set(first.time.addingTimeInterval(60))
        #expect(try await eventually(allHold), "the sweep planned the device whose wake passed")
        let next = try #require(try service.store.keptWake(device: devices[0])?.planned.wake)
        #expect(next.time > first.time)
        let metrics = try await service.request("GET", "/metrics")
        #expect(metrics.text.contains("fetchpredict_plans_behind "))
        #expect(metrics.text.contains("fetchpredict_plans_behind_seconds"))
        await service.stop()
    }
}
