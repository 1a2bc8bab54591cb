import Foundation
import Logging
import Metrics
import NIOCore
import Synchronization

/// How many wrong keys one client address may send: a bucket of `perMinute` guesses, refilled at
/// `perMinute` a minute. A key the address has not used rightly before takes a guess from its
/// bucket before it is looked up, and gives it back when it was right (``admit(_:key:at:)``,
/// ``proved(_:key:at:)``): so however many requests an address sends at once, at most the bucket's
/// guesses are looked up; past them its other keys are answered 429 with `Retry-After` without a
/// lookup, right or wrong, so that guessing goes at the limit's pace (60 a minute by default) and a
/// right guess past it is never told. A key the address has used rightly (one of its last
/// ``provenPerAddress``) takes no guess and is looked up whatever the address guessed, so that one
/// worker guessing wrong keys behind a NAT or an office proxy never locks out the others at its
/// address with the keys they use. A request with no key guesses nothing.
///
/// Clients are told apart by address: an IPv4 address, or an IPv6 address's /64 (what one host is
/// usually given); behind a trusted proxy, the address it forwarded (``TrustedProxies``). Wrong
/// keys are counted in `fetchpredict_key_failures_total`, answers refused for them in
/// `fetchpredict_key_failures_limited_total`; an address that reaches the limit is logged once,
/// until its bucket is full again.
final class KeyGuessLimit: Sendable {
    /// Guesses an address may make at once, and a minute after.
    let perMinute: Int
    /// The most addresses followed at once; beyond, addresses whose bucket is full again are
    /// forgotten first (their proven keys take a guess, given back, on their next request), then
    /// the one followed longest.
    let maximumAddresses: Int
    /// The most keys an address is known to use rightly: those it used last.
    static let provenPerAddress = 8
    private let logger: Logger
    private let buckets = Mutex<[String: Bucket]>([:])

    private struct Bucket {
        /// Guesses left, at `updated`.
        var left: Double
        var updated: ContinuousClock.Instant
        /// Whether it was logged as limited since it was last full.
        var logged = false
        /// The SHA-256 of the keys the address used rightly, the last used last.
        var proven: [String] = []
    }

    /// How a key from an address is to be checked.
    enum Admission: Equatable {
        /// The address has used it rightly: look it up, no guess taken.
        case proven
        /// A guess was taken for it: look it up, then ``proved(_:key:at:)`` or ``failed()``.
        case guess
        /// The address is out of guesses: answer 429, asking it to wait this long.
        case wait(Duration)
    }

    /// - Parameter perMinute: 0 for no limit.
    init(perMinute: Int, maximumAddresses: Int = 10_000, logger: Logger) {
        self.perMinute = max(0, perMinute)
        self.maximumAddresses = max(1, maximumAddresses)
        self.logger = logger
    }

    private var perSecond: Double { Double(perMinute) / 60 }

    /// How a key (its SHA-256 hex, `digest`) sent from an address is checked: as one the address
    /// proved, as a guess taken from its bucket, or not at all when the bucket is empty.
    func admit(_ address: String, key digest: String, at now: ContinuousClock.Instant = .now) -> Admission {
        guard perMinute > 0 else { return .guess }
        let (admission, began) = buckets.withLock { buckets -> (Admission, Bool) in
            var bucket = buckets[address] ?? Bucket(left: Double(perMinute), updated: now)
            refill(&bucket, at: now)
            defer {
                if buckets[address] == nil && buckets.count >= maximumAddresses { makeRoom(in: &buckets, at: now) }
                buckets[address] = bucket
            }
            if bucket.proven.contains(digest) { return (.proven, false) }
            guard bucket.left < 1 else {
                bucket.left -= 1
                return (.guess, false)
            }
            let began = !bucket.logged
            bucket.logged = true
            return (.wait(.seconds((1 - bucket.left) / perSecond)), began)
        }
        if case .wait = admission { Counter(label: "fetchpredict_key_failures_limited_total").increment() }
        if began {
            logger.notice(
                "wrong API keys from one address reached the limit; its other keys are answered 429 until it slows",
                metadata: ["address": "\(address)", "per-minute": "\(perMinute)"])
        }
        return admission
    }

    /// A key admitted as a guess was right: the guess is given back, and the address is known to
    /// use the key.
    func proved(_ address: String, key digest: String, at now: ContinuousClock.Instant = .now) {
        guard perMinute > 0 else { return }
        buckets.withLock { buckets in
            guard var bucket = buckets[address] else { return }
            refill(&bucket, at: now)
            bucket.left = min(Double(perMinute), bucket.left + 1)
            bucket.proven.removeAll { $0 == digest }
            bucket.proven.append(digest)
            if bucket.proven.count > Self.provenPerAddress { bucket.proven.removeFirst() }
            buckets[address] = bucket
        }
    }

    /// A key the address had proved is no longer valid (revoked): from now on it is a guess.
    func disproved(_ address: String, key digest: String) {
        buckets.withLock { buckets in buckets[address]?.proven.removeAll { $0 == digest } }
    }

    /// Counts a wrong key, whose guess ``admit(_:key:at:)`` took.
    func failed() {
        Counter(label: "fetchpredict_key_failures_total").increment()
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
        guard let raw = address?.ipBytes else { return "local" }
        let bytes = SocketAddress.mappedIPv4(raw) ?? raw
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
