import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import FetchPredictorService

/// Behind a proxy every client is one address (issue 74, point 3): the address a trusted proxy
/// forwarded names the client, and no other connection's headers are taken.
struct TrustedProxyTests {
    static func headers(_ fields: [(String, String)]) -> HTTPFields {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(.init(name: .init(name)!, value: value)) }
        return headers
    }

    static let proxy = try! SocketAddress(ipAddress: "10.0.0.2", port: 4000)

    @Test func anUntrustedPeerIsKnownByItsOwnAddressWhateverItsHeadersSay() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        let peer = try SocketAddress(ipAddress: "198.51.100.9", port: 5000)
        let spoofed = Self.headers([("X-Forwarded-For", "203.0.113.7"), ("Forwarded", "for=203.0.113.8")])
        #expect(proxies.client(peer: peer, headers: spoofed) == "198.51.100.9")
        #expect(TrustedProxies.none.client(peer: Self.proxy, headers: spoofed) == "10.0.0.2")
    }

    @Test func aTrustedProxysForwardedAddressNamesTheClientReadFromTheRight() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "fd00::/8"])
        // The client's own word (left) is not taken; the proxies' (right) is, past the trusted.
        let chain = Self.headers([("X-Forwarded-For", "1.2.3.4, 203.0.113.7, 10.0.0.5")])
        #expect(proxies.client(peer: Self.proxy, headers: chain) == "203.0.113.7")
        // Several header lines are one list.
        let lines = Self.headers([("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-For", "203.0.113.9")])
        #expect(proxies.client(peer: Self.proxy, headers: lines) == "203.0.113.9")
        // Forwarded comes first, with quotes, brackets and ports taken off; IPv6 by its /64.
        let standard = Self.headers([
            ("X-Forwarded-For", "203.0.113.7"),
            ("Forwarded", #"for=192.0.2.60;proto=http, for="[2001:db8:cafe:1:2::17]:4711""#),
        ])
        #expect(proxies.client(peer: Self.proxy, headers: standard) == "2001:db8:cafe:1::/64")
        #expect(
            proxies.client(peer: Self.proxy, headers: Self.headers([("Forwarded", #"for="192.0.2.60:8080""#)]))
                == "192.0.2.60")
        // Nothing forwarded: the proxy itself.
        #expect(proxies.client(peer: Self.proxy, headers: HTTPFields()) == "10.0.0.2")
        // Every address a trusted proxy's: the leftmost.
        let inside = Self.headers([("X-Forwarded-For", "10.1.1.1, 10.0.0.5")])
        #expect(proxies.client(peer: Self.proxy, headers: inside) == "10.1.1.1")
    }

    @Test(arguments: ["10.0.0.0/33", "nonsense", "10.0.0/8", "::1/129", "10.0.0.0/x", ""])
    func aRangeThatIsNoneIsRefusedByItsText(text: String) {
        #expect(throws: TrustedProxies.RangeError.self) { try TrustedProxies([text]) }
    }

    @Test func rangesHoldTheirAddresses() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "192.168.1.7", "fd00::/8"])
        #expect(proxies.trusts(try SocketAddress(ipAddress: "10.255.0.1", port: 1)))
        #expect(!proxies.trusts(try SocketAddress(ipAddress: "11.0.0.1", port: 1)))
        #expect(proxies.trusts(try SocketAddress(ipAddress: "192.168.1.7", port: 1)))
        #expect(!proxies.trusts(try SocketAddress(ipAddress: "192.168.1.8", port: 1)))
        #expect(proxies.trusts(try SocketAddress(ipAddress: "fd12::1", port: 1)))
        // An IPv4 client reaching an IPv6 socket.
        #expect(proxies.trusts(try SocketAddress(ipAddress: "::ffff:10.1.2.3", port: 1)))
        #expect(!TrustedProxies.none.trusts(try SocketAddress(ipAddress: "10.0.0.1", port: 1)))
    }

    /// Two workers behind one trusted proxy: one guessing keys is limited, the other is not.
    @Test func clientsBehindATrustedProxyAreLimitedApart() async throws {
        var settings = ServiceSettings()
        settings.keyFailuresPerMinute = 2
        settings.trustedProxies = try TrustedProxies(["127.0.0.1"])
        let service = try await LiveService(settings: settings)
        try await service.setUpPhone()
        let path = "/v1/devices/phone/apps"
        let guesser = ["X-Forwarded-For": "203.0.113.7"]
        for _ in 0..<2 {
            #expect(try await service.request("GET", path, key: "fpk_wrong", headers: guesser).status == 401)
        }
        #expect(try await service.request("GET", path, key: "fpk_wrong", headers: guesser).status == 429)
        // The other worker, behind the same proxy, is not slowed by it.
        let worker = ["X-Forwarded-For": "203.0.113.8"]
        #expect(try await service.request("GET", path, key: "fpk_wrong", headers: worker).status == 401)
        #expect(try await service.request("GET", path, key: service.acme, headers: worker).status == 200)
        await service.stop()
    }

    /// Without --trusted-proxy the same headers are not read: every request is the loopback's.
    @Test func forwardedHeadersAreNotReadFromAnUntrustedPeer() async throws {
        var settings = ServiceSettings()
        settings.keyFailuresPerMinute = 2
        let service = try await LiveService(settings: settings)
        try await service.setUpPhone()
        let path = "/v1/devices/phone/apps"
        for guess in 0..<2 {
            let headers = ["X-Forwarded-For": "203.0.113.\(guess)"]
            #expect(try await service.request("GET", path, key: "fpk_wrong", headers: headers).status == 401)
        }
        let fresh = ["X-Forwarded-For": "203.0.113.99"]
        #expect(try await service.request("GET", path, key: "fpk_wrong", headers: fresh).status == 429)
        await service.stop()
    }

    /// A trusted proxy carries many clients: its connections are not capped by address.
    @Test func aTrustedProxysConnectionsAreNotCappedByAddress() async throws {
        var settings = ServiceSettings()
        settings.maximumConnections = 100
        settings.maximumConnectionsPerAddress = 8
        settings.trustedProxies = try TrustedProxies(["127.0.0.1"])
        let service = try await LiveService(settings: settings)
        let port = service.port
        let opened = await ConnectionFairnessTests.open(
            20, port: port, from: "127.0.0.1", sending: ConnectionFairnessTests.keptAlive)
        let answers = await offThePool { opened.filter { $0.readHead(seconds: 2).hasPrefix("HTTP/1.1 200") }.count }
        for connection in opened { connection.close() }
        #expect(answers == 20)
        await service.stop()
    }
}
