import Foundation

/// The search for a device's next wake, which runs after every event: each app's plan is cached,
/// made at first only a few hours ahead, made through the whole horizon only when it must, and
/// only the first wakes are coalesced.
extension Predictor {
    struct CachedPlan {
        var version: Int
        /// The device's ``LaunchTraces/version`` the plan was made at, when its forecaster reads
        /// the traces (``ForecastInputs/launchFeatures``).
        var traces: Int?
        /// The device's ``StateHabits/version`` the plan was made at, when the app has constraints
        /// or the battery was low.
        var state: Int?
        var policy: AppPolicy
        var plan: AppPlan?
        /// The minute of the horizon the plan was made from: where it goes on from.
        var startIndex: Int
        /// The minute of the horizon the app went silent at, when within it
        /// (``Planner/silenceIndex(app:)``): a launch of another app moves the device's.
        var silenceIndex: Int?
    }

    struct CachedProfiles {
        var version: Int
        var profiles: (weekday: DailyProfile, weekend: DailyProfile)
        /// The habit profiles a launch model's features read, made when a forecaster that reads
        /// them first asks, after a number of the app's launches: only a launch, warm or cold,
        /// moves its habits (``HabitCounts``), not a fetch result or a new day.
        var habits: (launches: Int, profiles: (weekday: DailyProfile, weekend: DailyProfile))?
    }

    /// A device's planning horizon, and the plans and profiles of its apps made on it.
    struct DeviceCache {
        var clock: HorizonClock
        var plans: [String: CachedPlan] = [:]
        var profiles: [String: CachedProfiles] = [:]
        /// The person's own rates at a ``LaunchTraces/version``, which only a launch, an unlock or
        /// a notification changes: read once for the plans made between them.
        var ownRates: (traces: Int, snapshot: OwnRates.Snapshot)?

        /// A planner on this horizon, with the own rates read again only when the traces changed.
        mutating func planner(
            _ model: DeviceModel, _ configuration: PredictorConfiguration, forecaster: any LaunchForecaster
        ) -> Planner {
            if ownRates?.traces != model.traces.version {
                ownRates = (model.traces.version, Planner.ownRates(model, configuration, forecaster: forecaster))
            }
            return Planner(
                device: model, clock: clock, configuration, forecaster: forecaster, ownRates: ownRates?.snapshot)
        }

        /// An app's planning profiles, learned again only when its profile's version changed.
        mutating func planningProfiles(
            app: String, version: Int, model: DeviceModel, _ configuration: PredictorConfiguration
        ) -> (weekday: DailyProfile, weekend: DailyProfile) {
            if let cached = profiles[app], cached.version == version { return cached.profiles }
            let made = model.planningProfiles(app: app, configuration)
            // The habits are kept by the app's launches, which a new day does not move.
            profiles[app] = CachedProfiles(version: version, profiles: made, habits: profiles[app]?.habits)
            return made
        }

        /// An app's habit profiles, for a launch model's features: made again only after a
        /// launch of the app (`launches`, how many it had). Call after
        /// ``planningProfiles(app:version:model:_:)``.
        mutating func habitProfiles(
            app: String, launches: Int, model: DeviceModel, _ configuration: PredictorConfiguration
        ) -> (weekday: DailyProfile, weekend: DailyProfile) {
            if let cached = profiles[app]?.habits, cached.launches == launches { return cached.profiles }
            let made = model.habitProfiles(app: app, configuration)
            profiles[app]?.habits = (launches, made)
            return made
        }
    }

    /// An app's plan, and its first wake after the time asked about.
    typealias Candidate = (app: String, plan: AppPlan, first: AppWake?)

    /// The first device wake after `time` and before `limit`.
    mutating func firstWake(after time: Date, before limit: Date?, device: String) throws(PredictorError)
        -> DeviceWake?
    {
        let start = time.milliseconds.nextWholeMinute
        guard let model = try planningModel(device) else { return nil }
        if model.lowPowerMode(at: time) != nil { return nil }
        // Taken out of the dictionary while it changes, so that its plans are not copied.
        var cache = takeCache(device, from: start, zone: model.timeZone)
        let startIndex = start.minutes(since: cache.clock.start)
        let end = Date(milliseconds: start + .seconds(Self.lookAhead))
        let asked = min(end.milliseconds, limit?.milliseconds ?? .max)
        var plans = stagedPlans(
            device, model: model, cache: &cache, startIndex: startIndex, after: time,
            askedMinutes: asked.minutesRoundedUp(since: start))
        let earliest = extend(&plans, model: model, cache: &cache, asked: asked, end: end.milliseconds, after: time)
        caches[device] = cache
        return firstDeviceWake(
            plans, earliest: earliest, device: device,
            planner: cache.planner(model, configuration, forecaster: forecaster),
            after: time, asked: asked, end: end)
    }

