import Foundation

/// The HTTP service's API keys: made, listed, revoked, and the tenant a key speaks for. One role
/// of ``EventStoring``, and the first of them that is async: a caller waits for the store
/// suspended, holding no thread while a server answers.
public protocol APIKeyKeeping: AnyObject, Sendable {
    /// Makes a new API key for a tenant and returns it: the only time the key is seen, since
    /// the store keeps only its SHA-256.
    ///
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the tenant name is not usable.
    func createKey(tenant: String, now: Date) async throws -> (key: String, info: APIKeyInfo)

    /// Every key made, valid or revoked, in the order made.
    func keys() async throws -> [APIKeyInfo]

    /// Revokes a key: from now on it is refused.
    ///
    /// - Returns: `false` when it was revoked already.
    /// - Throws: ``StoreError/unknownKey(_:)`` when there is no key of that number.
    @discardableResult
    func revokeKey(id: Int64, now: Date) async throws -> Bool

    /// The tenant a key speaks for, or `nil` when it is no key of this store or was revoked.
    func tenant(forKey key: String) async throws -> String?

    /// What has become of the keys made: it moves whenever a key is made or revoked, by any
    /// process. A cache of keys' tenants asks it at intervals and forgets them all when it moved,
    /// so that a revoked key is refused within the interval, at the cost of one call an interval.
    func keyRevocations() async throws -> KeyRevocations

    /// The store's secret that the service signs its cursors with: 32 random bytes, made the
    /// first time it is asked for and kept in the store, so that every instance of the service
    /// on the store signs alike, and a cursor one gave is read by another.
    func cursorSecret() async throws -> [UInt8]
}

/// What has become of a store's API keys (``APIKeyKeeping/keyRevocations()``): how many were
/// made, how many revoked, and when the last was. A key is never unrevoked, so any revocation
/// moves it.
public struct KeyRevocations: Sendable, Hashable {
    /// How many keys were made.
    public var keys: Int64
    /// How many of them are revoked.
    public var revoked: Int64
    /// When the last key was revoked, in milliseconds since 1970; 0 when none was.
    public var latest: Int64

    public init(keys: Int64, revoked: Int64, latest: Int64) {
        self.keys = keys
        self.revoked = revoked
        self.latest = latest
    }
}

/// The API keys of the HTTP service: what every store makes and checks the same way.
package enum APIKeyText {
    /// A new key: `fpk_` and 64 hex digits of the system's random generator.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "fpk_" + bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// A new cursor secret, as the hex a store keeps (64 digits of the system's random generator).
    package static func newSecret() -> String {
        String(generate().dropFirst(4))
    }

    /// A kept secret's bytes; `nil` when the text is not 64 hex digits.
    package static func secretBytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// The hex SHA-256 of a key: what a store keeps.
    package static func digest(_ key: String) -> String {
        Digest.sha256Hex(Array(key.utf8))
    }
}
