import Foundation

/// Learns when each app of each device gets opened and what its fetches bring, and plans
/// background-fetch wakes just before the launches it expects.
///
/// A value type with no I/O and no clock: give each device its time zone with
/// ``setTimeZone(_:device:)``, feed it events in time order with ``observe(_:device:)``, tell it
/// each app's interval with ``setPolicy(_:app:device:)``, and ask ``nextWake(after:device:)`` or
/// ``schedule(from:to:device:)`` with the time passed in. No zone is ever assumed: learning or
/// planning for a device without one throws ``PredictorError/noTimeZone(device:)``.
///
/// ```swift
/// var predictor = Predictor()
/// predictor.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
/// predictor.setPolicy(AppPolicy(interval: .minimum), app: "com.example.news", device: "phone")
/// for event in history { try predictor.observe(event, device: "phone") }
/// if let wake = try predictor.nextWake(after: now, device: "phone") {
///     predictor.commit(to: wake, device: "phone")
///     sleep(until: wake.time)  // then fetch, and observe each fetch's result
/// }
/// ```
///
/// Queries never write what is learned: only ``observe(_:device:)`` and
/// ``commit(to:device:)`` do.
///
/// ## Topics
/// - ``observe(_:device:)``
/// - ``nextWake(after:device:)``
/// - ``commit(to:device:)``
/// - ``schedule(from:to:device:)``
/// - ``profile(app:device:days:)``
public struct Predictor: Sendable {
    /// The settings of learning and planning.
    public var configuration: PredictorConfiguration {
        didSet {
            caches.removeAll()
            plansInForce.removeAll()
        }
    }
    /// What forecasts each app's cold launches (``HazardForecaster`` by default). Choose it
    /// where the predictor is made, before it observes events: a forecaster that reads more
    /// of them than the one before (its ``LaunchForecaster/inputs``) misses what was not kept.
    public var forecaster: any LaunchForecaster {
        didSet {
            caches.removeAll()
            plansInForce.removeAll()
        }
    }
    /// The learned model of each device.
    public private(set) var devices: [String: DeviceModel] = [:]
    /// The interval of apps that set none: ``FetchInterval/never``, as on iOS, until changed.
    public var defaultInterval: FetchInterval = .never {
        didSet { if defaultInterval != oldValue { plansInForce.removeAll() } }
    }
    /// Each device's apps' policies, by app.
    private(set) var policies: [String: [String: AppPolicy]] = [:]
    /// Each device's push budget: at most this many device wakes in any hour of its plans.
    private(set) var budgets: [String: Int] = [:]
    /// Each device's cached plans, for ``nextWake(after:device:)``.
    var caches: [String: DeviceCache] = [:]
    /// Each device's plan in force, the one place the predictor keeps it: the schedule made and
    /// the wake last answered (``PlanInForce``), both dropped by every change that may move the
    /// device's plans (an event, a model, a zone, a policy, a budget, the default interval, the
    /// configuration, the forecaster).
    var plansInForce: [String: PlanInForce] = [:]

    /// How far ahead ``nextWake(after:device:)`` looks.
    public static let lookAhead: TimeInterval = 24 * 3600
    /// How long a cached planning horizon is reused before a new one is laid.
    static let horizonReuse: Milliseconds = 12 * .perHour

    /// How far ahead, in minutes, an app's plan is made at first for ``nextWake(after:device:)``:
    /// the whole horizon only when no app wakes sooner. `nil` plans every app through the whole
    /// horizon at once, as a check that the stages change no wake.
    var planningStage: Int? = 4 * 60 {
        didSet {
            caches.removeAll()
            plansInForce.removeAll()
        }
    }

    /// Creates a predictor that has learned nothing yet.
    public init(
        configuration: PredictorConfiguration = PredictorConfiguration(),
        forecaster: any LaunchForecaster = HazardForecaster()
    ) {
        self.configuration = configuration
        self.forecaster = forecaster
    }

    /// Creates a predictor from models learned before, such as a store's cache: learned for
    /// the same forecaster's inputs (``LaunchForecaster/learningKey(_:)``).
    public init(
        configuration: PredictorConfiguration, devices: [String: DeviceModel],
        forecaster: any LaunchForecaster = HazardForecaster()
    ) {
        self.configuration = configuration
        self.forecaster = forecaster
        self.devices = devices
    }

