import Foundation

/// What a device's model answers, as of a time: its plan, what it learned of each app, its state.
/// Each question holds the device's lock and loads its model as of its time
/// (``FetchScheduler/withDevice(_:asOf:_:)``).
extension FetchScheduler {
    /// The next device wake strictly after `time`, within a day, that fetches for `app`, with that
    /// app alone in its apps: the first wake of the device's plan in force
    /// (``schedule(from:to:device:)``) that holds it, coalesced and kept within the push budget,
    /// so that every question is answered by one plan. `nil` when that plan has none for it.
    public func nextWake(after time: Date, device: String = "default", app: String) async throws -> DeviceWake? {
        try await nextWake(after: time, before: nil, device: device, app: app, withReason: false).wake
    }

    /// The first wake of the device's plan in force at `time` that fetches for `app`, within a
    /// day, with that app alone in its apps: ``nextWake(after:device:app:)``'s answer.
    static func appWake(_ predictor: inout Predictor, after time: Date, device: String, app: String) throws
        -> DeviceWake?
    {
        guard predictor.lowPowerMode(device: device, at: time) == nil,
            let plan = try predictor.planInForce(asOf: time, device: device)
        else { return nil }
        return plan.firstWake(after: time, app: app)
    }

    /// The device wakes planned strictly after `start` and before `end`, as of `start`, by the
    /// plan in force then (`Predictor.plannedSchedule(from:to:device:)`): the first is the one
    /// ``nextWake(after:before:device:)`` gives at `start`.
    public func schedule(from start: Date, to end: Date, device: String = "default") async throws -> Schedule {
        try await withDevice(device, asOf: start) { predictor in
            try predictor.keepPlan(asOf: start, to: end, device: device)
            return try predictor.plannedSchedule(from: start, to: end, device: device)
        }
    }

    /// What was learned of an app as of `time` (by default, of every event): its daily profile
    /// for a kind of day, with its peaks.
    public func profile(
        app: String, device: String = "default", days: DayKind = .all, asOf time: Date = .distantFuture
    ) async throws -> DailyProfile {
        try await withDevice(device, asOf: time) { predictor in
            predictor.profile(app: app, device: device, days: days)
        }
    }

    /// How an app is used lately, as of `now`.
    public func state(app: String, device: String = "default", now: Date) async throws -> AppState {
        try await withDevice(device, asOf: now) { predictor in
            predictor.state(app: app, device: device, now: now)
        }
    }

    /// What the device's state events say as of `now`: Low Power Mode, power, network and
    /// battery, and how often it is on power and on an unmetered network at each time of day.
    public func stateSummary(device: String = "default", now: Date) async throws -> DeviceStateSummary {
        try await withDevice(device, asOf: now) { predictor in
            predictor.stateSummary(device: device, now: now)
        }
    }

    /// Whether an app has too little history to learn from yet, as of `time` (by default, of every
    /// event).
    public func isColdStart(
        app: String, device: String = "default", asOf time: Date = .distantFuture
    ) async throws -> Bool {
        try await withDevice(device, asOf: time) { predictor in
            predictor.isColdStart(app: app, device: device)
        }
    }

    /// The apps of a device that the predictor knows, as of `time` (by default, of every event).
    public func apps(device: String = "default", asOf time: Date = .distantFuture) async throws -> [String] {
        try await withDevice(device, asOf: time) { predictor in
            predictor.apps(device: device)
        }
    }

    /// The time of the latest event of a device learned as of `time` (by default, of every
    /// event); `nil` when it has none.
    public func lastEventTime(device: String = "default", asOf time: Date = .distantFuture) async throws -> Date? {
        try await withDevice(device, asOf: time) { predictor in
            predictor.devices[device]?.lastEventTime.map { Date(milliseconds: $0) }
        }
    }

    /// The apps of a device that the predictor knows, as of `time`, each with the policy it is
    /// planned with: its interval (its own, else the device's or the store's default) and
    /// whether fetch is on. From the model the scheduler holds, without counting events.
    public func policies(
        device: String = "default", asOf time: Date = .distantFuture
    ) async throws -> [String: AppPolicy] {
        try await withDevice(device, asOf: time) { predictor in
            Dictionary(
                uniqueKeysWithValues: predictor.apps(device: device).map {
                    ($0, predictor.policy(app: $0, device: device))
                })
        }
    }
}
