import Foundation

/// Plans the wakes of one device: each app's wakes first, then coalesced into device wakes.
///
/// An app's plan is made in steps, each in a file of its own: the earliest fetch its interval
/// and backoff allow (`Planner+Earliest`), the conservative plan of an app with too little
/// history (`Planner+ColdStart`), its expected cold launches minute by minute (`Planner+Rates`,
/// or from a launch model, `Planner+LaunchModel`),
/// the chance that new content waits (`ContentOutlook`), the choice of wakes in time order
/// (`Planner+Sweep`) and their reasons (`Planner+Reasons`). Coalescing into device wakes is
/// `Planner+Coalescing`.
///
/// A planner is the context of one device's planning over one horizon: the device's learned
/// model, the horizon's clock and the settings; its steps are its methods.
struct Planner {
    /// The device planned: its apps' models, habits, launch hazard and calibration.
    let device: DeviceModel
    /// The horizon's minutes: their instants, local minutes and kinds of day.
    let clock: HorizonClock
    /// The settings of planning.
    let configuration: PredictorConfiguration
    /// The model of a cold launch's chance the rates come from; `nil` for the launch hazard or
    /// the hand weights.
    let launchModel: LaunchModel?
    /// When the device went (or goes) silent (``DeviceModel/silentFrom(_:)``), read once.
    let deviceSilentFrom: Milliseconds?

    /// A weekday profile and a weekend one, of one app.
    typealias DayProfiles = (weekday: DailyProfile, weekend: DailyProfile)

    /// Creates a value with every field given.
    init(
        device: DeviceModel, clock: HorizonClock, _ configuration: PredictorConfiguration,
        launchModel: LaunchModel? = nil
    ) {
        self.device = device
        self.clock = clock
        self.configuration = configuration
        self.launchModel = launchModel
        self.deviceSilentFrom = device.silentFrom(configuration)
    }

    /// The floor between two fetches of an app with this interval.
    static func floor(_ interval: FetchInterval, _ configuration: PredictorConfiguration) -> Milliseconds? {
        switch interval {
        case .never: nil
        case .minimum: configuration.minimumIntervalMilliseconds
        case .seconds(let seconds): .seconds(max(Double(seconds), configuration.minimumIntervalFloor))
        }
    }

    /// The plan of one app over the clock's horizon; `nil` when the app is never woken.
    ///
    /// With `looksAhead`, only the wakes up to about that many minutes after `startIndex` are
    /// planned, and ``AppPlan/plannedThrough`` says up to where: they are exactly the wakes the
    /// whole plan has there, for a fraction of its cost. The wakes are chosen in time order, each
    /// looking at most half a window past the minute that starts it, so the wakes up to half a
    /// window before the last minute swept are those of the whole sweep. `correction` is the
    /// forecasts' correction (the device's current one by default), kept in the plan so that
    /// the plan can be made further ahead as it was begun.
    func planApp(
        _ name: String, policy: AppPolicy, startIndex: Int, planMinutes: Int, looksAhead: Int? = nil,
        profiles: DayProfiles? = nil, habits: DayProfiles? = nil, correction: Double? = nil
    ) -> AppPlan? {
        guard policy.enabled, let floor = Self.floor(policy.interval, configuration) else { return nil }
        let window = configuration.windowMinutes
        // No wake once the app or its device has gone silent.
        let (planMinutes, plannedThrough) = stage(
            startIndex: startIndex, planMinutes: min(planMinutes, silenceIndex(app: name) ?? planMinutes),
            looksAhead: looksAhead)
        // The rates a sweep through `planMinutes` reads: a window past its last minute.
        let rateEnd = min(clock.count, planMinutes + window + 2)
        let model = device.apps[name] ?? AppModel()
        let earliest = earliestFetch(model, interval: policy.interval, floor: floor, from: clock.time(startIndex))
        let firstIndex = max(0, earliest.time.minutesRoundedUp(since: clock.start))
        let factors = valueFactors(model)
        if device.plansColdStart(app: name, configuration) {
            var wakes = coldStartWakes(
                name, from: firstIndex, to: planMinutes, floor: floor, heldBy: earliest.heldBy)
            if let plannedThrough { wakes.removeAll { $0.plannedTime.milliseconds > clock.time(plannedThrough) } }
            return AppPlan(
                wakes: wakes, rates: [], factors: factors, earliest: earliest.time, floor: floor, coldStart: true,
                plannedThrough: plannedThrough)
        }
        let profiles = profiles ?? device.planningProfiles(app: name, configuration)
        let notColdUntil = (model.lastLaunch ?? .min) + configuration.coldLaunchGapMilliseconds
        var expected =
            if let launchModel, model.lastLaunch != nil {
                modelLaunches(
                    name, launchModel: launchModel, startIndex: startIndex, endIndex: rateEnd, profiles: profiles,
                    habits: habits ?? device.habitProfiles(app: name, configuration))
            } else {
                expectedLaunches(
                    model: model, startIndex: startIndex, endIndex: rateEnd, profiles: profiles,
                    notColdUntil: notColdUntil)
            }
        // Forecasts as their fetches came true.
        let correction = correction ?? (configuration.calibratesForecasts ? device.calibration.correction : 1)
        expected.scale(by: correction)
        let rates = expected.total
        let constraints = constraintChances(policy.constraints, from: startIndex, to: rateEnd)
        let battery = batteryWorth(from: startIndex, to: rateEnd)
        let sweep = Sweep(
            clock: clock, factors: factors,
            content: ContentOutlook(model, clock: clock, from: startIndex, to: rateEnd, configuration),
            configuration: configuration, constraintChances: constraints, batteryWorth: battery,
            correction: correction)
        var choices = sweep.choose(
            rates: rates, from: firstIndex, planMinutes: planMinutes, floorMinutes: floor.minutesRoundedUp(since: 0))
        if let plannedThrough { choices.removeAll { $0.index > plannedThrough } }
        var wakes = appWakes(
            name, choices: choices, model: model, expected: expected, earliest: earliest,
            modelProfiles: launchModel != nil && model.lastLaunch != nil ? profiles : nil)
        if configuration.explainsWakes, let constraints {
            for (index, choice) in choices.enumerated() {
                let chance = constraints[choice.index]
                wakes[index].reasons.append(
                    .requiredState(
                        onPower: chance.power, unmetered: chance.unmetered, batteryNotLow: chance.batteryNotLow))
            }
        }
        if configuration.explainsWakes, let battery, let percent = device.stateHabits.battery?.percent {
            for (index, choice) in choices.enumerated() where battery[choice.index] < 1 {
                wakes[index].reasons.append(.lowBattery(percent: percent))
            }
        }
        let fromModel = launchModel != nil && model.lastLaunch != nil
        return AppPlan(
            wakes: wakes, rates: rates, returning: expected.returning,
            servedBefore: Dictionary(
                zip(choices.map { clock.time($0.index) }, choices.map(\.servedBefore)),
                uniquingKeysWith: { first, _ in first }),
            lastLaunch: model.lastLaunch, namesParts: !fromModel, factors: factors, earliest: earliest.time,
            floor: floor, coldStart: false, plannedThrough: plannedThrough, correction: correction,
            constraintChances: constraints)
    }