    /// The model of a device to plan for; `nil` for a device the predictor knows nothing of
    /// (no model, no policy), which has nothing to plan in any zone.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device known only by its policies.
    func planningModel(_ device: String) throws(PredictorError) -> DeviceModel? {
        if let model = devices[device] { return model }
        if policies[device]?.isEmpty == false { throw .noTimeZone(device: device) }
        return nil
    }

    /// Replaces a device's learned model, such as with one loaded from a cache.
    public mutating func setModel(_ model: DeviceModel, device: String) {
        devices[device] = model
        caches[device] = nil
        plansInForce[device] = nil
    }

    /// Forgets a device: its model, its policies and its cached plans.
    public mutating func forget(device: String) {
        devices[device] = nil
        policies[device] = nil
        budgets[device] = nil
        caches[device] = nil
        plansInForce[device] = nil
    }

    /// Sets a device's time zone: where its days begin, for events without an offset and for planning.
    public mutating func setTimeZone(_ zone: TimeZone, device: String) {
        if devices[device]?.timeZone == zone { return }
        if devices[device] == nil {
            devices[device] = DeviceModel(timeZone: zone)
        } else {
            devices[device]!.timeZone = zone
        }
        caches[device] = nil
        plansInForce[device] = nil
    }

    /// Sets an app's interval and whether it is enabled; `nil` returns it to the default interval.
    public mutating func setPolicy(_ policy: AppPolicy?, app: String, device: String) {
        guard policies[device]?[app] != policy else { return }
        policies[device, default: [:]][app] = policy
        plansInForce[device] = nil
    }

    /// Sets a device's push budget: at most `wakesPerHour` device wakes in any rolling hour of
    /// its plans, the wakes worth the most expected launches kept (a push service's limit on
    /// silent notifications); `nil` plans as many as are worth it.
    public mutating func setWakesPerHour(_ wakesPerHour: Int?, device: String) {
        let budget = wakesPerHour.map { max(1, $0) }
        guard budgets[device] != budget else { return }
        budgets[device] = budget
        plansInForce[device] = nil
    }

    /// A device's push budget, when it has one.
    public func wakesPerHour(device: String) -> Int? { budgets[device] }

    /// The policy that applies to an app.
    public func policy(app: String, device: String) -> AppPolicy {
        policies[device]?[app] ?? AppPolicy(interval: defaultInterval)
    }

    /// Learns from one event. Events of a device must come in time order.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` when the device has no time zone yet:
    ///   the local day of an event is not known without it.
    /// - Complexity: O(1), and O(apps) on the first event of a new local day.
    public mutating func observe(_ event: Event, device: String) throws(PredictorError) {
        guard devices[device] != nil else { throw .noTimeZone(device: device) }
        // In place: a copy of the model would copy every app's counts.
        devices[device]!.observe(event, configuration, learning: forecaster.inputs)
        plansInForce[device] = nil
    }

    /// The apps the predictor knows on a device: seen in events or given a policy.
    public func apps(device: String) -> [String] {
        Set(devices[device]?.apps.keys.map { $0 } ?? []).union(policies[device]?.keys.map { $0 } ?? []).sorted()
    }

    /// The next device wake strictly after `time`, within a day, or `nil` when none is planned.
    ///
    /// Plans are cached per app and made again only for apps whose model or policy changed, so
    /// that a scheduler can ask after every event; the cache is all a query writes. A scheduler
    /// that carries the wake out says so with ``commit(to:device:)``. The device's daily cap, which
    /// ``schedule(from:to:device:)`` applies over whole days, is not checked here. A device the
    /// predictor knows nothing of (no model, no policy) has no wake.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    /// - Complexity: O(apps) when nothing changed; for each app that changed, O(minutes of the
    ///   first stage), and O(minutes of the horizon) for each app whose plan must look further.
    public mutating func nextWake(after time: Date, device: String) throws(PredictorError) -> DeviceWake? {
        try nextWake(after: time, before: nil, device: device)
    }

