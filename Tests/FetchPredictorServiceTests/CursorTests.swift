import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor
@testable import FetchPredictorService

/// A cursor is one the service gave, to this key's tenant, unedited: any other is a client's
/// error (400, naming `cursor`), never a store outage, and never read at another place.
@Suite(.serialized)
struct CursorTests {
    /// base64url of bytes, as a client forging a cursor would write it.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func aCursorNotGivenIsRefusedNotRead() async throws {
        let service = try await LiveService()
        for device in ["alpha", "bravo", "charlie"] { try await service.setUpPhone(device: device) }
        let first = try await service.request("GET", "/v1/devices?limit=1", key: service.acme)
        let cursor = try #require(first.json["cursor"] as? String)
        let next = try await service.request("GET", "/v1/devices?limit=1&cursor=\(cursor)", key: service.acme)
        #expect(next.status == 200 && next.json["devices"] as? [String] == ["bravo"])
        let parts = cursor.split(separator: ".").map(String.init)
        #expect(parts.count == 2)
        // The place moved by hand (the old, unsigned form of a cursor, and one with the old
        // signature), a NUL byte, another tenant's key, and bytes that are no cursor.
        let forged = [
            Self.base64URL(Array("bravo".utf8)),
            Self.base64URL(Array("devices\nacme\nbravo".utf8)) + "." + parts[1],
            Self.base64URL(Array("devices\nacme\nal\u{0}pha".utf8)) + "." + parts[1],
            Self.base64URL([0]), "%00", parts[0] + ".", "." + parts[1], cursor + "A",
        ]
        let outages = try await outageCount(service)
        for bad in forged {
            let answer = try await service.request("GET", "/v1/devices?cursor=\(bad)", key: service.acme)
            #expect(answer.status == 400, "\(bad): \(answer.text)")
            #expect(answer.json["field"] as? String == "cursor", "\(bad)")
            let feed = try await service.request(
                "GET", "/v1/wakes?before=2024-01-23T00:00:00Z&now=2024-01-22T00:00:00Z&cursor=\(bad)",
                key: service.acme)
            #expect(feed.status == 400 && feed.json["field"] as? String == "cursor", "\(bad): \(feed.text)")
        }
        let theirs = try await service.request("GET", "/v1/devices?cursor=\(cursor)", key: service.other)
        #expect(theirs.status == 400 && theirs.json["field"] as? String == "cursor")
        #expect(try await outageCount(service) == outages, "a client's cursor counted as a store outage")
        await service.stop()
    }

    /// Two services on one store sign alike: a cursor one gave, the other reads.
    @Test func everyServiceOnAStoreReadsTheOthersCursors() async throws {
        let one = try await LiveService()
        for device in ["alpha", "bravo"] { try await one.setUpPhone(device: device) }
        let first = try await one.request("GET", "/v1/devices?limit=1", key: one.acme)
        let cursor = try #require(first.json["cursor"] as? String)
        let seal = CursorSeal(store: one.store)
        #expect(try await seal.device(cursor, tenant: "acme") == "alpha")
        #expect(try await seal.device(cursor, tenant: "other") == nil)
        await one.stop()
    }

    func outageCount(_ service: LiveService) async throws -> Double {
        let metrics = try await service.request("GET", "/metrics").text
        return metrics.split(separator: "\n").filter { $0.hasPrefix("fetchpredict_store_outages_total") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }
}
