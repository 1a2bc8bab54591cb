import Foundation

/// What a store answers of a device's kept plan (``PlanKeeping``) at a time.
public enum KeptPlanAnswer: Sendable, Hashable {
    /// The plan kept for the device holds at the time: its first wake after it (of the app asked
    /// about, with that app alone), or `nil` when it has none.
    case wake(DeviceWake?)
    /// No kept plan holds then; one made now is kept if the device is still at `generation`
    /// (``PlanKeeping/keepPlan(_:device:settings:validFrom:generation:)``).
    case notKept(generation: Int64)
}

/// What a store keeps of each device's plan in force (`DevicePlan`), so that a new process
/// answers the next wake without learning the device's model: the plan holds while the device's
/// generation (its kept wake's, ``KeptWake/generation``, moved on by every change of its events,
/// zone, intervals, push budget, forecaster or the store's default) is the one it was kept at, it
/// was made with the same settings, and the time asked is within it.
public protocol PlanKeeping: AnyObject, Sendable {
    /// The device's next wake at `time` by its kept plan, when one holds then: the first wake
    /// strictly after `time` (of `app`, within a day, when one is given).
    ///
    /// - Parameters:
    ///   - device: the device, as the store names it.
    ///   - settings: the settings plans are made with (`FetchScheduler.planningSettingsKey`).
    ///   - time: the instant asked about.
    ///   - app: the app whose next wake is asked; `nil` for the device's.
    func keptPlanWake(device: String, settings: String, at time: Milliseconds, app: String?) async throws
        -> KeptPlanAnswer

    /// Keeps a device's plan for the times from `validFrom` until its re-plan
    /// (`DevicePlan.replan`), made with `settings`, if the device is still at `generation`.
    /// - Returns: whether it was kept.
    @discardableResult
    func keepPlan(_ plan: DevicePlan, device: String, settings: String, validFrom: Milliseconds, generation: Int64)
        async throws -> Bool
}

/// A kept plan as a store's rows: each wake's time and apps (as a kept wake keeps them,
/// ``KeptWake/encodeApps(_:)``) at its position, and each app's wakes by position, so that the
/// first wake of an app after a time is found by an index.
package struct KeptPlanRows: Sendable {
    package var wakes: [(position: Int64, time: Milliseconds, apps: String)] = []
    package var apps: [(app: String, position: Int64, time: Milliseconds)] = []

    package init(_ plan: DevicePlan) {
        for (position, wake) in plan.wakes.enumerated() {
            let (position, time) = (Int64(position), wake.time.milliseconds)
            wakes.append((position, time, KeptWake.encodeApps(wake.apps)))
            for app in Set(wake.apps.map(\.app)) { apps.append((app, position, time)) }
        }
    }

    /// The answer of a kept plan that holds, from the row of its first wake after the time asked
    /// (`nil` when it has none): the device's wake, of `app` alone when one is asked; not kept
    /// when the row's apps are not the apps of this version's types (another version kept them),
    /// so that the plan is made again.
    package static func answer(
        device: String, generation: Int64, time: Milliseconds?, apps text: String?, app: String?
    ) -> KeptPlanAnswer {
        guard let time, let text else { return .wake(nil) }
        guard var apps = try? JSONDecoder().decode([AppWake].self, from: Data(text.utf8)) else {
            return .notKept(generation: generation)
        }
        if let app { apps.removeAll { $0.app != app } }
        return .wake(DeviceWake(device: device, time: Date(milliseconds: time), apps: apps))
    }
}
