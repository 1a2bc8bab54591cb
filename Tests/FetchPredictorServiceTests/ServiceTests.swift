import FetchPredictor
import Foundation
import Testing

@testable import FetchPredictorService

/// The HTTP service as its clients use it: over a real socket, against its own store.
@Suite(.serialized)
struct ServiceTests {
    @Test func aBatchIsStoredWholeOrNotAtAll() async throws {
        let service = try await LiveService()
        // Given a batch whose third event names no app
        var events = LiveService.weeksOfLaunches(days: 1)
        events[2]["app"] = nil
        // When it is posted
        let refused = try await service.post(events)
        // Then it is a 400 naming the event and field, and nothing of it is stored
        #expect(refused.status == 400)
        #expect(refused.json["field"] as? String == "events[2].app")
        #expect(try service.store.eventCounts().launches == 0)
        // And the batch without the fault is stored whole
        events[2]["app"] = "com.example.news"
        let stored = try await service.post(events)
        #expect(stored.status == 200)
        #expect(stored.json["stored"] as? Int == 3)
        #expect(try service.store.eventCounts().launches == 3)
        await service.stop()
    }

    @Test func aRepeatedBatchIsCountedAsDuplicates() async throws {
        let service = try await LiveService()
        let events = LiveService.weeksOfLaunches(days: 2)
        let first = try await service.post(events)
        let second = try await service.post(events)
        #expect(first.json["stored"] as? Int == 6)
        #expect(second.json["stored"] as? Int == 0)
        #expect(second.json["duplicates"] as? Int == 6)
        #expect(try service.store.eventCounts().launches == 6)
        await service.stop()
    }

    @Test func nextWakeIsTheLibrarysAnswer() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        for now in ["2024-01-22T00:00:00Z", "2024-01-22T09:10:00Z", "2024-01-22T19:59:00Z"] {
            let answer = try await service.request("GET", "/v1/devices/phone/next-wake?now=\(now)", key: service.acme)
            #expect(answer.status == 200)
            // The same store asked through the library by a scheduler of its own, as `next` does.
            let date = ISO8601DateFormatter().date(from: now)!
            var expected = try await #require(
                try FetchScheduler(store: service.store).nextWake(after: date, device: "acme/phone"))
            expected.device = "phone"
            let wake = try JSONSerialization.data(
                withJSONObject: try #require(answer.json["wake"]), options: .sortedKeys)
            let library = try JSONSerialization.data(
                withJSONObject: try JSONSerialization.jsonObject(
                    with: try WireJSON.encoder(pretty: false).encode(expected)),
                options: .sortedKeys)
            #expect(String(decoding: wake, as: UTF8.self) == String(decoding: library, as: UTF8.self))
        }
        // An app whose interval is never gets no wake: 204.
        for app in ["com.example.news", "com.example.chat"] {
            let put = try await service.request(
                "PUT", "/v1/devices/phone/apps/\(app)", key: service.acme, body: Data(#"{"interval":"never"}"#.utf8))
            #expect(put.status == 200)
        }
        let none = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        #expect(none.status == 204)
        await service.stop()
    }

    /// A device unused for longer than the silence limit (14 days by default) gets a 204 that
    /// says so and since when; its schedule says it too. Before, it was woken on month-old habits.
    @Test func aSilentDeviceGetsA204ThatSaysSinceWhen() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        // The last launch is news at 2024-01-21T20:00:00Z.
        _ = try await service.post(LiveService.weeksOfLaunches())
        let silent = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-03-01T00:00:00Z", key: service.acme)
        #expect(silent.status == 204)
        #expect(
            silent.headers["fetchpredict-no-wake"] == nil
                && silent.headers["fetchpredictor-no-wake"]
                    == "silent; since=2024-02-04T20:00:00Z; last-launch=2024-01-21T20:00:00Z"
        )
        // The day before it went silent, it is woken.
        let inUse = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-02-03T00:00:00Z", key: service.acme)
        #expect(inUse.status == 200)
        let schedule = try await service.request(
            "GET", "/v1/devices/phone/schedule?from=2024-03-01T00:00:00Z", key: service.acme)
        #expect(schedule.status == 200)
        #expect((schedule.json["wakes"] as? [Any])?.isEmpty == true)
        let silence = try #require(schedule.json["silence"] as? [String: Any])
        #expect(silence["since"] as? String == "2024-02-04T20:00:00Z")
        #expect(silence["lastLaunch"] as? String == "2024-01-21T20:00:00Z")
        // Without an app that may fetch, the header says that instead.
        _ = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme, body: Data(#"{"defaultInterval":"never"}"#.utf8))
        let never = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        #expect(never.status == 204)
        #expect(never.headers["fetchpredictor-no-wake"] == "no-app-may-fetch")
        await service.stop()
    }

