import FetchPredictor
import Foundation
import Synchronization

/// The service's cursors, signed: the fields of a place in a listing (its kind, the tenant it
/// was given to, then the place), in base64url, a `.`, and the first 16 bytes of their
/// HMAC-SHA-256 under the store's cursor secret (``APIKeyKeeping/cursorSecret()``), so that
/// every instance on the store reads the others'. Opaque to clients: one edited, made up, or
/// given to another tenant is refused (a 400), never read at another place, and nothing of it
/// reaches the store unless this service wrote it.
final class CursorSeal: Sendable {
    private let store: any APIKeyKeeping
    private let secret = Mutex<[UInt8]?>(nil)

    init(store: any APIKeyKeeping) { self.store = store }

    /// The store's secret, read once.
    private func key() async throws -> [UInt8] {
        if let key = secret.withLock({ $0 }) { return key }
        let key = try await store.cursorSecret()
        secret.withLock { $0 = key }
        return key
    }

    /// The cursor of `fields` (none holding a newline but the last).
    func seal(_ fields: [String]) async throws -> String {
        let payload = Array(fields.joined(separator: "\n").utf8)
        let mac = Digest.hmacSHA256(key: try await key(), message: payload).prefix(16)
        return Self.base64URL(payload) + "." + Self.base64URL(Array(mac))
    }

    /// The `count` fields a cursor holds; `nil` when it is not one this service sealed.
    func open(_ cursor: String, fields count: Int) async throws -> [String]? {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Self.bytes(parts[0]), let mac = Self.bytes(parts[1]), mac.count == 16
        else { return nil }
        let expected = Digest.hmacSHA256(key: try await key(), message: payload).prefix(16)
        // Compared in full, whatever differs first: the time tells nothing of the secret.
        guard zip(expected, mac).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0,
            let text = String(validating: payload, as: UTF8.self)
        else { return nil }
        let fields = text.split(separator: "\n", maxSplits: count - 1, omittingEmptySubsequences: false)
        return fields.count == count ? fields.map(String.init) : nil
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func bytes(_ text: Substring) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}

/// The cursor of a listing of devices: the last name of the page, and the tenant it was given to.
extension CursorSeal {
    func devices(after name: String, tenant: String) async throws -> String {
        try await seal(["devices", tenant, name])
    }

    /// The name a devices cursor holds; `nil` when it is not one given to `tenant`.
    func device(_ cursor: String, tenant: String) async throws -> String? {
        guard let fields = try await open(cursor, fields: 3), fields[0] == "devices", fields[1] == tenant,
            !fields[2].isEmpty
        else { return nil }
        return fields[2]
    }
}
