import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTPTypes

/// The most connections the service holds at once, and the most one client address may hold, so
/// that a flood of connections, which needs no key, never takes the file descriptors that the
/// store and the requests being answered need, nor the room of other clients.
///
/// At the limit, a new connection takes the room of one that holds it for nothing: the one idle
/// longest (one that has sent nothing yet, or that is between requests, as a keep-alive
/// connection is: nginx's `keepalive_timeout`, HAProxy's `timeout http-keep-alive`), else the one
/// whose request body arrives slowest, below ``bodyFloorBytesPerSecond`` for more than
/// ``bodyGrace`` (Apache's `mod_reqtimeout` minimum rate). When every connection is being
/// answered or sends its body in good time, the new one is closed as it opens. A connection whose
/// address already holds ``perAddress`` is closed as it opens too (nginx's `limit_conn`), so that
/// one address cannot take the room of all others even with requests.
///
/// Shedding is logged once when it starts and once when it ends (not a line a connection), and
/// counted in `fetchpredict_connections_shed_total` (`fetchpredict_connections_evicted_total` for
/// the connections closed to make room, `fetchpredict_connections_over_address_limit_total` for
/// those refused for their address).
final class ConnectionLimit: @unchecked Sendable {
    /// The most connections held at once.
    let maximum: Int
    /// The most connections one client address (``KeyGuessLimit/client(of:)``) may hold; `nil`
    /// for no cap.
    let perAddress: Int?
    /// Whether a peer's connections are exempt from ``perAddress``: those of a trusted proxy,
    /// which carries many clients.
    private let exempt: @Sendable (SocketAddress?) -> Bool
    private let logger: Logger
    private let lock = NSLock()
    private var open = 0
    /// Connections closed since shedding began; `nil` while none is being shed.
    private var shedding: Int?
    /// Connections refused for their address since that began; `nil` while none is.
    private var capping: Int?
    private var connections: [UInt64: Connection] = [:]
    private var perAddressOpen: [String: Int] = [:]
    /// The idle connections in the order they became idle, each with the idle spell it was
    /// queued for: a spell that has ended is skipped when it comes up.
    private var idleQueue: [(number: UInt64, spell: UInt64)] = []
    private var idleHead = 0
    private var nextNumber: UInt64 = 0
    private var nextSpell: UInt64 = 0

    /// The slowest a request's body may arrive once the service is at its limit: a connection
    /// below it for longer than ``bodyGrace`` gives its room to a new one.
    static let bodyFloorBytesPerSecond = 500.0
    /// How long a request's body is given before its pace is judged.
    static let bodyGrace: Duration = .seconds(2)

    private struct Connection {
        var channel: Channel
        var address: String?
        var state: State
        /// Requests whose head has arrived and whose answer has not ended.
        var unanswered = 0
    }

    private enum State {
        /// Sent nothing yet, or between requests: since the spell's number.
        case idle(spell: UInt64)
        /// A request's head has arrived and its body is arriving: since when, and how much.
        case receiving(since: ContinuousClock.Instant, bytes: Int)
        /// A request arrived whole and is being answered.
        case answering
    }

    /// - Parameters:
    ///   - perAddress: the most connections one address may hold; `nil` for no cap.
    ///   - exempt: whether a peer is exempt from `perAddress` (a trusted proxy).
    init(
        maximum: Int, perAddress: Int? = nil, exempt: @escaping @Sendable (SocketAddress?) -> Bool = { _ in false },
        logger: Logger
    ) {
        self.maximum = max(1, maximum)
        self.perAddress = perAddress.map { max(1, $0) }
        self.exempt = exempt
        self.logger = logger
    }

    /// The default limit under a process's limit of open files: room is left for the store's
    /// files or connections, the listening socket and the runtime's own.
    static func fitting(openFiles: Int) -> Int { max(16, openFiles - 128) }

    /// The default cap of one address: a quarter of the limit, so that one address leaves three
    /// quarters of the room to others.
    static func defaultPerAddress(maximum: Int) -> Int { max(1, maximum / 4) }