    /// The minutes a plan sweeps, and with `looksAhead` up to where its wakes are those of the
    /// whole plan (`nil` when it is made whole): about `looksAhead` minutes after `startIndex`,
    /// when the horizon goes further than that.
    func stage(startIndex: Int, planMinutes: Int, looksAhead: Int?) -> (planMinutes: Int, plannedThrough: Int?) {
        let window = configuration.windowMinutes
        guard let looksAhead, startIndex + looksAhead + window < min(planMinutes, clock.count - window - 1) else {
            return (planMinutes, nil)
        }
        let staged = startIndex + looksAhead + window
        return (staged, staged - max(1, window / 2))
    }

    /// The wakes of an app's chosen minutes, with their reasons when the configuration explains
    /// wakes; the first also held back by the interval or a backoff when it comes soon after.
    /// A plan from the launch model (`modelProfiles`, the planning profiles its features read)
    /// has the model's reasons.
    func appWakes(
        _ name: String, choices: [Sweep.Choice], model: AppModel, expected: ExpectedLaunches, earliest: Earliest,
        modelProfiles: DayProfiles? = nil
    ) -> [AppWake] {
        // The habits name the peaks of the reasons: read only for an app with wakes to explain.
        let habits =
            configuration.explainsWakes && !choices.isEmpty ? device.habitProfiles(app: name, configuration) : nil
        var wakes = choices.map { choice in
            AppWake(
                app: name, plannedTime: Date(milliseconds: clock.time(choice.index)), expectedLaunches: choice.expected,
                reasons: habits.map { habits in
                    if let launchModel, let modelProfiles {
                        return modelReasons(
                            name, at: choice.index, launchModel: launchModel, model: model, profiles: modelProfiles,
                            habits: habits)
                            + fetchReasons(at: choice.index, newContentChance: choice.newContentChance, model: model)
                    }
                    return reasons(
                        at: choice.index, servedBefore: choice.servedBefore, newContentChance: choice.newContentChance,
                        expected: expected, model: model, habits: habits)
                } ?? [])
        }
        // The first wake is the one the interval or a backoff held back, if it comes soon after.
        if let heldBy = earliest.heldBy, let first = wakes.first,
            first.plannedTime.milliseconds - earliest.time <= configuration.windowMilliseconds
        {
            wakes[0].reasons.append(heldBy)
        }
        return wakes
    }

    /// A fetch this short, in seconds, costs nothing more than the wake...
    static let freeFetchSeconds = 5.0
    /// ...and each further this many seconds lower its value as much again.
    static let fetchCostSeconds = 25.0

    /// The value factor of a fetch at each local hour: how likely it is to work, and how cheap.
    func valueFactors(_ model: AppModel) -> [Double] {
        let seconds = model.meanFetchDuration ?? 0
        let costFactor = 1 / (1 + max(0, seconds - Self.freeFetchSeconds) / Self.fetchCostSeconds)
        return (0..<24).map { hour -> Double in
            guard configuration.usesFetchResults else { return costFactor }
            return (1 - model.failureRate(hour: hour)) * costFactor
        }
    }
}