    /// The device's cache, taken out of ``caches``: the one laid before while its horizon still
    /// reaches far enough past `start`, else a new one from `start`.
    private mutating func takeCache(_ device: String, from start: Milliseconds, zone: TimeZone) -> DeviceCache {
        if let existing = caches.removeValue(forKey: device), existing.clock.start <= start,
            start - existing.clock.start <= Self.horizonReuse
        {
            return existing
        }
        let minutes = Int((Self.lookAhead + Double(Self.horizonReuse) / 1000) / 60)
        return DeviceCache(clock: .forPlanning(from: start, minutes: minutes, configuration: configuration, zone: zone))
    }

    /// The apps of a device that may be woken: every app seen or given a policy; when the
    /// default interval is never, only apps with a policy of their own.
    private func candidates(_ model: DeviceModel, _ devicePolicies: [String: AppPolicy]?) -> [String] {
        if defaultInterval == .never { return devicePolicies.map { Array($0.keys) } ?? [] }
        return Array(model.apps.keys)
            + (devicePolicies.map { $0.keys.filter { model.apps.index(forKey: $0) == nil } } ?? [])
    }

    /// Each app's plan with its first wake after `time`: the cached one when neither the app's
    /// model nor its policy changed (nor, for a forecaster that reads them, the device's traces), else one made
    /// from `startIndex` up to the first stage. A costly forecaster's first stage ends at the
    /// minute after the last one asked about (`askedMinutes` from `startIndex`) when that comes
    /// sooner: a replay asks only up to its next event, after which every plan that reads the
    /// traces is made again.
    ///
    /// An array, as this runs after every event and a dictionary would hash every name again.
    private func stagedPlans(
        _ device: String, model: DeviceModel, cache: inout DeviceCache, startIndex: Int, after time: Date,
        askedMinutes: Int
    ) -> [Candidate] {
        var plans: [Candidate] = []
        let planMinutes = cache.clock.planMinutes(configuration)
        // Read once, and app models read in place: this runs after every event.
        let devicePolicies = policies[device]
        let planner = cache.planner(model, configuration, forecaster: forecaster)
        // A launch model reads every app's features, which any launch, unlock or notification changes.
        let readsFeatures = forecaster.inputs.contains(.launchFeatures)
        let traces = readsFeatures ? model.traces.version : nil
        // A costly forecaster's plan looks less far at first.
        let looksAhead: Int? =
            if let first = forecaster.firstStageMinutes {
                planningStage.map { min($0, first, max(1, askedMinutes + 1)) }
            } else {
                planningStage
            }
        for app in candidates(model, devicePolicies) {
            let policy = devicePolicies?[app] ?? AppPolicy(interval: defaultInterval)
            // An app that is never woken has no plan: nothing more to look up.
            guard policy.enabled, policy.interval != .never else { continue }
            let position = model.apps.index(forKey: app)
            let version = position.map { model.apps.values[$0].version } ?? -1
            let silenceIndex = planner.silenceIndex(app: app)
            // A constrained app's plan moves with every state event; another's only while the
            // battery is low (Planner.batteryWorth) and when it stops being.
            let state =
                policy.constraints.isEmpty && !model.stateHabits.batteryIsLow ? nil : model.stateHabits.version
            // The state the last events left stands for the plan's first half hour: past it, a plan
            // that counts on the state is made again from now, where that state still stands.
            if let cached = cache.plans[app], cached.version == version, cached.policy == policy,
                cached.traces == traces, cached.state == state, cached.silenceIndex == silenceIndex,
                state == nil || startIndex < cached.startIndex + Planner.currentStateMinutes
            {
                if let plan = cached.plan { plans.append((app, plan, plan.firstWake(after: time))) }
                continue
            }
            let profileVersion = position.map { model.apps.values[$0].profileVersion } ?? -1
            let profiles = cache.planningProfiles(app: app, version: profileVersion, model: model, configuration)
            let launches = position.map { model.apps.values[$0].launches } ?? -1
            let habits =
                readsFeatures ? cache.habitProfiles(app: app, launches: launches, model: model, configuration) : nil
            let plan = planner.planApp(
                app, policy: policy, startIndex: startIndex, planMinutes: planMinutes, looksAhead: looksAhead,
                profiles: profiles, habits: habits)
            cache.plans[app] = CachedPlan(
                version: version, traces: traces, state: state, policy: policy, plan: plan, startIndex: startIndex,
                silenceIndex: silenceIndex)
            if let plan { plans.append((app, plan, plan.firstWake(after: time))) }
        }
        return plans
    }

