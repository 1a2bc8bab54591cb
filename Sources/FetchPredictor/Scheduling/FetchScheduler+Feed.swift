import Foundation
import Synchronization

/// The fleet's wakes: each device's planned wake kept in the store (``WakeKeeping``), the devices
/// due before a time found by its index, and leased to one worker each.
extension FetchScheduler {
    /// The wake the device waits for at `time` (`Predictor.plannedWake(asOf:device:)`): the
    /// store's kept plan when it holds then, else planned now, and kept when nothing the store
    /// holds comes after `time` (a plan as of an earlier time is answered, never kept).
    public func plannedWake(asOf time: Date, device: String) async throws -> PlannedWake {
        try await plan(device, asOf: time).planned
    }

    /// The plan of a device at `time`, whether it is the store's kept one (or now kept, when
    /// `keeping`), and the generation of the device's kept plan it was made at. A learn waits
    /// until `deadline` (by default ``learningWait`` from now).
    private func plan(
        _ device: String, asOf time: Date, keeping: Bool = true, until deadline: LearningDeadline? = nil
    ) async throws -> (
        planned: PlannedWake, kept: Bool, generation: Int64
    ) {
        try await checkWakePlanning()
        let kept = try await store.keptWake(device: device)
        if let kept, kept.planned.holds(at: time) { return (kept.planned, true, kept.generation) }
        let planned: PlannedWake
        do {
            planned = try await withSlot(device, asOf: time, until: deadline) { slot in
                try slot.predictor.plannedWake(asOf: time, device: slot.device)
            }
        } catch StoreError.noTimeZone {
            // Never planned until a zone is given, which makes the kept plan hold no more.
            planned = PlannedWake(wake: nil, plannedAt: .distantPast, validUntil: .distantFuture)
        }
        let generation = kept?.generation ?? 0
        guard keeping, kept != nil, planned.holds(at: time),
            try await !store.hasEvents(device: device, after: time.knownThrough)
        else { return (planned, false, generation) }
        return (planned, try await store.keepWake(planned, device: device, generation: generation), generation)
    }

    /// Plans the devices of `scope` whose kept wake does not hold at `time`.
    /// - Returns: the plans made, each with the generation it was made at and whether it was
    ///   kept (it is not as of a time before the store's last event, nor when not `keeping`).
    ///   Learning waits ``learningWait`` from the start in all, not for each device.
    private func planStale(scope: String?, asOf time: Date, keeping: Bool = true) async throws
        -> [(plan: KeptWake, kept: Bool)]
    {
        let deadline = learningDeadline()
        try await checkWakePlanning()
        var plans: [(plan: KeptWake, kept: Bool)] = []
        var after: String?
        let page = 256
        while true {
            let names = try await store.devicesToPlan(scope: scope, at: time.milliseconds, after: after, limit: page)
            for name in names {
                do {
                    let (planned, kept, generation) = try await plan(
                        name, asOf: time, keeping: keeping, until: deadline)
                    plans.append((KeptWake(device: name, planned: planned, generation: generation), kept))
                } catch StoreError.unknownDevice {
                    continue  // erased meanwhile
                }
            }
            guard names.count == page else { return plans }
            after = names.last
        }
    }

    /// The devices of `scope` whose wake as of `time` (``plannedWake(asOf:device:)``) comes before
    /// `before`, in the order of their wakes (then names), after `cursor`: each device's wake
    /// exactly as ``nextWake(after:before:device:)`` gives it at `time`, found by the store's
    /// index. Devices whose kept plan does not hold at `time` are planned first; asked as of a
    /// time before their last event, they are planned and not kept (every device, for a time
    /// before the fleet's events: slow, but right).
    ///
    /// Wakes name devices as the store does. With `keeping` false the plans made are not kept:
    /// for a time other than the present, whose plans would only be planned again for the
    /// present (by a service's sweep, say), each undoing the other's.
    public func dueWakes(
        scope: String?, before: Date, asOf time: Date, after cursor: WakeCursor? = nil, limit: Int,
        keeping: Bool = true
    ) async throws -> [DeviceWake] {
        let planned = try await planStale(scope: scope, asOf: time, keeping: keeping)
        var wakes = try await store.dueWakes(
            scope: scope, at: time.milliseconds, before: before.milliseconds, after: cursor, limit: limit
        ).compactMap(\.planned.wake)
        let later = { (wake: DeviceWake) in
            cursor.map { (wake.time.milliseconds, wake.device) > ($0.time, $0.device) } ?? true
        }
        // Every plan just made is in the answer, kept or not: one kept, then moved by another's
        // write before the read of the kept plans, would otherwise be in neither (the store's
        // row, when it holds again, is the newer and wins).
        let answered = Set(wakes.map(\.device))
        wakes += planned.compactMap(\.plan.planned.wake).filter {
            $0.time < before && later($0) && !answered.contains($0.device)
        }
        wakes.sort { ($0.time, $0.device) < ($1.time, $1.device) }
        return Array(wakes.prefix(limit))
    }

