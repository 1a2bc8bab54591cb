import Foundation
import Logging
import NIOCore
import Testing

@testable import FetchPredictorService

/// Wrong keys meet a limit (issue 55, point 7): a client that keeps guessing is answered 429
/// before a key it has not used rightly is looked up, at the limit's pace however fast it sends; a
/// key in use at its address is still served (issue 74, point 2).
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
        // Then the sixth is 429 with Retry-After, not looked up
        let limited = try await service.request("GET", path, key: "fpk_guess5")
        #expect(limited.status == 429, "\(limited.text)")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(limited.json["error"] as? String != nil)
        // And the wrong keys and the refusals are counted
        let metrics = try await service.request("GET", "/metrics").text
        #expect(metrics.contains("fetchpredict_key_failures_total"))
        #expect(metrics.contains("fetchpredict_key_failures_limited_total"))
        await service.stop()
    }

    /// One worker behind a NAT guesses (a key revoked, mistyped); the others at its address, with
    /// the keys they use, are served every time. Past the allowance a key the address never used
    /// is 429 without a lookup, right or wrong, so that a right guess is never told; a key the
    /// address used and that was revoked since is a guess again.
    @Test func aKeyInUseIsServedWhileItsAddressGuesses() async throws {
        var settings = ServiceSettings()
        // One guess a minute: a guess that comes back while the test runs (a loaded machine) is
        // spent again by the wrong key sent just before each check
        settings.keyFailuresPerMinute = 1
        // Each key looked up, so that the one revoked below is refused at once.
        settings.keyCheckInterval = .zero
        let service = try await LiveService(settings: settings)
        try await service.setUpPhone()
        let path = "/v1/devices/phone/apps"
        for guess in 0..<10 { _ = try await service.request("GET", path, key: "fpk_guess\(guess)") }
        #expect(try await service.request("GET", path, key: "fpk_guess10").status == 429)
        var served = 0
        for _ in 0..<20 {
            if try await service.request("GET", path, key: service.acme).status == 200 { served += 1 }
            _ = try await service.request("GET", path, key: "fpk_again")
        }
        #expect(served == 20, "the key in use was served \(served) times of 20 beside a guesser")
        // A right key the address never used, sent while it is out of guesses, is not told right.
        _ = try await service.request("GET", path, key: "fpk_spent")
        #expect(try await service.request("GET", "/v1/devices", key: service.other).status == 429)
        // A key in use, revoked, is refused from then on.
        let info = try await service.store.keys().first { $0.tenant == "acme" }!
        try await service.store.revokeKey(id: info.id, now: Date())
        #expect([401, 429].contains(try await service.request("GET", path, key: service.acme).status))
        await service.stop()
    }

    /// Many wrong keys at once from one address: at most the allowance is looked up (401), the
    /// rest 429, however the requests interleave (61 of 60 got through before).
    @Test func wrongKeysSentAtOnceGetNoMoreThanTheAllowance() async throws {
        var settings = ServiceSettings()
        settings.keyFailuresPerMinute = 10
        let service = try await LiveService(settings: settings)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for guess in 0..<200 {
                group.addTask { try await service.request("GET", "/v1/devices", key: "fpk_burst\(guess)").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let looked = statuses.filter { $0 == 401 }.count
        #expect(looked <= 10 && looked >= 9, "\(looked) wrong keys were looked up of an allowance of 10")
        #expect(statuses.filter { $0 == 429 }.count == 200 - looked)
        await service.stop()
    }

    @Test func aBucketRefillsAtTheLimitsPace() {
        let limit = KeyGuessLimit(perMinute: 6, logger: Logger(label: "test"))
        let start = ContinuousClock.now
        for second in 0..<6 {
            #expect(limit.admit("10.0.0.1", key: "k\(second)", at: start + .milliseconds(second)) == .guess)
        }
        // Six wrong keys at once spend the bucket: the address waits 10 s for one more guess
        guard case .wait(let wait) = limit.admit("10.0.0.1", key: "k6", at: start + .milliseconds(10)) else {
            Issue.record("a seventh key was admitted")
            return
        }
        #expect(wait > .seconds(9.9) && wait <= .seconds(10))
        // Another address is not slowed by it
        #expect(limit.admit("10.0.0.2", key: "k0", at: start) == .guess)
        // After 10 s one guess is back; one more wrong key spends it again
        #expect(limit.admit("10.0.0.1", key: "k7", at: start + .seconds(10.1)) == .guess)
        #expect(limit.admit("10.0.0.1", key: "k8", at: start + .seconds(10.2)) != .guess)
        // A right key gives its guess back, and is proven for its address alone
        limit.proved("10.0.0.1", key: "k7", at: start + .seconds(10.3))
        #expect(limit.admit("10.0.0.1", key: "k7", at: start + .seconds(10.3)) == .proven)
        #expect(limit.admit("10.0.0.1", key: "k9", at: start + .seconds(10.3)) == .guess)
        #expect(limit.admit("10.0.0.2", key: "k7", at: start + .seconds(10.3)) == .guess)
        limit.disproved("10.0.0.1", key: "k7")
        #expect(limit.admit("10.0.0.1", key: "k7", at: start + .seconds(10.3)) != .proven)
        // With no limit, every key is looked up
        let none = KeyGuessLimit(perMinute: 0, logger: Logger(label: "test"))
        for index in 0..<100 { #expect(none.admit("10.0.0.1", key: "k\(index)") == .guess) }
    }

    @Test func addressesAreFollowedWithinTheirBound() {
        let limit = KeyGuessLimit(perMinute: 60, maximumAddresses: 100, logger: Logger(label: "test"))
        let start = ContinuousClock.now
        for host in 0..<1_000 { _ = limit.admit("10.0.\(host / 256).\(host % 256)", key: "k", at: start) }
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
