import FetchPredictor
import Foundation
import Hummingbird
import NIOCore

/// The context of one request: Hummingbird's, and the tenant its key speaks for once
/// ``BearerKeyMiddleware`` has checked it.
struct APIContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The tenant of the request's key; `nil` on routes that need none.
    var tenant: String?
    /// The event loop of the request's connection, whose timers time the request's waits.
    let eventLoop: any EventLoop
    /// The address of the request's connection: the client's, or its proxy's
    /// (``TrustedProxies/client(peer:headers:)`` names the client behind a trusted one).
    let peer: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        eventLoop = source.channel.eventLoop
        peer = source.channel.remoteAddress
    }

    /// The device the path names, as the store names it: `TENANT/DEVICE`, so that tenants never
    /// share a device and no tenant can name another's.
    func device() throws -> DeviceIdentity {
        guard let tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let name = try Self.pathName(parameters.get("device") ?? "", field: "device")
        let device = DeviceIdentity(tenant: tenant, name: name)
        // The store's name, TENANT/DEVICE, must be one the command line can reach too.
        let room = EventLimits.maximumAppNameBytes - tenant.utf8.count - 1
        if name.utf8.count > room {
            let length = name.utf8.count
            throw APIError(
                .badRequest,
                "the device name is \(length) bytes long, more than the \(room) this tenant's names may have",
                field: "device")
        }
        return device
    }

    /// The app the path names: any name the events route stores, `/` sent as `%2F`.
    func app() throws -> String {
        try Self.pathName(parameters.get("app") ?? "", field: "app", separators: false)
    }

    /// A name from a path segment, percent-decoded, refused when it holds a control character or
    /// breaks the store's limits on names, and, with `separators` (a device's name, which the
    /// store prefixes with its tenant and a slash), when it holds `/`, `\` or `..`.
    static func pathName(_ raw: String, field: String, separators: Bool = true) throws -> String {
        guard let name = raw.removingPercentEncoding else {
            throw APIError(.badRequest, "the \(field) name is not valid percent-encoded UTF-8", field: field)
        }
        // Bytes, not characters: a '/' followed by a combining mark is one character, not a '/'.
        let bytes = Array(name.utf8)
        let dots = zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }
        if separators, bytes.contains(UInt8(ascii: "/")) || bytes.contains(UInt8(ascii: "\\")) || dots {
            throw APIError(.badRequest, "the \(field) name may not hold '/', '\\' or '..'", field: field)
        }
        if let problem = EventLimits.problem(withAppName: name) {
            throw APIError(
                .badRequest, problem.replacingOccurrences(of: "app name", with: "\(field) name"), field: field)
        }
        return name
    }
}
