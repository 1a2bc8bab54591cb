import FetchPredictor
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The tenants of the API keys in use, kept in memory so that a request's key costs the store no
/// call, while a revoked key is still refused within ``interval``.
///
/// A check asks the store every interval what has become of its keys
/// (``APIKeyKeeping/keyRevocations()``): one call an interval, however many requests come. A
/// key revoked by any process (another instance, `fetchpredict keys revoke`) moves it, and every
/// key is then forgotten and looked up again. While the checks fail or fall behind (none began
/// in the last two intervals), every key is looked up, as with no cache: a key is never trusted
/// for more than two intervals after the store last said no key was revoked. Only keys found
/// are kept; a wrong one is looked up each time (``KeyGuessLimit`` bounds how often). The first
/// check that fails is logged as a warning, and the first that answers after it as a notice.
final class KeyCache: Service, Sendable {
    private struct State {
        /// Each key's tenant, by the key's digest.
        var tenants: [String: String] = [:]
        /// What the last check found.
        var revocations: KeyRevocations?
        /// When the last check that answered began.
        var checkedAt: ContinuousClock.Instant?
        /// Moves on each time the keys are forgotten: a lookup begun before is not kept.
        var generation = 0
        /// Whether the last check failed.
        var failing = false
    }

    let store: any APIKeyKeeping
    /// How often the store is asked whether a key was revoked; `.zero` for no cache.
    let interval: Duration
    /// The most keys kept: past it, all are forgotten (a service has a key a client, not more).
    static let capacity = 10_000
    private let state = Mutex(State())
    private let logger: Logger

    init(store: any APIKeyKeeping, interval: Duration, logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    /// The tenant of `key`, whose digest is `digest`: from memory when a check vouches for it,
    /// else from the store; `nil` when it is no key or was revoked.
    func tenant(forKey key: String, digest: String) async throws -> String? {
        let now = ContinuousClock.now
        let (cached, generation) = state.withLock { state -> (String?, Int?) in
            guard interval > .zero, let checked = state.checkedAt, now < checked + interval * 2 else {
                return (nil, nil)
            }
            return (state.tenants[digest], state.generation)
        }
        if let cached { return cached }
        let tenant = try await store.tenant(forKey: key)
        if let tenant, let generation {
            state.withLock { state in
                guard state.generation == generation else { return }
                if state.tenants.count >= Self.capacity { state.tenants = [:] }
                state.tenants[digest] = tenant
            }
        }
        return tenant
    }

    /// Asks the store what has become of its keys, and forgets them all when one was made or
    /// revoked since the last check. A check that fails vouches for nothing.
    func check() async {
        let began = ContinuousClock.now
        let revocations: KeyRevocations
        do {
            revocations = try await store.keyRevocations()
        } catch {
            let first = state.withLock { state in
                defer { state.failing = true }
                return !state.failing
            }
            if first {
                logger.warning(
                    "the check of revoked keys failed: every key is looked up in the store until a check answers",
                    metadata: ["error": "\(error)"])
            }
            return
        }
        let recovered = state.withLock { state in
            if state.revocations != revocations {
                state.tenants = [:]
                state.generation += 1
                state.revocations = revocations
            }
            state.checkedAt = began
            defer { state.failing = false }
            return state.failing
        }
        if recovered { logger.notice("the check of revoked keys answers again: keys are kept in memory") }
    }

    /// Checks every ``interval`` until the service stops.
    func run() async throws {
        guard interval > .zero else { return }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.check()
                try? await Task.sleep(for: self.interval)
            }
        }
    }
}
