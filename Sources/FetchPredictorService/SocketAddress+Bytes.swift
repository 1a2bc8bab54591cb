import NIOCore

extension SocketAddress {
    /// The bytes of an IP address as the socket holds them (4 for IPv4, 16 for IPv6); `nil` for
    /// a Unix socket.
    var ipBytes: [UInt8]? {
        switch self {
        case .v4(let v4): withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6): withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        default: nil
        }
    }

    /// The four bytes of an IPv4 address that reached an IPv6 socket as `::ffff:a.b.c.d`; `nil`
    /// for any other address's bytes.
    static func mappedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff
        else { return nil }
        return Array(bytes[12...])
    }
}
