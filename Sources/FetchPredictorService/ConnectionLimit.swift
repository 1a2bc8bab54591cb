import Foundation
import Logging
import Metrics
import NIOCore

/// The most connections the service holds at once, so that a flood of connections, which needs
/// no key, never takes the file descriptors that the store and the requests being answered need.
/// At the limit, a new connection takes the room of the oldest that has sent nothing yet (a
/// flood's idle sockets give way to a client with a request, which is answered while the flood
/// lasts); when every connection has spoken, the new one is closed as it opens. Shedding is
/// logged once when it starts and once when it ends (not a line a connection), and counted in
/// `fetchpredict_connections_shed_total` (`fetchpredict_connections_evicted_total` for the
/// silent connections closed to make room).
final class ConnectionLimit: @unchecked Sendable {
    /// The most connections held at once.
    let maximum: Int
    private let logger: Logger
    private let lock = NSLock()
    private var open = 0
    /// Connections closed since shedding began; `nil` while none is being shed.
    private var shedding: Int?
    /// The admitted connections that have sent nothing yet, by the order they opened.
    private var silent: [UInt64: Channel] = [:]
    private var nextNumber: UInt64 = 0

    init(maximum: Int, logger: Logger) {
        self.maximum = max(1, maximum)
        self.logger = logger
    }

    /// The default limit under a process's limit of open files: room is left for the store's
    /// files or connections, the listening socket and the runtime's own.
    static func fitting(openFiles: Int) -> Int { max(16, openFiles - 128) }

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

    /// Whether a new connection may stay open, and its number when it may: it is counted, and
    /// known as silent until ``spoke(_:)``. At the limit, the oldest silent connection is closed
    /// to make room for it (its room is given back when it has closed: one beyond the limit for
    /// as long as that takes).
    fileprivate func admit(_ channel: Channel) -> UInt64? {
        let (number, evicted, began) = lock.withLock { () -> (UInt64?, Channel?, Bool) in
            var evicted: Channel?
            if open >= maximum {
                guard let oldest = silent.keys.min() else {
                    let began = shedding == nil
                    shedding = (shedding ?? 0) + 1
                    return (nil, nil, began)
                }
                evicted = silent.removeValue(forKey: oldest)
            }
            let began = evicted != nil && shedding == nil
            if evicted != nil { shedding = (shedding ?? 0) + 1 }
            open += 1
            nextNumber += 1
            silent[nextNumber] = channel
            return (nextNumber, evicted, began)
        }
        if let evicted {
            Counter(label: "fetchpredict_connections_evicted_total").increment()
            evicted.close(promise: nil)
        }
        if number == nil || evicted != nil {
            Counter(label: "fetchpredict_connections_shed_total").increment()
        }
        if began {
            logger.warning(
                """
                shedding connections: \(maximum) are open, the most allowed (--max-connections); \
                those that have sent nothing give way first
                """,
                metadata: ["limit": "\(maximum)"])
        }
        return number
    }

    /// An admitted connection has sent its first bytes: it keeps its room.
    fileprivate func spoke(_ number: UInt64) {
        _ = lock.withLock { silent.removeValue(forKey: number) }
    }

    /// An admitted connection has closed.
    fileprivate func closed(_ number: UInt64) {
        let ended: Int? = lock.withLock {
            silent.removeValue(forKey: number)
            open -= 1
            // Shedding ends once a tenth of the room is free again.
            guard let shed = shedding, open < maximum - max(1, maximum / 10) else { return nil }
            shedding = nil
            return shed
        }
        if let ended {
            logger.notice("stopped shedding connections", metadata: ["shed": "\(ended)", "limit": "\(maximum)"])
        }
    }

    /// How many admitted connections are open.
    var openCount: Int { lock.withLock { open } }
}

/// Admits a connection when it opens, or closes it at once; releases its room when it closes.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    private let limit: ConnectionLimit
    /// The connection's number while it is admitted.
    private var admitted: UInt64?
    private var decided = false
    private var spoken = false

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
        if !spoken, let number = admitted {
            spoken = true
            limit.spoke(number)
        }
        context.fireChannelRead(data)
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        admitted = limit.admit(context.channel)
        if admitted == nil { context.close(promise: nil) }
    }
}
