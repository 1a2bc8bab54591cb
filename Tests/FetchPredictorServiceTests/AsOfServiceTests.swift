import FetchPredictor
import FetchPredictorTestSupport
import Foundation
import Testing

/// Over HTTP, an answer as of an instant is a function of the events before it alone: a device
/// that holds every event and one that holds only those before the instant answer alike.
@Suite(.serialized)
struct AsOfServiceTests {
    /// The issue's person: four weeks in Europe/Berlin across a DST change, a habit across
    /// midnight, a `never` app, an app used every 15-30 minutes, and a launch at the instant.
    static let instant = "2024-04-08T07:00:00Z"

    /// The fixture's events as the service takes them; those before `cut` when one is given.
    static func events(before cut: Date? = nil) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: TestFiles.fixture("as-of-berlin-28d.csv"), encoding: .utf8)
        let parser = ISO8601DateFormatter()
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard let time = parser.date(from: fields[0]) else { return nil }
            if let cut, time >= cut { return nil }
            return ["timestamp": fields[0], "app": fields[1], "event": fields[2]]
        }
    }

    @Test func nextWakeAndScheduleAsOfAnInstantReadNothingAfterIt() async throws {
        let service = try await LiveService()
        let cut = try #require(ISO8601DateFormatter().date(from: Self.instant))
        let all = try Self.events()
        let before = try Self.events(before: cut)
        #expect(before.count < all.count - 100, "the later events are many")
        for (device, events) in [("full", all), ("cut", before)] {
            let zone = try await service.request(
                "PUT", "/v1/devices/\(device)", key: service.acme, body: Data(#"{"timeZone":"Europe/Berlin"}"#.utf8))
            #expect(zone.status == 200, "\(zone.text)")
            let interval = try await service.request(
                "PUT", "/v1/devices/\(device)/apps/com.hidden.news", key: service.acme,
                body: Data(#"{"interval":"minimum"}"#.utf8))
            #expect(interval.status == 200, "\(interval.text)")
            #expect(try await service.post(events, device: device).status == 200)
        }
        // The device with every event is asked as of its end first, so that its model is learned
        // from (and cached with) the later events before it is asked as of the instant.
        let late = try await service.request(
            "GET", "/v1/devices/full/next-wake?now=2024-04-14T20:00:00Z", key: service.acme)
        #expect(late.status == 200 || late.status == 204)

        func answers(_ device: String) async throws -> [String] {
            var texts: [String] = []
            for path in ["next-wake?now=\(Self.instant)", "schedule?from=\(Self.instant)&hours=48"] {
                let answer = try await service.request("GET", "/v1/devices/\(device)/\(path)", key: service.acme)
                #expect(answer.status == 200, "\(device) \(path): \(answer.text)")
                texts.append(answer.text.replacingOccurrences(of: "\"\(device)\"", with: "\"DEVICE\""))
            }
            return texts
        }
        let full = try await answers("full")
        let cutAnswers = try await answers("cut")
        #expect(full == cutAnswers)
        #expect(full.last?.contains("expectedLaunches") == true, "the schedule plans wakes: \(full.last ?? "")")
        await service.stop()
    }
}
