import Foundation
import Synchronization

/// Next wakes from the plans a store keeps (``PlanKeeping``), for a scheduler that
/// ``FetchScheduler/keepsPlans``: a process that asks once answers without learning the device.
extension FetchScheduler {
    /// The next wake of `device` (of `app` alone, within a day, when one is given) strictly after
    /// `time` and before `limit`, or, when none is planned, why: from the store's kept plan when
    /// one holds then and has a wake, else planned from the device's model as the other queries
    /// are, and the plan in force kept for the next process.
    /// Without `withReason`, a kept plan with no wake answers so, with no reason.
    func nextWakeByKeptPlan(after time: Date, before limit: Date?, device: String, app: String?, withReason: Bool)
        async throws -> (wake: DeviceWake?, noWake: NoWake?)
    {
        let settingsKey = planningSettingsKey
        var generation: Int64?
        switch try await store.keptPlanWake(device: device, settings: settingsKey, at: time.milliseconds, app: app) {
        case .wake(let wake?): return (limit.map { wake.time < $0 } ?? true ? wake : nil, nil)
        // No wake: why is the model's to say, and the plan is kept already.
        case .wake(nil):
            guard withReason else { return (nil, nil) }
        case .notKept(let at): generation = at
        }
        let (answer, keeping) = try await withSlot(device, asOf: time) { slot in
            let answer = try wakeOrReason(in: slot, after: time, before: limit, app: app, withReason: withReason)
            return (answer, generation == nil ? nil : try planToKeep(in: slot, asOf: time))
        }
        if let keeping, let generation {
            // Kept while the caller goes on with the answer: writing a day's plan of 200 apps
            // costs more than making it (docs/experiments.md).
            let store = self.store
            keptPlans.add("\(device) \(generation) \(keeping.plan.plannedAt)") {
                try await store.keepPlan(
                    keeping.plan, device: device, settings: settingsKey, validFrom: keeping.validFrom,
                    generation: generation)
            }
        }
        return answer
    }

    /// Waits until the plans the queries made are kept (``keepsPlans``), and throws what keeping
    /// one threw: a process that answered calls it before it exits.
    public func plansKept() async throws {
        try await keptPlans.finish()
    }

    /// The slot's plan in force at `time`, and from when a new process would make the same one:
    /// when the model learned every event the store holds, all before `time` (so a query as of
    /// any later time learns the same), the device has an event to plan from (a device with none
    /// is planned from the time asked), and Low Power Mode is off (no wake is planned in it).
    private func planToKeep(in slot: DeviceSlot, asOf time: Date) throws -> (plan: DevicePlan, validFrom: Milliseconds)?
    {
        let device = slot.device
        guard let newest = slot.loaded?.newestOfEverything, newest < time.milliseconds,
            slot.predictor.devices[device]?.lastPlanningTime != nil,
            slot.predictor.lowPowerMode(device: device, at: time) == nil,
            let plan = try slot.predictor.planInForce(asOf: time, device: device)
        else { return nil }
        return (plan, max(plan.plannedAt, newest + 1))
    }
}

/// The plans being kept in the store while the queries that made them have answered: each in a
/// task that leaves the table when done, the first error kept for ``finish()``.
final class PlansBeingKept: Sendable {
    private struct State {
        var tasks: [String: Task<Void, Never>] = [:]
        var error: (any Error)?
    }
    private let state = Mutex(State())

    /// Keeps a plan by `keep`, in a task of its own, unless the same plan (`key`: the device, its
    /// generation and the plan's instant) is being kept.
    func add(_ key: String, _ keep: @escaping @Sendable () async throws -> Void) {
        state.withLock { state in
            guard state.tasks[key] == nil else { return }
            state.tasks[key] = Task {
                var failure: (any Error)?
                do { try await keep() } catch { failure = error }
                self.state.withLock { state in
                    state.tasks[key] = nil
                    if state.error == nil { state.error = failure }
                }
            }
        }
    }

    /// Waits for every plan being kept; throws the first error of one since the last call.
    func finish() async throws {
        let running = state.withLock { Array($0.tasks.values) }
        for task in running { await task.value }
        let error = state.withLock { state in
            defer { state.error = nil }
            return state.error
        }
        if let error { throw error }
    }
}