    /// The next device wake strictly after `time` and before `limit` (within a day), or `nil`
    /// when none is planned by then: the same wake as ``nextWake(after:device:)`` when it comes
    /// before `limit`. For a scheduler that asks again by `limit` anyway, such as at its next
    /// event, it is cheaper: plans need only look so far ahead.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    public mutating func nextWake(after time: Date, before limit: Date?, device: String) throws(PredictorError)
        -> DeviceWake?
    {
        // A budget weighs each wake against those of the hour after it: the first wake of the
        // whole plan of the day, kept within the budget.
        if budgets[device] != nil {
            let wake = try schedule(from: time, to: time.addingTimeInterval(Self.lookAhead), device: device).wakes.first
            return wake.flatMap { limit == nil || $0.time < limit! ? $0 : nil }
        }
        return try firstWake(after: time, before: limit, device: device)
    }

    /// Records that a scheduler will carry out a wake that ``nextWake(after:before:device:)``
    /// gave: the forecasts of its apps, so that the fetches observed at its time are bound to
    /// them, and the forecasts' correction (``ForecastCalibration``) learns from the cold
    /// launches those fetches serve.
    ///
    /// Call it after the query that gave the wake and before observing anything more: the
    /// forecasts are recorded divided by the device's current correction. (A plan cached from
    /// before the correction last moved was scaled by the one of its time, so its forecast is
    /// recorded slightly off; a known approximation, kept so that figures stay as they were.) A scheduler
    /// that asks again before the wake comes (at a launch, say) commits only to the wake it
    /// carries out. A device with no model records nothing.
    ///
    /// - Complexity: O(apps of the wake).
    public mutating func commit(to wake: DeviceWake, device: String) {
        guard devices[device] != nil else { return }
        let correction = configuration.calibratesForecasts ? devices[device]!.calibration.correction : 1
        // In place, with no copy of the model alive, so that nothing of it is copied.
        for app in wake.apps {
            devices[device]!.calibration.plan(
                app.app, at: wake.time.milliseconds, forecast: app.expectedLaunches / correction)
        }
    }

    /// The next planned wake of one app strictly after `time`, within a day, before coalescing
    /// (which may move it up to ``PredictorConfiguration/coalescingWindow`` earlier to share a
    /// device wake); `nil` when none is planned, as for every app of a device the predictor knows
    /// nothing of (no model, no policy).
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    /// - Complexity: O(minutes of the day × the app's wakes): only this app is planned.
    public func nextWake(after time: Date, device: String, app: String) throws(PredictorError) -> AppWake? {
        guard let model = try planningModel(device), model.lowPowerMode(at: time) == nil else { return nil }
        let start = time.milliseconds.nextWholeMinute
        let clock = HorizonClock.forPlanning(
            from: start, minutes: Int(Self.lookAhead / 60), configuration: configuration, zone: model.timeZone)
        let plan = Planner(device: model, clock: clock, configuration, forecaster: forecaster).planApp(
            app, policy: policy(app: app, device: device), startIndex: 0, planMinutes: clock.planMinutes(configuration))
        return plan?.wakes.first { $0.plannedTime > time }
    }

    /// The planned device wakes strictly after `start` and before `end`, each with the apps it
    /// fetches for and the reasons of each. Planned from the first whole minute after `start`,
    /// as ``nextWake(after:device:)`` is: its wake is the schedule's first. A device the
    /// predictor knows nothing of (no model, no policy) has no wakes.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    /// - Complexity: O(apps × minutes in the span × wakes per app).
    public func schedule(from start: Date, to end: Date, device: String) throws(PredictorError) -> Schedule {
        try schedule(from: start, to: end, plannedFrom: start, device: device)
    }

    /// The schedule from `start` to `end`, planned from `plannedFrom` (at most `start`): its
    /// wakes up to `start` are left out, and its silence is the one at `start`. The plan itself is
    /// the one kept for the device (``plansInForce``) when it was made from the same instant to
    /// the same end, else made now.
    func schedule(from start: Date, to end: Date, plannedFrom: Date, device: String) throws(PredictorError)
        -> Schedule
    {
        guard let model = try planningModel(device) else {
            return Schedule(device: device, from: start, to: end, wakes: [], coldStartApps: [])
        }
        let plan =
            keptPlan(device, from: plannedFrom, to: end) ?? makePlan(model, device, from: plannedFrom, to: end)
        var wakes = plan.wakes
        let silence = model.silence(at: start, configuration)
        var silentApps: [String] = []
        if silence == nil {
            for app in apps(device: device) {
                let policy = policy(app: app, device: device)
                // The device is in use: the app's own silence, without finding the device's last
                // launch again for each app.
                if policy.enabled, policy.interval != .never, model.appSilence(app, at: start, configuration) != nil {
                    silentApps.append(app)
                }
            }
        }
        let lowPowerMode = model.lowPowerMode(at: start)
        if lowPowerMode != nil { wakes = [] }
        if plannedFrom < start { wakes.removeAll { $0.time <= start } }
        return Schedule(
            device: device, from: start, to: end, wakes: wakes, coldStartApps: plan.coldStart, silence: silence,
            silentApps: silentApps, lowPowerMode: lowPowerMode)
    }