    /// The soft limit of open files of this process; `nil` when unlimited or unknown.
    static var openFilesLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
            limit.rlim_cur < 1 << 24
        else {
            return nil
        }
        return Int(limit.rlim_cur)
    }

    /// A handler for one new connection's pipeline.
    func handler() -> ConnectionLimitHandler { ConnectionLimitHandler(limit: self) }

    /// Why a new connection was not admitted.
    private enum Refusal {
        case full
        case address
    }

    /// Whether a new connection may stay open, and its number when it may: it is counted, and
    /// idle until its first request. At the limit, the connection that holds its room for nothing
    /// is closed to make room for it (its room is given back when it has closed: one beyond the
    /// limit for as long as that takes).
    fileprivate func admit(_ channel: Channel, now: ContinuousClock.Instant = .now) -> UInt64? {
        let peer = channel.remoteAddress
        let address = perAddress != nil && !exempt(peer) ? KeyGuessLimit.client(of: peer) : nil
        let (number, evicted, refusal, logs) = lock.withLock {
            () -> (UInt64?, Channel?, Refusal?, (shedding: Bool, capping: Bool)) in
            if let address, let perAddress, perAddressOpen[address, default: 0] >= perAddress {
                let began = capping == nil
                capping = (capping ?? 0) + 1
                return (nil, nil, .address, (false, began))
            }
            var evicted: Channel?
            if open >= maximum {
                guard let victim = victim(now: now) else {
                    let began = shedding == nil
                    shedding = (shedding ?? 0) + 1
                    return (nil, nil, .full, (began, false))
                }
                evicted = remove(victim)
            }
            let began = evicted != nil && shedding == nil
            if evicted != nil { shedding = (shedding ?? 0) + 1 }
            open += 1
            nextNumber += 1
            connections[nextNumber] = Connection(channel: channel, address: address, state: .idle(spell: 0))
            queueIdle(nextNumber)
            if let address { perAddressOpen[address, default: 0] += 1 }
            return (nextNumber, evicted, nil, (began, false))
        }
        if let evicted {
            Counter(label: "fetchpredict_connections_evicted_total").increment()
            evicted.close(promise: nil)
        }
        if number == nil || evicted != nil { Counter(label: "fetchpredict_connections_shed_total").increment() }
        if refusal == .address { Counter(label: "fetchpredict_connections_over_address_limit_total").increment() }
        if logs.shedding {
            logger.warning(
                """
                shedding connections: \(maximum) are open, the most allowed (--max-connections); \
                those idle longest, then bodies slower than \(Int(Self.bodyFloorBytesPerSecond)) bytes a second, \
                give way first
                """,
                metadata: ["limit": "\(maximum)"])
        }
        if logs.capping, let perAddress {
            logger.warning(
                """
                refusing connections: an address holds \(perAddress), the most one may \
                (--max-connections-per-address)
                """,
                metadata: ["per-address": "\(perAddress)"])
        }
        return number
    }

    /// The connection to close for a new one at the limit: the one idle longest, else the one
    /// whose body arrives slowest below the floor past its grace; `nil` when none holds its room
    /// for nothing. Called under the lock.
    private func victim(now: ContinuousClock.Instant) -> UInt64? {
        while idleHead < idleQueue.count {
            let (number, spell) = idleQueue[idleHead]
            idleHead += 1
            if case .idle(let current)? = connections[number]?.state, current == spell { return number }
        }
        var slowest: (number: UInt64, rate: Double)?
        for (number, connection) in connections {
            guard case .receiving(let since, let bytes) = connection.state else { continue }
            let elapsed = now - since
            guard elapsed > Self.bodyGrace else { continue }
            let rate = Double(bytes) / (elapsed / .seconds(1))
            if rate < Self.bodyFloorBytesPerSecond, rate < slowest?.rate ?? .infinity { slowest = (number, rate) }
        }
        return slowest?.number
    }

    /// Forgets a connection and gives back its room; returns its channel. Under the lock.
    private func remove(_ number: UInt64) -> Channel? {
        guard let connection = connections.removeValue(forKey: number) else { return nil }
        open -= 1
        if let address = connection.address {
            let left = perAddressOpen[address, default: 1] - 1
            perAddressOpen[address] = left > 0 ? left : nil
        }
        return connection.channel
    }

    /// Queues a connection as idle from now, in a new spell. Under the lock.
    private func queueIdle(_ number: UInt64) {
        nextSpell += 1
        connections[number]?.state = .idle(spell: nextSpell)
        idleQueue.append((number, nextSpell))
        // The spells that ended are dropped once they are most of the queue.
        if idleQueue.count - idleHead > 2 * connections.count + 64 {
            idleQueue = idleQueue[idleHead...].filter {
                if case .idle(let spell)? = connections[$0.number]?.state { return spell == $0.spell }
                return false
            }
            idleHead = 0
        } else if idleHead > 1024, idleHead * 2 > idleQueue.count {
            idleQueue.removeFirst(idleHead)
            idleHead = 0
        }
    }

    /// A request's head has arrived on a connection.
    fileprivate func requestBegan(_ number: UInt64, now: ContinuousClock.Instant = .now) {
        lock.withLock {
            connections[number]?.unanswered += 1
            connections[number]?.state = .receiving(since: now, bytes: 0)
        }
    }

    /// Part of a request's body has arrived.
    fileprivate func bodyArrived(_ number: UInt64, bytes: Int) {
        lock.withLock {
            if case .receiving(let since, let sofar)? = connections[number]?.state {
                connections[number]?.state = .receiving(since: since, bytes: sofar + bytes)
            }
        }
    }

    /// A request has arrived whole.
    fileprivate func requestEnded(_ number: UInt64) {
        lock.withLock {
            guard let connection = connections[number], case .receiving = connection.state else { return }
            if connection.unanswered > 0 {
                connections[number]?.state = .answering
            } else {
                // Answered before its body was read (a 401, a 413): idle from now.
                queueIdle(number)
            }
        }
    }

    /// An answer has ended: with no request left to answer and none arriving, the connection is
    /// idle.
    fileprivate func answerEnded(_ number: UInt64) {
        lock.withLock {
            guard let connection = connections[number] else { return }
            let unanswered = max(0, connection.unanswered - 1)
            connections[number]?.unanswered = unanswered
            if unanswered == 0, case .answering = connection.state { queueIdle(number) }
        }
    }

    /// An admitted connection has closed.
    fileprivate func closed(_ number: UInt64) {
        let ended: (shed: Int?, capped: Int?) = lock.withLock {
            _ = remove(number)
            // Shedding ends once a tenth of the room is free again; refusing by address once no
            // address is at its cap.
            var ended: (shed: Int?, capped: Int?) = (nil, nil)
            if let shed = shedding, open < maximum - max(1, maximum / 10) {
                shedding = nil
                ended.shed = shed
            }
            if let capped = capping, let perAddress, !perAddressOpen.values.contains(where: { $0 >= perAddress }) {
                capping = nil
                ended.capped = capped
            }
            return ended
        }
        if let shed = ended.shed {
            logger.notice("stopped shedding connections", metadata: ["shed": "\(shed)", "limit": "\(maximum)"])
        }
        if let capped = ended.capped {
            logger.notice("stopped refusing connections by address", metadata: ["refused": "\(capped)"])
        }
    }

    /// How many admitted connections are open.
    var openCount: Int { lock.withLock { open } }
}

/// Admits a connection when it opens, or closes it at once; follows its requests and answers
/// (idle, receiving a body, being answered); releases its room when it closes.
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    private let limit: ConnectionLimit
    /// The connection's number while it is admitted.
    private var admitted: UInt64?
    private var decided = false

    init(limit: ConnectionLimit) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { decide(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        decide(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let number = admitted {
            admitted = nil
            limit.closed(number)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let number = admitted {
            switch unwrapInboundIn(data) {
            case .head: limit.requestBegan(number)
            case .body(let buffer): limit.bodyArrived(number, bytes: buffer.readableBytes)
            case .end: limit.requestEnded(number)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let number = admitted, case .end = unwrapOutboundIn(data) {
            context.write(data, promise: promise)
            limit.answerEnded(number)
            return
        }
        context.write(data, promise: promise)
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        admitted = limit.admit(context.channel)
        if admitted == nil { context.close(promise: nil) }
    }
}
