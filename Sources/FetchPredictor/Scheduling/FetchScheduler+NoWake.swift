import Foundation

/// A next wake, or why there is none, in one query of the device.
extension FetchScheduler {
    /// Why the device (or `app` on it) has no wake as of `now`, when its settings or history
    /// explain it (`Predictor.noWake(device:app:asOf:)`); `nil` when they do not, and no launch
    /// is expected soon enough to be worth a wake. A next wake and its reason come in one query
    /// from ``nextWakeOrReason(after:before:device:app:)``.
    public func whyNoWake(device: String = "default", app: String? = nil, asOf now: Date) async throws -> NoWake? {
        try await withDevice(device, asOf: now) { predictor in
            predictor.noWake(device: device, app: app, asOf: now)
        }
    }

    /// The next device wake strictly after `time` and before `limit`
    /// (``nextWake(after:before:device:)``), or with `app`, the app's (``nextWake(after:device:app:)``);
    /// when none is planned, why (`Predictor.noWake(device:app:asOf:)`), in one query of the
    /// device: what the service's next-wake and the command line's `next` answer. A wake planned
    /// only after `limit` is no wake, and no reason.
    ///
    /// - Parameters:
    ///   - time: the time asked about; the answer is as of it.
    ///   - limit: only a wake before it.
    ///   - device: the device.
    ///   - app: the app asked about, or `nil` for the device.
    public func nextWakeOrReason(
        after time: Date, before limit: Date? = nil, device: String = "default", app: String? = nil
    ) async throws -> (wake: DeviceWake?, noWake: NoWake?) {
        try await nextWake(after: time, before: limit, device: device, app: app, withReason: true)
    }

    /// ``nextWakeOrReason(after:before:device:app:)``; without `withReason`, the reason is left
    /// out, so that a kept plan with no wake answers without learning the device, and a loaded one
    /// without working the reason out.
    func nextWake(after time: Date, before limit: Date?, device: String, app: String?, withReason: Bool)
        async throws -> (wake: DeviceWake?, noWake: NoWake?)
    {
        if keepsPlans {
            return try await nextWakeByKeptPlan(
                after: time, before: limit, device: device, app: app, withReason: withReason)
        }
        return try await withSlot(device, asOf: time) { slot in
            try wakeOrReason(in: slot, after: time, before: limit, app: app, withReason: withReason)
        }
    }

    /// The wake the slot's device carries out after `time` (before `limit`, when one is given),
    /// committed to (`Predictor/commit(to:device:)`), or, with `app`, the first wake of the plan
    /// in force that fetches for it, with it alone in its apps; when none is planned and
    /// `withReason`, why. Call holding the slot's lock, prepared (``withSlot(_:asOf:until:_:)``).
    func wakeOrReason(
        in slot: DeviceSlot, after time: Date, before limit: Date?, app: String?, withReason: Bool
    ) throws -> (wake: DeviceWake?, noWake: NoWake?) {
        let planned: DeviceWake?
        if let app {
            planned = try Self.appWake(&slot.predictor, after: time, device: slot.device, app: app)
        } else {
            planned = try slot.predictor.plannedWake(asOf: time, device: slot.device).wake
        }
        guard let wake = planned else {
            return (nil, withReason ? slot.predictor.noWake(device: slot.device, app: app, asOf: time) : nil)
        }
        guard limit.map({ wake.time < $0 }) ?? true else { return (nil, nil) }
        if app == nil { slot.predictor.commit(to: wake, device: slot.device) }
        return (wake, nil)
    }
}
