import FetchPredictor
import Synchronization

/// The digests of the store's valid keys, as the service last read them: a key among them is
/// looked up and served whatever its address has guessed (``KeyGuessLimit``), so that one worker
/// guessing wrong keys behind a NAT or an office proxy never locks out the others with right
/// ones. A key is added once a lookup finds it valid and dropped once one finds it revoked; all
/// are read again (``refresh(from:now:)``) when an address out of guesses sends a key not among
/// them and they are older than ``freshness``: a key made on another instance is served within
/// that. The store stays the judge: a key among them is still looked up, and refused once revoked.
final class KnownKeys: Sendable {
    /// How old the digests may be before an unknown key from an address out of guesses has them
    /// read again.
    static let freshness: Duration = .seconds(5)

    private let state = Mutex<(digests: Set<String>, readAt: ContinuousClock.Instant?)>(([], nil))

    func contains(_ digest: String) -> Bool { state.withLock { $0.digests.contains(digest) } }

    func insert(_ digest: String) { _ = state.withLock { $0.digests.insert(digest) } }

    func remove(_ digest: String) { _ = state.withLock { $0.digests.remove(digest) } }

    /// Reads the valid keys' digests again when they are older than ``freshness`` (once for
    /// requests that ask at once).
    func refresh(from store: any APIKeyKeeping, now: ContinuousClock.Instant = .now) async throws {
        let due = state.withLock { state -> Bool in
            guard state.readAt.map({ now - $0 >= Self.freshness }) ?? true else { return false }
            state.readAt = now
            return true
        }
        guard due else { return }
        let digests = try await store.validKeyDigests()
        state.withLock { $0.digests = digests }
    }
}