    /// The plan kept for the device when it was made from `plannedFrom` to `end`.
    func keptPlan(_ device: String, from plannedFrom: Date, to end: Date) -> DevicePlan? {
        guard let kept = plansInForce[device]?.schedule, kept.plannedAt == plannedFrom.milliseconds,
            kept.end == end.milliseconds
        else { return nil }
        return kept
    }

    /// The device's wakes planned from `plannedFrom` to `end`, coalesced and within its push
    /// budget, and its apps in cold start.
    func makePlan(_ model: DeviceModel, _ device: String, from plannedFrom: Date, to end: Date) -> DevicePlan {
        let first = plannedFrom.milliseconds.nextWholeMinute
        let clock = HorizonClock.forPlanning(
            from: first, minutes: max(1, end.milliseconds.minutes(since: first)), configuration: configuration,
            zone: model.timeZone)
        let planner = Planner(device: model, clock: clock, configuration, forecaster: forecaster)
        var plans: [String: AppPlan] = [:]
        var coldStart: [String] = []
        let apps = apps(device: device)
        let planMinutes = clock.planMinutes(configuration)
        let made = planner.planApps(
            apps.map {
                Planner.AppAsk(
                    app: $0, policy: policy(app: $0, device: device), startIndex: 0, planMinutes: planMinutes)
            })
        for (app, plan) in zip(apps, made) {
            guard let plan else { continue }
            if plan.coldStart { coldStart.append(app) }
            plans[app] = plan
        }
        var wakes = planner.coalesce(plans, device: device, from: Date(milliseconds: first - 1), to: end)
        if let perHour = budgets[device] {
            // The wakes carried out in the hour before the plan count against its first hour.
            let before = model.recentWakes.filter { $0 <= plannedFrom.milliseconds && $0 > first - .perHour }
            wakes = Planner.capPerHour(wakes, perHour: perHour, after: before)
        }
        return DevicePlan(
            plannedAt: plannedFrom.milliseconds, end: end.milliseconds, wakes: wakes, coldStart: coldStart)
    }

    /// What was learned of an app: its daily profile for a kind of day, with its peaks; the
    /// empty profile (``DailyProfile/empty``) for a device the predictor has no model of, as for
    /// an app it has not seen.
    public func profile(app: String, device: String, days: DayKind = .all) -> DailyProfile {
        devices[device]?.profile(app: app, for: days, configuration) ?? .empty
    }

    /// How an app is used lately, as of `now`: its last launch, its last week against its habits,
    /// and the share of its usual launches the planner expects now; ``AppState/noHistory`` for
    /// a device the predictor has no model of, as for an app it has not seen.
    public func state(app: String, device: String, now: Date) -> AppState {
        devices[device]?.state(app: app, now: now, configuration) ?? .noHistory
    }

    /// Whether the device, or else `app` on it, has gone silent by `now`: no launch for longer
    /// than ``PredictorConfiguration/silenceLimit``, so no wake; `nil` while it is in use, and for
    /// a device the predictor has no model of.
    public func silence(device: String, app: String? = nil, at now: Date) -> Silence? {
        devices[device]?.silence(app: app, at: now, configuration)
    }

    /// Low Power Mode when the device's events say it is on at `now`: then no app of it is
    /// woken. `nil` when it is off, or the device never said.
    public func lowPowerMode(device: String, at now: Date) -> LowPowerMode? {
        devices[device]?.lowPowerMode(at: now)
    }

    /// Whether an app has too little history to learn from yet.
    public func isColdStart(app: String, device: String) -> Bool {
        devices[device]?.isColdStart(app: app, configuration) ?? true
    }
}
