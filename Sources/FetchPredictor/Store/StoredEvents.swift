import FetchPredictorCore

/// What a write of events stored, device by device (by the store's id of the device): what
/// every store does after storing events reads it (``StoreRules/afterStoring(_:in:)``).
package struct StoredEvents: Sendable {
    /// The devices that got a new event of any kind.
    package private(set) var devices: Set<Int64> = []
    /// Per device, the time of the earliest new event that a model learns from
    /// (`EventKind.isLearnedFromStore`).
    package private(set) var earliestLearned: [Int64: Milliseconds] = [:]
    /// Per device, the earliest and the latest new launch or fetch: the instants whose days'
    /// freshness is kept again (``FreshnessKeeping``).
    package private(set) var scored: [Int64: ClosedRange<Milliseconds>] = [:]

    package init() {}

    /// Notes one new event.
    package mutating func stored(_ kind: EventKind, at time: Milliseconds, device: Int64) {
        stored(
            device: device, earliestLearned: kind.isLearnedFromStore ? time : nil,
            scored: kind.isScoredForFreshness ? time...time : nil)
    }

    /// Notes new events of a device, with the earliest of them a model learns from, if any, and
    /// the earliest and latest launch or fetch among them, if any.
    package mutating func stored(device: Int64, earliestLearned time: Milliseconds?, scored: ClosedRange<Milliseconds>?)
    {
        devices.insert(device)
        if let time, time < earliestLearned[device] ?? .max { earliestLearned[device] = time }
        if let scored {
            let before = self.scored[device]
            self.scored[device] =
                min(scored.lowerBound, before?.lowerBound ?? .max)...max(scored.upperBound, before?.upperBound ?? .min)
        }
    }
}

/// The two statements that follow a write of events, in a store's own SQL: what
/// ``StoreRules/afterStoring(_:in:)`` runs.
package protocol StoredEventsFollowing {
    /// Drops a device's cached models that learned events up to `time` or later.
    func dropCachedModels(device: Int64, learnedFrom time: Milliseconds) async throws
    /// Adds one to each device's version, widens the instants whose freshness is to be kept
    /// again to take in `scored`'s of the device, and returns the new versions by device.
    func bumpVersions(of devices: [Int64], scored: [Int64: ClosedRange<Milliseconds>]) async throws -> [Int64: Int64]
}

extension StoreRules {
    /// After events are stored, in the same transaction: a cached model that did not see a new
    /// event it learns from is dropped (it learned events up to that event's time or later, so
    /// it missed it), and the version of every device written moves, so that a model any process
    /// keeps in memory is learned again before it answers; the days of a new launch or fetch are
    /// marked for their freshness to be kept again (``FreshnessKeeping``).
    ///
    /// - Returns: the new version of each device written.
    @discardableResult
    package static func afterStoring(_ stored: StoredEvents, in store: some StoredEventsFollowing) async throws
        -> [Int64: Int64]
    {
        for (device, time) in stored.earliestLearned.sorted(by: { $0.key < $1.key }) {
            try await store.dropCachedModels(device: device, learnedFrom: time)
        }
        guard !stored.devices.isEmpty else { return [:] }
        return try await store.bumpVersions(of: stored.devices.sorted(), scored: stored.scored)
    }
}
