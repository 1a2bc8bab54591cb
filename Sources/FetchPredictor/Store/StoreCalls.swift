import Synchronization

/// How many calls a store has answered, by call: each read or transaction of its own, named by
/// the store's method that made it (`planningSettings`, `keptWake`, `forEachEvent`...). A query's
/// cost to the store is the difference of two counts; the service exports them as
/// `fetchpredict_store_calls_total{call}`.
///
/// ```swift
/// let before = store.calls.counts
/// _ = try await scheduler.nextWake(after: now, device: "phone")
/// let made = store.calls.made(since: before)  // ["planningSettings": 1]
/// ```
public final class StoreCalls: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var observer: (@Sendable (String) -> Void)?
    }
    private let state = Mutex(State())

    public init() {}

    /// The calls so far, by name.
    public var counts: [String: Int] { state.withLock { $0.counts } }

    /// The calls made since the store's calls were `before`, by name: only those made.
    public func made(since before: [String: Int]) -> [String: Int] {
        counts.reduce(into: [:]) { made, call in
            let more = call.value - before[call.key, default: 0]
            if more > 0 { made[call.key] = more }
        }
    }

    /// Calls `observer` with each call's name from now on, as it is made (a metrics counter's
    /// increment): one observer, the last given.
    public func observe(_ observer: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// Counts a call of the store's method `function` (as `#function` names it).
    package func count(_ function: StaticString) {
        let name = Self.name(function)
        let observer = state.withLock { state in
            state.counts[name, default: 0] += 1
            return state.observer
        }
        observer?(name)
    }

    /// A method's name without its arguments: `keptWake` of `keptWake(device:)`.
    static func name(_ function: StaticString) -> String {
        let text = function.description
        return String(text.prefix { $0 != "(" })
    }
}
