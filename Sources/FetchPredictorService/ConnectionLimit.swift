import Foundation
import Logging
import Metrics
import NIOCore

/// The most connections the service holds at once: one beyond it is closed as it opens, so that a
/// flood of connections, which needs no key, never takes the file descriptors that the store and
/// the requests being answered need. Shedding is logged once when it starts and once when it
/// ends (not a line a connection), and counted in `fetchpredict_connections_shed_total`.
final class ConnectionLimit: @unchecked Sendable {
    /// The most connections held at once.
    let maximum: Int
    private let logger: Logger
    private let lock = NSLock()
    private var open = 0
    /// Connections closed since shedding began; `nil` while none is being shed.
    private var shedding: Int?

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

    /// Whether a new connection may stay open; counts it when it may.
    fileprivate func admit() -> Bool {
        let (admitted, began) = lock.withLock { () -> (Bool, Bool) in
            if open < maximum {
                open += 1
                return (true, false)
            }
            let began = shedding == nil
            shedding = (shedding ?? 0) + 1
            return (false, began)
        }
        if !admitted {
            Counter(label: "fetchpredict_connections_shed_total").increment()
            if began {
                logger.warning(
                    "shedding connections: \(maximum) are open, the most allowed (--max-connections)",
                    metadata: ["limit": "\(maximum)"])
            }
        }
        return admitted
    }

    /// An admitted connection has closed.
    fileprivate func closed() {
        let ended: Int? = lock.withLock {
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
    private var admitted = false
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
        if admitted {
            admitted = false
            limit.closed()
        }
        context.fireChannelInactive()
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        admitted = limit.admit()
        if !admitted { context.close(promise: nil) }
    }
}