    /// Makes through the whole horizon (a costly forecaster's plan twice as far, as often as needed),
    /// from the minute it was made from, each plan made only so far ahead with no wake after
    /// `time` when a wake of it could come before `asked` or join the first device wake: so the
    /// wake is the one whole plans give. Returns the earliest first wake of all plans.
    private func extend(
        _ plans: inout [Candidate], model: DeviceModel, cache: inout DeviceCache, asked: Milliseconds,
        end: Milliseconds, after time: Date
    ) -> Milliseconds? {
        let coalescing = configuration.coalescingMilliseconds
        let planMinutes = cache.clock.planMinutes(configuration)
        var earliest = plans.lazy.compactMap(\.first?.plannedTime.milliseconds).min()
        let planner = cache.planner(model, configuration, forecaster: forecaster)
        var extended = false
        repeat {
            extended = false
            let needed = earliest.flatMap { $0 < asked ? min(end, $0 + coalescing) : nil } ?? asked
            for index in plans.indices {
                let (app, plan, firstWake) = plans[index]
                guard firstWake == nil, let through = plan.plannedThrough, cache.clock.time(through) < needed,
                    let cached = cache.plans[app]
                else { continue }
                // A plan from a forecaster with a first stage of its own, whose readings cost the
                // most, goes twice as far each time; others are made whole.
                let further = forecaster.firstStageMinutes.map { 2 * max($0, through - cached.startIndex) }
                let longer = planner.planApp(
                    app, policy: cached.policy, startIndex: cached.startIndex, planMinutes: planMinutes,
                    looksAhead: further, profiles: cache.profiles[app]?.profiles,
                    habits: cache.profiles[app]?.habits?.profiles,
                    correction: plan.correction, readings: plan.readings)
                cache.plans[app]?.plan = longer
                // Whole, the plan has no stage left to extend: an app with no wake stays without.
                // (A plan made further but not whole keeps its stage.)
                var made = longer ?? plan
                if longer == nil { made.plannedThrough = nil }
                plans[index] = (app, made, made.firstWake(after: time))
                if let wake = plans[index].first?.plannedTime.milliseconds { earliest = min(earliest ?? wake, wake) }
                extended = true
            }
        } while extended
        return earliest
    }

    /// The first device wake before `asked`, coalesced from the first wakes within the
    /// coalescing window of the earliest: coalescing needs no others.
    private func firstDeviceWake(
        _ plans: [Candidate], earliest: Milliseconds?, device: String, planner: Planner, after time: Date,
        asked: Milliseconds, end: Date
    ) -> DeviceWake? {
        guard let earliest, earliest < asked else { return nil }
        let coalescing = configuration.coalescingMilliseconds
        var near: [String: AppPlan] = [:]
        for (app, plan, firstWake) in plans {
            guard let firstWake, firstWake.plannedTime.milliseconds <= earliest + coalescing else { continue }
            var trimmed = plan
            trimmed.wakes = [firstWake]
            near[app] = trimmed
        }
        guard
            let wake = planner.coalesce(near, device: device, from: time, to: end).first,
            wake.time.milliseconds < asked
        else { return nil }
        return wake
    }
}

extension AppPlan {
    /// The plan's first wake strictly after `time`.
    func firstWake(after time: Date) -> AppWake? {
        Planner.firstIndex(wakes, after: time).map { wakes[$0] }
    }
}