    /// The device's state over HTTP: a bad value is a 400 naming the field; while Low Power
    /// Mode is on, next-wake is a 204 that says so and since when, the schedule has no wake and
    /// the feed no row; the event that turns it off brings the wake back.
    @Test func lowPowerModeHoldsEveryWakeUntilItEnds() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        let bad = try await service.post([
            ["timestamp": "2024-01-21T21:00:00Z", "event": "battery", "value": 140]
        ])
        #expect(bad.status == 400)
        #expect(bad.json["field"] as? String == "events[0].value")
        let now = "2024-01-21T22:00:00Z"
        let before = try await service.request("GET", "/v1/devices/phone/next-wake?now=\(now)", key: service.acme)
        #expect(before.status == 200)
        let on = try await service.post([
            ["timestamp": "2024-01-21T21:00:00Z", "event": "battery", "value": 15],
            ["timestamp": "2024-01-21T21:00:00Z", "event": "network", "value": "metered"],
            ["timestamp": "2024-01-21T21:30:00Z", "event": "lowPowerOn"],
        ])
        #expect(on.status == 200 && on.json["stored"] as? Int == 3)
        let held = try await service.request("GET", "/v1/devices/phone/next-wake?now=\(now)", key: service.acme)
        #expect(held.status == 204)
        #expect(held.headers["fetchpredictor-no-wake"] == "low-power-mode; since=2024-01-21T21:30:00Z")
        let schedule = try await service.request(
            "GET", "/v1/devices/phone/schedule?from=\(now)", key: service.acme)
        #expect((schedule.json["wakes"] as? [Any])?.isEmpty == true)
        #expect((schedule.json["lowPowerMode"] as? [String: Any])?["since"] as? String == "2024-01-21T21:30:00Z")
        let feed = try await service.request(
            "GET", "/v1/wakes?now=\(now)&before=2024-01-23T00:00:00Z", key: service.acme)
        #expect(feed.status == 200 && (feed.json["wakes"] as? [Any])?.isEmpty == true, "\(feed.text)")
        _ = try await service.post([["timestamp": "2024-01-21T21:50:00Z", "event": "lowPowerOff"]])
        let back = try await service.request("GET", "/v1/devices/phone/next-wake?now=\(now)", key: service.acme)
        #expect(back.status == 200)
        #expect(back.json["wake"] as? [String: Any] != nil)
        #expect(
            (back.json["wake"] as? [String: Any])?["time"] as? String
                == (before.json["wake"] as? [String: Any])?["time"] as? String)
        await service.stop()
    }

    /// A forecaster set over HTTP plans the device: the answer names it and whose it is, the
    /// schedule moves, a bad name is a 400 naming the field, and null returns it to the service's.
    @Test func aDevicesForecasterIsSetOverHTTP() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        func schedule() async throws -> String {
            try await service.request(
                "GET", "/v1/devices/phone/schedule?from=2024-01-22T00:00:00Z&hours=24", key: service.acme
            ).text
        }
        let got = try await service.request("GET", "/v1/devices/phone", key: service.acme)
        #expect(got.json["forecaster"] as? String == "hazard" && got.json["forecasterFrom"] as? String == "service")
        let before = try await schedule()
        let put = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme, body: Data(#"{"forecaster": "daily"}"#.utf8))
        #expect(put.status == 200, "\(put.text)")
        #expect(put.json["forecaster"] as? String == "daily" && put.json["forecasterFrom"] as? String == "device")
        #expect(try await schedule() != before)
        for bad in [#"{"forecaster": "cubic"}"#, #"{"forecaster": 1}"#, #"{"forecaster": "trees=/etc/passwd"}"#] {
            let refused = try await service.request("PUT", "/v1/devices/phone", key: service.acme, body: Data(bad.utf8))
            #expect(refused.status == 400 && refused.json["field"] as? String == "forecaster", "\(bad)")
        }
        let cleared = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme, body: Data(#"{"forecaster": null}"#.utf8))
        #expect(
            cleared.json["forecaster"] as? String == "hazard" && cleared.json["forecasterFrom"] as? String == "service")
        #expect(try await schedule() == before)
    }

    /// A push budget set over HTTP bounds the device's plans: no hour of its schedule holds more
    /// wakes, and its next wake is its budgeted plan's first; a bad value is a 400 naming the field.
    @Test func aPushBudgetBoundsTheDevicesPlans() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        func busiestHour() async throws -> Int {
            let schedule = try await service.request(
                "GET", "/v1/devices/phone/schedule?from=2024-01-22T00:00:00Z&hours=48", key: service.acme)
            let times = (schedule.json["wakes"] as? [[String: Any]] ?? []).compactMap {
                ($0["time"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
            }
            return times.map { start in times.filter { $0 >= start && $0 < start.addingTimeInterval(3600) }.count }
                .max() ?? 0
        }
        #expect(try await busiestHour() > 1, "a budget that holds nothing back tests nothing")
        let put = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme, body: Data(#"{"wakesPerHour": 1}"#.utf8))
        #expect(put.status == 200 && put.json["wakesPerHour"] as? Int == 1, "\(put.text)")
        #expect(try await busiestHour() == 1)
        let got = try await service.request("GET", "/v1/devices/phone", key: service.acme)
        #expect(got.json["wakesPerHour"] as? Int == 1 && got.json["wakesPerHourFrom"] as? String == "device")
        for bad in [
            #"{"wakesPerHour": 0}"#, #"{"wakesPerHour": 1.5}"#, #"{"wakesPerHour": "2"}"#, #"{"wakesPerHour": 61}"#,
        ] {
            let refused = try await service.request("PUT", "/v1/devices/phone", key: service.acme, body: Data(bad.utf8))
            #expect(refused.status == 400 && refused.json["field"] as? String == "wakesPerHour", "\(bad)")
        }
        let cleared = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme, body: Data(#"{"wakesPerHour": null}"#.utf8))
        #expect(cleared.status == 200 && cleared.json["wakesPerHour"] is NSNull, "\(cleared.text)")
        #expect(cleared.json["wakesPerHourFrom"] as? String == "none")
        #expect(try await busiestHour() > 1)
        // A budget the device inherits is shown as the one it is planned with, and whose it is
        // (issue 56: it was left out, and the Python client printed an Unset object).
        _ = try await service.request(
            "PUT", "/v1/settings", key: service.acme, body: Data(#"{"wakesPerHour": 2}"#.utf8))
        let inherited = try await service.request("GET", "/v1/devices/phone", key: service.acme)
        #expect(inherited.json["wakesPerHour"] as? Int == 2, "\(inherited.text)")
        #expect(inherited.json["wakesPerHourFrom"] as? String == "tenant", "\(inherited.text)")
        #expect(try await busiestHour() <= 2)
        _ = try await service.request(
            "PUT", "/v1/settings", key: service.acme, body: Data(#"{"wakesPerHour": null}"#.utf8))
        await service.stop()
    }

    /// A tenant lists its own devices page by page, never another's (also through a cursor of
    /// another tenant), and erases one: then nothing of it answers, and other devices are as they were.
    @Test func aTenantListsAndErasesItsDevices() async throws {
        let service = try await LiveService()
        for device in ["watch", "phone", "tablet"] { try await service.setUpPhone(device: device) }
        try await service.setUpPhone(device: "phone2", key: service.other)
        _ = try await service.post(LiveService.weeksOfLaunches())
        _ = try await service.post(LiveService.weeksOfLaunches(), device: "tablet")
        let pages = try await service.pages("/v1/devices?limit=2", key: service.acme, atMost: 5)
        let listed = pages.flatMap { $0["devices"] as? [String] ?? [] }
        #expect(listed == ["phone", "tablet", "watch"])
        #expect(pages.count == 2)
        let first = try await service.request("GET", "/v1/devices?limit=1", key: service.acme)
        let acmeCursor = try #require(first.json["cursor"] as? String)
        let others = try await service.request("GET", "/v1/devices?cursor=\(acmeCursor)", key: service.other)
        #expect(others.status == 400 && others.json["field"] as? String == "cursor", "a cursor is its tenant's alone")
        #expect(
            try await service.request("GET", "/v1/devices", key: service.other).json["devices"] as? [String] == [
                "phone2"
            ])
        for query in ["cursor=%2F%2F", "limit=0", "limit=1001", "limit=x"] {
            let bad = try await service.request("GET", "/v1/devices?\(query)", key: service.acme)
            #expect(bad.status == 400, "\(query)")
            #expect(bad.json["field"] as? String == String(query.prefix { $0 != "=" }), "\(query): \(bad.text)")
        }
        #expect(try await service.request("GET", "/v1/devices").status == 401)

        // Erased: its events, settings and model, and the device itself.
        let before = try await service.request(
            "GET", "/v1/devices/tablet/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        let erased = try await service.request("DELETE", "/v1/devices/phone", key: service.acme)
        #expect(erased.status == 200, "\(erased.text)")
        #expect((erased.json["erased"] as? [String: Any])?["launches"] as? Int == 63)
        #expect(try !service.store.hasDevice("acme/phone"))
        await #expect(try service.store.events(device: "acme/phone").isEmpty)
        for path in ["", "/next-wake", "/schedule", "/apps"] {
            let gone = try await service.request("GET", "/v1/devices/phone\(path)", key: service.acme)
            #expect(gone.status == 404, "\(path)")
        }
        #expect(try await service.request("DELETE", "/v1/devices/phone", key: service.acme).status == 404)
        // Another tenant cannot erase it, nor its own of another name.
        #expect(try await service.request("DELETE", "/v1/devices/tablet", key: service.other).status == 404)
        let after = try await service.request(
            "GET", "/v1/devices/tablet/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        #expect(after.status == before.status && after.text == before.text)
        let left = try await service.request("GET", "/v1/devices", key: service.acme)
        #expect(left.json["devices"] as? [String] == ["tablet", "watch"])
        #expect(left.json["cursor"] == nil)
        await service.stop()
    }

    @Test func aWriteIsInTheNextAnswer() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        let path = "/v1/devices/phone/apps?now=2024-02-01T00:00:00Z"
        let before = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        // A new app, launched at 03:00 for two weeks, is learned at once.
        var more: [[String: Any]] = []
        for day in 0..<14 {
            more.append(["timestamp": 1_704_078_000 + day * 86_400, "app": "com.example.night", "event": "launch"])
        }
        #expect(try await service.post(more).status == 200)
        let after = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        #expect(before.text != after.text)
        let date = ISO8601DateFormatter().date(from: "2024-01-22T00:00:00Z")!
        let fresh = try await #require(
            try FetchScheduler(store: service.store).nextWake(after: date, device: "acme/phone"))
        let wake = after.json["wake"] as? [String: Any]
        #expect(wake?["time"] as? String == TimestampFormatter.iso(fresh.time.milliseconds))
        // And a write by another process (the command line, say) is seen too.
        let elsewhere = try EventStore(path: service.store.path)
        try await elsewhere.record(.launch("com.example.late", at: 1_705_800_000_000), device: "acme/phone")
        let apps = try await service.request("GET", path, key: service.acme)
        #expect(apps.text.contains("com.example.late"))
        let seen = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-01-22T00:00:00Z", key: service.acme)
        let relearned = try await #require(
            try FetchScheduler(store: service.store).nextWake(after: date, device: "acme/phone"))
        #expect(
            (seen.json["wake"] as? [String: Any])?["time"] as? String
                == TimestampFormatter.iso(relearned.time.milliseconds))
        await service.stop()
    }

    /// With no cache of keys (`keyCheckInterval` zero), a key revoked is refused at once;
    /// KeyCacheTests has the cache's interval.
    @Test func keysAreNeededAndRevokedAtOnce() async throws {
        var settings = ServiceSettings()
        settings.keyCheckInterval = .zero
        let service = try await LiveService(settings: settings)
        let path = "/v1/devices/phone/apps"
        #expect(try await service.request("GET", path).status == 401)
        #expect(try await service.request("GET", path, key: "fpk_wrong").status == 401)
        #expect(try await service.request("GET", path, headers: ["Authorization": "Basic eDp5"]).status == 401)
        try await service.setUpPhone()
        #expect(try await service.request("GET", path, key: service.acme).status == 200)
        let id = try #require(try await service.store.keys().first { $0.tenant == "acme" }?.id)
        try await service.store.revokeKey(id: id, now: Date())
        let revoked = try await service.request("GET", path, key: service.acme)
        #expect(revoked.status == 401)
        #expect(revoked.headers["www-authenticate"] == "Bearer")
        // Health, metrics and the document need no key.
        #expect(try await service.request("GET", "/healthz").status == 200)
        #expect(try await service.request("GET", "/readyz").status == 200)
        #expect(try await service.request("GET", "/metrics").status == 200)
        #expect(try await service.request("GET", "/openapi.yaml").status == 200)
        await service.stop()
    }

    @Test func aTenantNeverSeesAnothersDevice() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        let routes = [
            "/v1/devices/phone", "/v1/devices/phone/apps", "/v1/devices/phone/next-wake",
            "/v1/devices/phone/schedule", "/v1/devices/phone/apps/com.example.news/habits",
        ]
        for route in routes {
            let theirs = try await service.request("GET", route, key: service.other)
            let nobodys = try await service.request(
                "GET", route.replacingOccurrences(of: "phone", with: "tablet"), key: service.other)
            #expect(theirs.status == 404, "\(route)")
            #expect(theirs.text == nobodys.text.replacingOccurrences(of: "tablet", with: "phone"), "\(route)")
        }
        // Writing to "phone" with the other key makes the other tenant's own phone.
        let written = try await service.post(LiveService.weeksOfLaunches(days: 1), key: service.other)
        #expect(written.status == 200)
        await #expect(try service.store.devices().sorted() == ["acme/phone", "other/phone"])
        await #expect(
            try service.store.apps(device: "acme/phone").first { $0.app == "com.example.news" }?.launches == 42)
        await service.stop()
    }

    @Test(arguments: [
        ("/v1/devices/..%2Fother%2Fphone/apps", "device"),
        ("/v1/devices/a%2Fb/apps", "device"),
        ("/v1/devices/..%5Cx/apps", "device"),
        ("/v1/devices/x%01y/apps", "device"),
        ("/v1/devices/%FF/apps", "device"),
        // A '/' with a combining mark is one character but holds a '/'; a decomposed 'é' is
        // equal to the composed one in Swift, not in the store.
        ("/v1/devices/x%2F%CC%B8y/apps", "device"),
        ("/v1/devices/caf%65%CC%81/apps", "device"),
    ])
    func pathTricksAreRefused(path: String, field: String) async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let answer = try await service.request("GET", path, key: service.acme)
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.json["field"] as? String == field)
        await service.stop()
    }

    @Test func badBodiesGetA4xxAndChangeNothing() async throws {
        var settings = ServiceSettings()
        settings.maximumBodyBytes = 4096
        settings.maximumBatchEvents = 20
        let service = try await LiveService(settings: settings)
        let post = { (body: String) in
            try await service.request("POST", "/v1/devices/phone/events", key: service.acme, body: Data(body.utf8))
        }
        let cases: [(String, Int, String?)] = [
            (#"{"events": [{"timestamp": "2024-01-01T07:00:00Z", "app": "a", "event": "launch"}"#, 400, nil),
            (#"[1, 2]"#, 400, nil),
            (#"{"events": 3}"#, 400, "events"),
            (#"{"events": [], "device": "x"}"#, 400, "device"),
            (
                #"{"events": [{"timestamp": "2024-01-01T07:00:00Z", "app": "a", "event": "lunch"}]}"#, 400,
                "events[0].event"
            ),
            (#"{"events": [{"timestamp": "yesterday", "app": "a", "event": "launch"}]}"#, 400, "events[0].timestamp"),
            (
                #"{"events": [{"timestamp": "2024-01-01T07:00:00", "app": "a", "event": "launch"}]}"#, 400,
                "events[0].timestamp"
            ),
            (#"{"events": [{"timestamp": 1e300, "app": "a", "event": "launch"}]}"#, 400, "events[0].timestamp"),
            (
                #"{"events": [{"timestamp": 1704092400, "app": "a", "event": "fetch", "result": "newData", "duration": -2}]}"#,
                400, "events[0].duration"
            ),
            (
                #"{"events": [{"timestamp": 1704092400, "app": "a", "event": "fetch", "result": "maybe"}]}"#, 400,
                "events[0].result"
            ),
            (#"{"events": [{"timestamp": 1704092400, "app": "a\u0001", "event": "launch"}]}"#, 400, "events[0].app"),
            (
                #"{"events": [{"timestamp": 1704092400, "app": "a", "event": "launch", "device": "b"}]}"#, 400,
                "events[0].device"
            ),
            (
                "{\"events\": ["
                    + Array(repeating: #"{"timestamp": 1704092400, "app": "a", "event": "launch"}"#, count: 21)
                    .joined(separator: ",") + "]}", 413, "events"
            ),
            (
                #"{"events": [{"timestamp": 1704092400, "app": ""# + String(repeating: "x", count: 5000)
                    + #"", "event": "launch"}]}"#, 413, nil
            ),
        ]
        for (body, status, field) in cases {
            let answer = try await post(body)
            #expect(answer.status == status, "\(body.prefix(80)): \(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(body.prefix(80)): \(answer.text)")
            #expect(answer.json["error"] is String, "\(body.prefix(80))")
            #expect(!answer.text.contains(service.folder.path))
            // A body over the limit is told the limit (issue 56).
            if status == 413, field == nil {
                #expect((answer.json["error"] as? String)?.contains("4096 bytes") == true, "\(answer.text)")
            }
        }
        let misspelled = try await post(#"{"evnts": []}"#)
        #expect(misspelled.json["error"] as? String == "unknown field 'evnts': the body holds only 'events'")
        #expect(try service.store.eventCounts().launches == 0)
        await #expect(try service.store.devices().isEmpty)
        // Settings are checked as the config command checks them.
        let settingsCases: [(String, String, String)] = [
            ("/v1/devices/phone", #"{"timeZone": "Mars/Olympus"}"#, "timeZone"),
            ("/v1/devices/phone", #"{"timeZone": "IST"}"#, "timeZone"),
            ("/v1/devices/phone", #"{"timeZone": "GMT+1"}"#, "timeZone"),
            ("/v1/devices/phone", #"{"defaultInterval": -5}"#, "defaultInterval"),
            ("/v1/devices/phone", #"{"defaultInterval": "sometimes"}"#, "defaultInterval"),
            ("/v1/devices/phone", #"{"colour": "red"}"#, "colour"),
            ("/v1/devices/phone/apps/a", #"{"enabled": "yes"}"#, "enabled"),
            ("/v1/devices/phone/apps/a", #"{"interval": 1.5}"#, "interval"),
            // Intervals as the document writes them, no more: no case, sign, leading zero or space,
            // none empty, none over 30 days.
            ("/v1/devices/phone", #"{"defaultInterval": ""}"#, "defaultInterval"),
            ("/v1/devices/phone", #"{"defaultInterval": "MINIMUM"}"#, "defaultInterval"),
            ("/v1/devices/phone/apps/a", #"{"interval": "0060"}"#, "interval"),
            ("/v1/devices/phone/apps/a", #"{"interval": " 60"}"#, "interval"),
            ("/v1/devices/phone/apps/a", #"{"interval": "+60"}"#, "interval"),
            ("/v1/devices/phone/apps/a", #"{"interval": 2592001}"#, "interval"),
            ("/v1/devices/phone/apps/a", #"{"interval": "2592001"}"#, "interval"),
            ("/v1/devices/phone/apps/a", #"{"requiresPower": 1}"#, "requiresPower"),
            ("/v1/devices/phone/apps/a", #"{"requiresUnmetered": null}"#, "requiresUnmetered"),
        ]
        for (path, body, field) in settingsCases {
            let answer = try await service.request("PUT", path, key: service.acme, body: Data(body.utf8))
            #expect(answer.status == 400, "\(body): \(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(body): \(answer.text)")
        }
        await #expect(try service.store.devices().isEmpty)
        // A zone's error names what it likely meant, and echoes a long value only in part.
        let abbreviation = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme, body: Data(#"{"timeZone": "BST"}"#.utf8))
        #expect((abbreviation.json["error"] as? String)?.contains("Europe/London or Asia/Dhaka") == true)
        let huge = try await service.request(
            "PUT", "/v1/devices/phone", key: service.acme,
            body: Data(#"{"timeZone": "\#(String(repeating: "x", count: 3_000))"}"#.utf8))
        #expect(huge.status == 400, "\(huge.status) \(huge.text.prefix(300))")
        #expect(huge.body.count < 500, "\(huge.body.count) bytes")
        // Queries check their parameters.
        try await service.setUpPhone()
        for (query, field) in [
            ("next-wake?now=tomorrow", "now"), ("next-wake?now=2024-01-01T00:00:00", "now"),
            ("next-wake?now=2024-01-02T00:00:00Z&before=2024-01-01T00:00:00Z", "before"),
            ("schedule?hours=0", "hours"), ("schedule?hours=1000", "hours"), ("schedule?from=1e300", "from"),
        ] {
            let answer = try await service.request("GET", "/v1/devices/phone/\(query)", key: service.acme)
            #expect(answer.status == 400, "\(query): \(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(query): \(answer.text)")
        }
        await service.stop()
    }

    @Test func aDeviceWithoutAZoneIsAConflictThatSaysWhatToDo() async throws {
        let service = try await LiveService()
        _ = try await service.post(LiveService.weeksOfLaunches(days: 3))
        let answer = try await service.request(
            "GET", "/v1/devices/phone/next-wake?now=2024-01-05T00:00:00Z", key: service.acme)
        #expect(answer.status == 409)
        #expect(answer.json["field"] as? String == "timeZone")
        #expect((answer.json["error"] as? String)?.contains("PUT /v1/devices/{device}") == true)
        await service.stop()
    }

    @Test func scheduleComesAsJSONCalendarOrCSV() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        _ = try await service.post(LiveService.weeksOfLaunches())
        let path = "/v1/devices/phone/schedule?from=2024-01-22T00:00:00Z&hours=24"
        let json = try await service.request("GET", path, key: service.acme)
        let wakes = try #require(json.json["wakes"] as? [[String: Any]])
        let date = ISO8601DateFormatter().date(from: "2024-01-22T00:00:00Z")!
        let library = try await FetchScheduler(store: service.store).schedule(
            from: date, to: date.addingTimeInterval(86_400), device: "acme/phone")
        #expect(wakes.count == library.wakes.count)
        #expect(
            wakes.compactMap { $0["time"] as? String }
                == library.wakes.map { TimestampFormatter.iso($0.time.milliseconds) })
        let ics = try await service.request("GET", path, key: service.acme, headers: ["Accept": "text/calendar"])
        #expect(ics.headers["content-type"]?.hasPrefix("text/calendar") == true)
        #expect(ics.text.hasPrefix("BEGIN:VCALENDAR"))
        #expect(ics.text.components(separatedBy: "BEGIN:VEVENT").count - 1 == library.wakes.count)
        let csv = try await service.request("GET", path, key: service.acme, headers: ["Accept": "text/csv"])
        #expect(csv.text.hasPrefix("time,device,app,planned,expected_launches,reasons"))
        #expect(csv.text.split(separator: "\n").count - 1 == library.appWakeCount)
        await service.stop()
    }

    @Test func modelsInMemoryAreBoundedAndStayTrue() async throws {
        var settings = ServiceSettings()
        settings.maximumLoadedDevices = 2
        let service = try await LiveService(settings: settings)
        let devices = ["a", "b", "c", "d"]
        for device in devices {
            try await service.setUpPhone(device: device)
            _ = try await service.post(LiveService.weeksOfLaunches(days: 14), device: device)
        }
        let date = ISO8601DateFormatter().date(from: "2024-01-15T00:00:00Z")!
        for _ in 0..<2 {
            for device in devices {
                let answer = try await service.request(
                    "GET", "/v1/devices/\(device)/next-wake?now=2024-01-15T00:00:00Z", key: service.acme)
                let fresh = try await #require(
                    try FetchScheduler(store: service.store).nextWake(after: date, device: "acme/\(device)"))
                #expect(
                    (answer.json["wake"] as? [String: Any])?["time"] as? String
                        == TimestampFormatter.iso(fresh.time.milliseconds))
            }
        }
        let metrics = try await service.request("GET", "/metrics")
        let loaded = metrics.text.split(separator: "\n").first { $0.hasPrefix("fetchpredict_models_loaded ") }
        #expect(
            loaded.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 <= 2 } == true,
            "\(String(describing: loaded))")
        await service.stop()
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        let service = try await LiveService()
        _ = try await service.request("GET", "/v1/devices/phone/apps", key: service.acme)
        _ = try await service.post(LiveService.weeksOfLaunches(days: 1))
        let metrics = try await service.request("GET", "/metrics")
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(
            metrics.text.contains(
                #"fetchpredict_http_requests_total{route="/v1/devices/{device}/apps",method="GET",status="404"}"#))
        #expect(
            metrics.text.contains(
                #"fetchpredict_http_request_duration_seconds_bucket{route="/v1/devices/{device}/events",method="POST",status="200""#
            ))
        #expect(metrics.text.contains("fetchpredict_events_stored_total"))
        // The store's calls by name: the key looked up, the batch recorded.
        let calls = metrics.text.split(separator: "\n").filter { $0.hasPrefix("fetchpredict_store_calls_total{") }
        for call in ["tenant", "record"] {
            #expect(calls.contains { $0.contains(#"call="\#(call)""#) }, "\(call) in \(calls)")
        }
        await service.stop()
    }

    /// The document the service serves is the file, and its routes are the service's, each
    /// method of each path, no more, no less; every route is registered (neither 404 nor 405).
    @Test func theDocumentNamesEveryRouteAndNoOther() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let document = try await service.request("GET", "/openapi.yaml")
        #expect(document.text.hasPrefix("openapi: 3.1"))
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FetchPredictorService/openapi.yaml")
        #expect(document.text == (try String(contentsOf: file, encoding: .utf8)))
        // The paths are the keys two spaces in under 'paths:', their methods four spaces in.
        var documented = Set<String>()
        var path: String?
        var inPaths = false
        for line in document.text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.isEmpty, !line.hasPrefix(" ") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch", "head", "options"].contains(String(key)) {
                    documented.insert("\(key.uppercased()) \(path)")
                }
            }
        }
        let served = Set(Routes.all.map { "\($0.method.rawValue) \($0.path)" })
        #expect(
            documented == served,
            "documented only: \(documented.subtracting(served)), served only: \(served.subtracting(documented))")
        #expect(served.count == 19)
        for route in Routes.all {
            let path = route.path.replacingOccurrences(of: "{device}", with: "phone")
                .replacingOccurrences(of: "{app}", with: "com.example.news")
            let answer = try await service.request(
                route.method.rawValue, path, key: service.acme, body: route.method == .get ? nil : Data("{}".utf8))
            // A 404 of a thing (a device, an app) names its field; the router's own names none.
            let unrouted = answer.status == 404 && answer.json["field"] == nil
            #expect(!unrouted && answer.status != 405, "\(route.method) \(path): \(answer.text)")
        }
        await service.stop()
    }

    @Test func aHalfSentRequestIsClosedAfterTheReadTimeout() async throws {
        var settings = ServiceSettings()
        settings.readTimeout = .seconds(1)
        let service = try await LiveService(settings: settings)
        // Given a connection that sends the head of a request and a part of its body, then nothing
        let socket = try RawConnection(port: service.port)
        try socket.send("POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ev")
        // Then the service closes it, rather than wait for ever
        let started = Date()
        let closed = await socket.closed(within: 10)
        #expect(closed, "open after \(Date().timeIntervalSince(started)) s")
        #expect(Date().timeIntervalSince(started) < 5)
        socket.close()
        // And it still serves others
        #expect(try await service.request("GET", "/healthz").status == 200)
        await service.stop()
    }

    @Test func aBatchOfTenThousandEventsIsTaken() async throws {
        let service = try await LiveService()
        let events: [[String: Any]] = (0..<10_000).map {
            ["timestamp": 1_704_067_200 + $0 * 61, "app": "com.example.app\($0 % 40)", "event": "launch"]
        }
        let answer = try await service.post(events)
        #expect(answer.status == 200, "\(answer.text.prefix(200))")
        #expect(answer.json["stored"] as? Int == 10_000)
        #expect(try service.store.eventCounts().launches == 10_000)
        await service.stop()
    }

    @Test func aBodySentAByteAtATimeIsCutOff() async throws {
        var settings = ServiceSettings()
        settings.readTimeout = .seconds(1)
        let service = try await LiveService(settings: settings)
        let socket = try RawConnection(port: service.port)
        defer { socket.close() }
        try socket.send(
            "POST /v1/devices/phone/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(service.acme)\r\n"
                + "Content-Length: 100\r\n\r\n")
        // One byte every 300 ms keeps the connection busy, but the body never arrives whole.
        let started = Date()
        for byte in "{\"events\": [".map(String.init) {
            try? socket.send(byte)
            try await Task.sleep(for: .milliseconds(300))
            if Date().timeIntervalSince(started) > 3 { break }
        }
        let answer = await socket.received(within: 5)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
        await #expect(try service.store.devices().isEmpty)
        await service.stop()
    }

    @Test func aSettingsBodyWithNothingChangesNothing() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let app = "/v1/devices/phone/apps/com.example.news"
        let off = try await service.request("PUT", app, key: service.acme, body: Data(#"{"enabled": false}"#.utf8))
        #expect(off.json["enabled"] as? Bool == false)
        let nothing = try await service.request("PUT", app, key: service.acme, body: Data("{}".utf8))
        #expect(nothing.status == 200)
        #expect(nothing.json["enabled"] as? Bool == false)
        #expect(try service.store.settings(app: "com.example.news", device: "acme/phone").enabled == false)
        await service.stop()
    }

    /// The app route sets an app's constraints with its other settings, in one change, and keeps
    /// what a body leaves out.
    @Test func anAppsConstraintsAreSetByItsRoute() async throws {
        let service = try await LiveService()
        try await service.setUpPhone()
        let app = "/v1/devices/phone/apps/com.example.news"
        let set = try await service.request(
            "PUT", app, key: service.acme,
            body: Data(#"{"requiresPower": true, "requiresBatteryNotLow": true, "interval": 3600}"#.utf8))
        #expect(set.status == 200)
        #expect(set.json["requiresPower"] as? Bool == true && set.json["requiresUnmetered"] as? Bool == false)
        #expect(set.json["requiresBatteryNotLow"] as? Bool == true && set.json["interval"] as? String == "3600")
        let lifted = try await service.request(
            "PUT", app, key: service.acme, body: Data(#"{"requiresBatteryNotLow": false}"#.utf8))
        #expect(lifted.json["requiresPower"] as? Bool == true && lifted.json["requiresBatteryNotLow"] as? Bool == false)
        #expect(
            try service.store.settings(app: "com.example.news", device: "acme/phone").constraints
                == AppConstraints(requiresPower: true))
        await service.stop()
    }

    @Test func aMethodARouteDoesNotHaveIs405() async throws {
        let service = try await LiveService()
        let health = try await service.request("DELETE", "/healthz")
        #expect(health.status == 405)
        #expect(health.headers["allow"] == "GET")
        let events = try await service.request("GET", "/v1/devices/phone/events", key: service.acme)
        #expect(events.status == 405)
        #expect(events.headers["allow"] == "POST")
        let nothing = try await service.request("GET", "/v1/nothing", key: service.acme)
        #expect(nothing.status == 404)
        #expect(nothing.json["error"] as? String == "there is no such route: the service's routes are in /openapi.yaml")
        await service.stop()
    }
}
