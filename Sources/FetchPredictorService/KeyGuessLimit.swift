import Foundation
import Logging
import Metrics
import NIOCore
import Synchronization

/// How many wrong keys one client address may send: a bucket of `perMinute` guesses, refilled at
/// `perMinute` a minute. A client whose bucket is empty is answered 429 with `Retry-After` until
/// a guess is back in it, before its key is looked up, so that guessing keys goes at the limit's
/// pace (60 a minute by default) however fast the client sends. Keys that are right cost nothing,
/// and a request with no key none either (it guesses nothing).
///
/// Clients are told apart by address: an IPv4 address, or an IPv6 address's /64 (what one host is
/// usually given). Behind a proxy every client has the proxy's address, so that one client's
/// guesses would slow all of them: run it with the limit off (`--key-failures-per-minute 0`) and
/// limit at the proxy. Wrong keys are counted in `fetchpredict_key_failures_total`, answers
/// refused for them in `fetchpredict_key_failures_limited_total`; an address that reaches the
/// limit is logged once, until its bucket is full again.
final class KeyGuessLimit: Sendable {
    /// Guesses an address may make at once, and a minute after.
    let perMinute: Int
    /// The most addresses followed at once; beyond, addresses whose bucket is full again are
    /// forgotten first, then the one followed longest.
    let maximumAddresses: Int
    private let logger: Logger
    private let buckets = Mutex<[String: Bucket]>([:])

    private struct Bucket {
        /// Guesses left, at `updated`.
        var left: Double
        var updated: ContinuousClock.Instant
        /// Whether it was logged as limited since it was last full.
        var logged = false
    }

    /// - Parameter perMinute: 0 for no limit.
    init(perMinute: Int, maximumAddresses: Int = 10_000, logger: Logger) {
        self.perMinute = max(0, perMinute)
        self.maximumAddresses = max(1, maximumAddresses)
        self.logger = logger
    }

    private var perSecond: Double { Double(perMinute) / 60 }

    /// How long the address must wait before its next key is looked up; `nil` when it may be now.
    func wait(for address: String, at now: ContinuousClock.Instant = .now) -> Duration? {
        guard perMinute > 0 else { return nil }
        return buckets.withLock { buckets -> Duration? in
            guard var bucket = buckets[address] else { return nil }
            refill(&bucket, at: now)
            buckets[address] = bucket
            guard bucket.left < 1 else { return nil }
            Counter(label: "fetchpredict_key_failures_limited_total").increment()
            return .seconds((1 - bucket.left) / perSecond)
        }
    }

    /// Takes a guess from the address's bucket: its key was wrong.
    func failed(_ address: String, at now: ContinuousClock.Instant = .now) {
        Counter(label: "fetchpredict_key_failures_total").increment()
        guard perMinute > 0 else { return }
        let limited = buckets.withLock { buckets -> Bool in
            var bucket = buckets[address] ?? Bucket(left: Double(perMinute), updated: now)
            refill(&bucket, at: now)
            bucket.left = max(0, bucket.left - 1)
            let limited = bucket.left < 1 && !bucket.logged
            if limited { bucket.logged = true }
            if buckets[address] == nil && buckets.count >= maximumAddresses { makeRoom(in: &buckets, at: now) }
            buckets[address] = bucket
            return limited
        }
        if limited {
            logger.notice(
                "wrong API keys from one address reached the limit; its requests with a key are answered 429 until it slows",
                metadata: ["address": "\(address)", "per-minute": "\(perMinute)"])
        }
    }

    /// How many addresses are followed.
    var count: Int { buckets.withLock { $0.count } }

    private func refill(_ bucket: inout Bucket, at now: ContinuousClock.Instant) {
        let seconds = Double((now - bucket.updated).nanoseconds) / 1e9
        bucket.left = min(Double(perMinute), bucket.left + max(0, seconds) * perSecond)
        bucket.updated = max(bucket.updated, now)
        if bucket.left >= Double(perMinute) { bucket.logged = false }
    }

    private func makeRoom(in buckets: inout [String: Bucket], at now: ContinuousClock.Instant) {
        for (address, var bucket) in buckets {
            refill(&bucket, at: now)
            if bucket.left >= Double(perMinute) { buckets[address] = nil }
        }
        if buckets.count >= maximumAddresses, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated }) {
            buckets[oldest.key] = nil
        }
    }

    /// The name a client's address is limited under: an IPv4 address (also when it reaches an
    /// IPv6 socket as `::ffff:a.b.c.d`), an IPv6 address's first 64 bits, or "local" for a Unix
    /// socket or an unknown peer.
    static func client(of address: SocketAddress?) -> String {
        switch address {
        case .v4?:
            return address?.ipAddress ?? "local"
        case .v6(let v6)?:
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            return groups.joined(separator: ":") + "::/64"
        default:
            return "local"
        }
    }
}
