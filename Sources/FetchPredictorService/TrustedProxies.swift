import Foundation
import Hummingbird
import NIOCore

/// The proxies whose word the service takes for a client's address (`serve --trusted-proxy
/// CIDR`): behind a load balancer every connection comes from the balancer, and the per-address
/// limits (``KeyGuessLimit``, ``ConnectionLimit``) would count all its clients as one.
///
/// A request whose connection comes from a trusted proxy is known by the address the proxies
/// appended to `Forwarded` (RFC 7239), or else to `X-Forwarded-For`: read from the right, the
/// first that is not itself a trusted proxy (what nginx's `real_ip_recursive` reads); the
/// addresses left of it are the client's own word and are not taken. Any other connection is
/// known by its own address, whatever its headers say.
public struct TrustedProxies: Sendable {
    /// A range of addresses: the first `bits` bits of `bytes` (4 for IPv4, 16 for IPv6).
    struct Range: Sendable, Equatable {
        var bytes: [UInt8]
        var bits: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = bits
            for (index, byte) in bytes.enumerated() where left > 0 {
                let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
                if address[index] & mask != byte & mask { return false }
                left -= 8
            }
            return true
        }
    }

    /// A range the option could not read.
    public struct RangeError: Error, CustomStringConvertible {
        public var text: String
        public var description: String {
            "'\(text)' is not an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/8"
        }
    }

    let ranges: [Range]

    /// No proxy is trusted: every client is known by its connection's address.
    public static let none = TrustedProxies(ranges: [])

    init(ranges: [Range]) { self.ranges = ranges }

    /// The ranges of `--trusted-proxy`: addresses (`10.0.0.5`, `::1`) or CIDR ranges
    /// (`10.0.0.0/8`, `fd00::/8`).
    ///
    /// - Throws: ``RangeError`` naming the first text that is neither.
    public init(_ texts: [String]) throws(RangeError) {
        var ranges: [Range] = []
        for text in texts {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(of: String(parts[0])) else { throw RangeError(text: text) }
            let bits = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let bits, (0...bytes.count * 8).contains(bits) else { throw RangeError(text: text) }
            ranges.append(Range(bytes: bytes, bits: bits))
        }
        self.ranges = ranges
    }

    /// Whether a connection's peer is a trusted proxy.
    func trusts(_ peer: SocketAddress?) -> Bool {
        guard !ranges.isEmpty, let bytes = peer?.ipBytes else { return false }
        return trusts(bytes)
    }

    private func trusts(_ bytes: [UInt8]) -> Bool {
        ranges.contains { $0.contains(SocketAddress.mappedIPv4(bytes) ?? bytes) || $0.contains(bytes) }
    }

    /// The name a request's client is limited under (as ``KeyGuessLimit/client(of:)`` names
    /// addresses): the connection's address, or the one its trusted proxies forwarded.
    func client(peer: SocketAddress?, headers: HTTPFields) -> String {
        guard trusts(peer) else { return KeyGuessLimit.client(of: peer) }
        let forwarded = Self.forwardedFor(headers)
        // From the right: each trusted proxy appended the address it was reached from.
        for text in forwarded.reversed() {
            guard let address = try? SocketAddress(ipAddress: text, port: 0) else {
                // An identifier that is no address ("unknown", "_hidden"): the proxy's word,
                // under which such clients are counted together.
                return text
            }
            if let bytes = address.ipBytes, trusts(bytes) { continue }
            return KeyGuessLimit.client(of: address)
        }
        // Every address is a trusted proxy's, or none was forwarded.
        return forwarded.first.flatMap { try? SocketAddress(ipAddress: $0, port: 0) }
            .map { KeyGuessLimit.client(of: $0) } ?? KeyGuessLimit.client(of: peer)
    }

    /// The addresses a request was forwarded for, left to right: `Forwarded`'s `for=` when the
    /// request has that header, else `X-Forwarded-For`'s; ports and brackets taken off.
    static func forwardedFor(_ headers: HTTPFields) -> [String] {
        func values(_ name: String) -> [String] {
            headers.filter { $0.name.canonicalName == name }.flatMap { $0.value.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let standard = values("forwarded")
        if !standard.isEmpty {
            return standard.compactMap { element in
                element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.lowercased().hasPrefix("for=") }
                    .map { node(String($0.dropFirst(4))) }
            }
        }
        return values("x-forwarded-for").map(node).filter { !$0.isEmpty }
    }

    /// A node of `Forwarded` or `X-Forwarded-For` as an address: quotes, the brackets of IPv6
    /// and a port taken off.
    static func node(_ text: String) -> String {
        var node = text
        if node.hasPrefix("\""), node.hasSuffix("\""), node.count >= 2 { node = String(node.dropFirst().dropLast()) }
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<close])
        }
        // An IPv4 address with a port; an IPv6 address without brackets has several colons.
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") {
            return String(node[..<colon])
        }
        return node
    }

    private static func bytes(of text: String) -> [UInt8]? {
        (try? SocketAddress(ipAddress: text, port: 0))?.ipBytes
    }
}
