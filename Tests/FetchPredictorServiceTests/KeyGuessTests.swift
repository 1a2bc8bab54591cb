import Foundation
import Logging
import NIOCore
import Testing

@testable import FetchPredictorService

/// Wrong keys meet a limit (issue 55, point 7): a client that keeps guessing is answered 429
/// before its key is looked up, at the limit's pace however fast it sends.
struct KeyGuessTests {
    @Test func aClientThatKeepsGuessingIsAnswered429UntilItSlows() async throws {
        // Given a service that allows 5 wrong keys a minute from one address
        var settings = ServiceSettings()
        settings.keyFailuresPerMinute = 5
        let service = try await LiveService(settings: settings)
        try await service.setUpPhone()
        let path = "/v1/devices/phone/apps"
        // When one address sends 5 wrong keys, they are each 401; a request with no key guesses
        // nothing and is not counted
        for guess in 0..<5 {
            #expect(try await service.request("GET", path, key: "fpk_guess\(guess)").status == 401)
        }
        #expect(try await service.request("GET", path).status == 401)
        // Then the sixth, and even the right key from that address, is 429 with Retry-After,
        // not looked up
        let limited = try await service.request("GET", path, key: "fpk_guess5")
        #expect(limited.status == 429, "\(limited.text)")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(limited.json["error"] as? String != nil)
        #expect(try await service.request("GET", path, key: service.acme).status == 429)
        // And the wrong keys and the refusals are counted
        let metrics = try await service.request("GET", "/metrics").text
        #expect(metrics.contains("fetchpredict_key_failures_total"))
        #expect(metrics.contains("fetchpredict_key_failures_limited_total"))
        await service.stop()
    }

    @Test func aBucketRefillsAtTheLimitsPace() {
        let limit = KeyGuessLimit(perMinute: 6, logger: Logger(label: "test"))
        let start = ContinuousClock.now
        for second in 0..<6 { limit.failed("10.0.0.1", at: start + .milliseconds(second)) }
        // Six wrong keys at once spend the bucket: the address waits 10 s for one more guess
        let wait = try! #require(limit.wait(for: "10.0.0.1", at: start + .milliseconds(10)))
        #expect(wait > .seconds(9.9) && wait <= .seconds(10))
        // Another address is not slowed by it
        #expect(limit.wait(for: "10.0.0.2", at: start) == nil)
        // After 10 s one guess is back; one more wrong key spends it again
        #expect(limit.wait(for: "10.0.0.1", at: start + .seconds(10.1)) == nil)
        limit.failed("10.0.0.1", at: start + .seconds(10.1))
        #expect(limit.wait(for: "10.0.0.1", at: start + .seconds(10.2)) != nil)
        // With no limit, nothing waits
        let none = KeyGuessLimit(perMinute: 0, logger: Logger(label: "test"))
        for _ in 0..<100 { none.failed("10.0.0.1") }
        #expect(none.wait(for: "10.0.0.1") == nil)
    }

    @Test func addressesAreFollowedWithinTheirBound() {
        let limit = KeyGuessLimit(perMinute: 60, maximumAddresses: 100, logger: Logger(label: "test"))
        let start = ContinuousClock.now
        for host in 0..<1_000 { limit.failed("10.0.\(host / 256).\(host % 256)", at: start) }
        #expect(limit.count <= 100)
    }

    @Test func clientsAreToldApartByIPv4AddressOrIPv6Prefix() throws {
        let v4 = try SocketAddress(ipAddress: "192.0.2.7", port: 5000)
        #expect(KeyGuessLimit.client(of: v4) == "192.0.2.7")
        let mapped = try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 5000)
        #expect(KeyGuessLimit.client(of: mapped) == "192.0.2.7")
        let one = try SocketAddress(ipAddress: "2001:db8:1:2:aaaa::1", port: 1)
        let sameHost = try SocketAddress(ipAddress: "2001:db8:1:2:bbbb::9", port: 2)
        let other = try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1)
        #expect(KeyGuessLimit.client(of: one) == KeyGuessLimit.client(of: sameHost))
        #expect(KeyGuessLimit.client(of: one) != KeyGuessLimit.client(of: other))
        #expect(KeyGuessLimit.client(of: nil) == "local")
    }
}