    /// Leases to the caller up to `limit` of the wakes ``dueWakes(scope:before:asOf:after:limit:keeping:)``
    /// gives (from its first page), that no other lease holds at `clock`, until `clock` +
    /// `lease`: no other claim gets a device's wake until the lease ends (whatever time it plans
    /// the device as of), or until the device's plan moves on (its fetch results recorded, a
    /// setting changed), when its new wake is free.
    /// Only kept plans are leased: as of a time before a device's last event, none is.
    public func claimWakes(
        scope: String?, before: Date, asOf time: Date, limit: Int, lease: TimeInterval, clock: Date
    ) async throws -> [DeviceWake] {
        // The plans are kept in the claim's transaction: none kept for another time (by a sweep
        // at the service's clock, for a claim as of another) comes between them and the claim.
        // A plan of a time before a device's last event holds no more than then, and is not kept.
        var plans: [KeptWake] = []
        for (plan, _) in try await planStale(scope: scope, asOf: time, keeping: false)
        where try await !store.hasEvents(device: plan.device, after: time.knownThrough) {
            plans.append(plan)
        }
        return try await store.claimWakes(
            keeping: plans, scope: scope, at: time.milliseconds, before: before.milliseconds, limit: limit,
            clock: clock.milliseconds, leaseUntil: clock.addingTimeInterval(lease).milliseconds
        ).compactMap(\.planned.wake)
    }

    /// Plans again up to `limit` devices whose kept wake holds no more at `time` (of every scope),
    /// going on from `after`, the last device the previous call planned: what a service's sweep
    /// does at each tick, so that the feed finds every plan kept.
    /// - Returns: the devices planned, in name order; fewer than `limit` when the sweep went round.
    ///
    /// A device that may not be learned now (``SchedulerBusy``, its tenant at its limit of
    /// learns) is left for a later round: the sweep never takes a client's turn.
    public func planKeptWakes(asOf time: Date, after: String?, limit: Int) async throws -> [String] {
        let names = try await store.devicesToPlan(scope: nil, at: time.milliseconds, after: after, limit: limit)
        try await planKeptWakes(of: names, asOf: time)
        return names
    }

    /// Plans the kept wakes of `devices` at `time`, as ``planKeptWakes(asOf:after:limit:)`` does,
    /// and keeps them in one transaction.
    ///
    /// It gives its thread up between devices: a plan's reads of SQLite run on the caller's
    /// thread, so a sweep of many devices would otherwise hold a thread of Swift's pool, which
    /// never preempts a task, for the whole of their planning, and every request waiting for that
    /// thread with it.
    public func planKeptWakes(of devices: [String], asOf time: Date) async throws {
        try await checkWakePlanning()
        var plans: [KeptWake] = []
        for name in devices {
            await Task.yield()
            do {
                // Not waiting for learning: the sweep never takes a client's turn.
                let (planned, kept, generation) = try await plan(
                    name, asOf: time, keeping: false, until: learningDeadline(waiting: false))
                // A plan kept already, or of a time before the device's last event, is not kept again.
                guard !kept, planned.holds(at: time), try await !store.hasEvents(device: name, after: time.knownThrough)
                else { continue }
                plans.append(KeptWake(device: name, planned: planned, generation: generation))
            } catch StoreError.unknownDevice {
                continue
            } catch is SchedulerBusy {
                continue
            }
        }
        _ = try await store.keepWakes(plans)
    }

    /// Makes the store's kept wakes planned with other settings plan again, once a process.
    private func checkWakePlanning() async throws {
        try await wakePlanning.once { try await store.planWakesWith(settings: planningSettingsKey) }
    }

    /// A description of the settings that plans are made with, the default forecaster's name
    /// among them: a store's kept wakes planned with others are planned again
    /// (``WakeKeeping/planWakesWith(settings:)``).
    public var planningSettingsKey: String { "\(configuration) forecaster: \(forecaster.name)" }
}

/// Runs a body once, the first time it succeeds; callers that come while it runs wait for it.
final class Once: Sendable {
    private let lock = AsyncLock()
    private let done = Mutex(false)

    func once(_ body: () async throws -> Void) async rethrows {
        if done.withLock({ $0 }) { return }
        await lock.lock()
        defer { lock.unlock() }
        guard !done.withLock({ $0 }) else { return }
        try await body()
        done.withLock { $0 = true }
    }
}
