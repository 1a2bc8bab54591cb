import Foundation

/// Plans the wakes of one device: each app's wakes first, then coalesced into device wakes.
///
/// An app's plan is made in steps, each in a file of its own: the earliest fetch its interval
/// and backoff allow (`Planner+Earliest`), the conservative plan of an app with too little
/// history (`Planner+ColdStart`), its expected cold launches minute by minute (asked of the
/// device's ``LaunchForecaster``, once for every app planned at once),
/// the chance that new content waits (`ContentOutlook`), the choice of wakes in time order
/// (`Planner+Sweep`) and their reasons (`Planner+Reasons`). Coalescing into device wakes is
/// `Planner+Coalescing`.
///
/// A planner is the context of one device's planning over one horizon: the device's learned
/// model, the horizon's clock and the settings; its steps are its methods. It never changes once
/// made, and is a class so that the forecast requests and plans that refer to it share it: as
/// a struct, each copy retained and released its dozens of arrays and tables one by one, a
/// quarter of the time of a backtest with the trees.
final class Planner: Sendable {
    /// The device planned: its apps' models, habits, launch hazard and calibration.
    let device: DeviceModel
    /// The horizon's minutes: their instants, local minutes and kinds of day.
    let clock: HorizonClock
    /// The settings of planning.
    let configuration: PredictorConfiguration
    /// What forecasts each app's cold launches: the planner never asks which one it is.
    let forecaster: any LaunchForecaster
    /// When the device went (or goes) silent (``DeviceModel/silentFrom(_:)``), read once.
    let deviceSilentFrom: Milliseconds?
    /// The person's own rates as of the device's latest event, read once; empty for a
    /// forecaster that reads no features.
    let ownRates: OwnRates.Snapshot

    /// A weekday profile and a weekend one, of one app.
    typealias DayProfiles = (weekday: DailyProfile, weekend: DailyProfile)

    /// Creates a value with every field given; the person's own rates are read from the device
    /// unless `ownRates` gives them (read before at the same ``LaunchTraces/version``).
    init(
        device: DeviceModel, clock: HorizonClock, _ configuration: PredictorConfiguration,
        forecaster: any LaunchForecaster = HazardForecaster(), ownRates: OwnRates.Snapshot? = nil
    ) {
        self.device = device
        self.clock = clock
        self.configuration = configuration
        self.forecaster = forecaster
        self.deviceSilentFrom = device.silentFrom(configuration)
        self.ownRates = ownRates ?? Self.ownRates(device, configuration, forecaster: forecaster)
    }

    /// The person's own rates a forecaster reads: none for one that reads no features.
    static func ownRates(
        _ device: DeviceModel, _ configuration: PredictorConfiguration, forecaster: any LaunchForecaster
    ) -> OwnRates.Snapshot {
        forecaster.inputs.contains(.launchFeatures) ? device.traces.ownRates(configuration) : OwnRates.Snapshot()
    }

    /// The floor between two fetches of an app with this interval.
    static func floor(_ interval: FetchInterval, _ configuration: PredictorConfiguration) -> Milliseconds? {
        switch interval {
        case .never: nil
        case .minimum: configuration.minimumIntervalMilliseconds
        case .seconds(let seconds): .seconds(max(Double(seconds), configuration.minimumIntervalFloor))
        }
    }

    /// What a plan of one app is asked for: the app and its policy, the minute it starts from,
    /// the minutes it sweeps, and what the asker has at hand.
    ///
    /// With `looksAhead`, only the wakes up to about that many minutes after `startIndex` are
    /// planned, and ``AppPlan/plannedThrough`` says up to where: they are exactly the wakes the
    /// whole plan has there, for a fraction of its cost. The wakes are chosen in time order, each
    /// looking at most half a window past the minute that starts it, so the wakes up to half a
    /// window before the last minute swept are those of the whole sweep. `correction` is the
    /// forecasts' correction (the device's current one by default), kept in the plan so that
    /// the plan can be made further ahead as it was begun.
    struct AppAsk {
        var app: String
        var policy: AppPolicy
        var startIndex: Int
        var planMinutes: Int
        var looksAhead: Int? = nil
        var profiles: DayProfiles? = nil
        var habits: DayProfiles? = nil
        var correction: Double? = nil
        /// The readings of the app's plan from the same minute made so far (``AppPlan/readings``).
        var readings: [Double]? = nil
    }

    /// The plan of one app over the clock's horizon; `nil` when the app is never woken.
    func planApp(
        _ name: String, policy: AppPolicy, startIndex: Int, planMinutes: Int, looksAhead: Int? = nil,
        profiles: DayProfiles? = nil, habits: DayProfiles? = nil, correction: Double? = nil,
        readings: [Double]? = nil
    ) -> AppPlan? {
        planApps([
            AppAsk(
                app: name, policy: policy, startIndex: startIndex, planMinutes: planMinutes, looksAhead: looksAhead,
                profiles: profiles, habits: habits, correction: correction, readings: readings)
        ])[0]
    }

    /// The apps a plan asks the forecaster about at once: enough for a model to be read in
    /// batches of hundreds of rows, few enough that their profiles and forecasts stay in memory
    /// already mapped. Planning 200 apps' forecasts at once touched 5 MB of fresh pages, and a
    /// new process planning a device paid the page faults (issue 73's bench, `next APP`).
    static let forecastBatch = 16

    /// The plans of several apps, in the order asked: the forecaster is asked once for each
    /// batch of ``forecastBatch`` apps with enough history.
    func planApps(_ asks: [AppAsk]) -> [AppPlan?] {
        var plans = [AppPlan?](repeating: nil, count: asks.count)
        var begun: [(index: Int, plan: BegunPlan)] = []
        begun.reserveCapacity(Self.forecastBatch)
        func forecastBegun() {
            guard !begun.isEmpty else { return }
            let forecasts = forecaster.forecast(begun.map(\.plan.request))
            for ((index, plan), forecast) in zip(begun, forecasts) {
                plans[index] = finish(plan, forecast: forecast, correction: asks[index].correction)
            }
            begun.removeAll(keepingCapacity: true)
        }
        for (index, ask) in asks.enumerated() {
            switch begin(ask) {
            case .none: continue
            case .done(let plan): plans[index] = plan
            case .forecast(let plan): begun.append((index, plan))
            }
            if begun.count == Self.forecastBatch { forecastBegun() }
        }
        forecastBegun()
        return plans
    }

    /// An app's plan up to its forecast: what the sweep needs besides the forecast.
    struct BegunPlan {
        var request: ForecastRequest
        var planMinutes: Int
        var plannedThrough: Int?
        var rateEnd: Int
        var earliest: Earliest
        var firstIndex: Int
        var floor: Milliseconds
        var factors: [Double]
        var constraints: AppConstraints
    }

    /// How a plan begins: no plan (the app is never woken), a whole plan (the app is in cold
    /// start), or a plan that needs its forecast.
    enum Beginning {
        case none
        case done(AppPlan)
        case forecast(BegunPlan)
    }

    /// Begins the plan of one app, up to what it asks of the forecaster.
    func begin(_ ask: AppAsk) -> Beginning {
        let name = ask.app
        guard ask.policy.enabled, let floor = Self.floor(ask.policy.interval, configuration) else { return .none }
        let window = configuration.windowMinutes
        // No wake once the app or its device has gone silent.
        let (planMinutes, plannedThrough) = stage(
            startIndex: ask.startIndex, planMinutes: min(ask.planMinutes, silenceIndex(app: name) ?? ask.planMinutes),
            looksAhead: ask.looksAhead)
        // The rates a sweep through `planMinutes` reads: a window past its last minute; when a
        // minute may wait, another window, which it looks into.
        let rateEnd = min(
            clock.count, planMinutes + window + 2 + (configuration.planning == .chanceWaiting ? window : 0))
        let model = device.apps[name] ?? AppModel()
        let earliest = earliestFetch(
            model, interval: ask.policy.interval, floor: floor, from: clock.time(ask.startIndex))
        let firstIndex = max(0, earliest.time.minutesRoundedUp(since: clock.start))
        let factors = valueFactors(model)
        if device.plansColdStart(app: name, configuration) {
            var wakes = coldStartWakes(
                name, from: firstIndex, to: planMinutes, floor: floor, heldBy: earliest.heldBy)
            if let plannedThrough { wakes.removeAll { $0.plannedTime.milliseconds > clock.time(plannedThrough) } }
            return .done(
                AppPlan(
                    wakes: wakes, rates: [], factors: factors, earliest: earliest.time, floor: floor, coldStart: true,
                    plannedThrough: plannedThrough))
        }
        let request = ForecastRequest(
            app: name, startIndex: ask.startIndex, endIndex: rateEnd, planner: self, model: model,
            profiles: ask.profiles ?? device.planningProfiles(app: name, configuration), habits: ask.habits,
            notColdUntil: (model.lastLaunch ?? .min) + configuration.coldLaunchGapMilliseconds,
            readings: ask.readings,
            // The chance planner that does not wait reads the chances up to its last minute alone,
            // and chooses no minute whose chance, weighed by at most the best value factor, stays
            // below its threshold (the other weights, the chances of new content and of the state
            // the app needs and a low battery's, are at most 1).
            chancesThrough: configuration.planning == .chance ? planMinutes - 1 : nil,
            chanceFloor: configuration.planning == .chance ? chanceFloor(factors: factors) : nil)
        return .forecast(
            BegunPlan(
                request: request, planMinutes: planMinutes, plannedThrough: plannedThrough, rateEnd: rateEnd,
                earliest: earliest, firstIndex: firstIndex, floor: floor, factors: factors,
                constraints: ask.policy.constraints))
    }

    /// The chance below which the chance planner chooses no wake, with these value factors
    /// (a hair under, for the rounding of the chances between readings and of their weighing):
    /// `nil` when any chance may be chosen (a threshold of 0).
    func chanceFloor(factors: [Double]) -> Double? {
        let (threshold, best) = (configuration.threshold, factors.max() ?? 0)
        guard threshold > 0 else { return nil }
        return best > 0 ? threshold / best * (1 - 1e-9) : .infinity
    }

    /// The plan of one app from its forecast: the wakes the sweep chooses and their reasons.
    func finish(_ begun: BegunPlan, forecast: LaunchForecast, correction: Double?) -> AppPlan {
        let (name, model, startIndex, rateEnd) = (
            begun.request.app, begun.request.model, begun.request.startIndex, begun.rateEnd
        )
        let (factors, earliest, floor, plannedThrough) = (
            begun.factors, begun.earliest, begun.floor, begun.plannedThrough
        )
        // Forecasts as their fetches came true.
        let correction = correction ?? (configuration.calibratesForecasts ? device.calibration.correction : 1)
        // No chance reaches the floor: no wake, and nothing a plan without wakes is read for.
        if forecast.staysBelowFloor {
            return AppPlan(
                wakes: [], rates: [], factors: factors, earliest: earliest.time, floor: floor, coldStart: false,
                plannedThrough: plannedThrough, correction: correction, readings: forecast.readings)
        }
        var expected = forecast.expected
        // The chance planner reads the forecast before calibration, as the sweep's threshold does.
        let chances =
            configuration.planning.byChance
            ? forecast.chances ?? Self.windowChances(expected.total, configuration) : nil
        expected.scale(by: correction)
        let rates = expected.total
        let constraints = constraintChances(begun.constraints, from: startIndex, to: rateEnd)
        let battery = batteryWorth(from: startIndex, to: rateEnd)
        let sweep = Sweep(
            clock: clock, factors: factors,
            content: ContentOutlook(model, clock: clock, from: startIndex, to: rateEnd, configuration),
            configuration: configuration, constraintChances: constraints, batteryWorth: battery,
            correction: correction)
        var choices =
            if let chances {
                sweep.choose(
                    chances: chances, rates: rates, from: begun.firstIndex, planMinutes: begun.planMinutes,
                    floorMinutes: floor.minutesRoundedUp(since: 0), waits: configuration.planning == .chanceWaiting)
            } else {
                sweep.choose(
                    rates: rates, from: begun.firstIndex, planMinutes: begun.planMinutes,
                    floorMinutes: floor.minutesRoundedUp(since: 0))
            }
        if let plannedThrough { choices.removeAll { $0.index > plannedThrough } }
        // A forecast read only as far as its chances: the whole of it for the wakes chosen.
        if !choices.isEmpty, let completed = forecast.completed {
            return finish(begun, forecast: completed(), correction: correction)
        }
        var wakes = appWakes(
            name, choices: choices, model: model, expected: expected, earliest: earliest,
            habits: begun.request.habits, explain: forecast.reasons)
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
        return AppPlan(
            wakes: wakes, rates: rates, returning: expected.returning,
            servedBefore: Dictionary(
                zip(choices.map { clock.time($0.index) }, choices.map(\.servedBefore)),
                uniquingKeysWith: { first, _ in first }),
            lastLaunch: model.lastLaunch, namesParts: forecast.reasons == nil, factors: factors,
            earliest: earliest.time, floor: floor, coldStart: false, plannedThrough: plannedThrough,
            correction: correction, constraintChances: constraints, readings: forecast.readings)
    }

    /// The minutes a plan sweeps, and with `looksAhead` up to where its wakes are those of the
    /// whole plan (`nil` when it is made whole): about `looksAhead` minutes after `startIndex`,
    /// when the horizon goes further than that.
    ///
    /// The sweep's wake may wait up to half a window for a better minute, so its staged plan
    /// sweeps a window more and keeps the wakes up to half a window before the end. The chance
    /// planner decides each minute from the chances and rates of that minute's windows alone
    /// (``Sweep/choose(chances:rates:from:planMinutes:floorMinutes:waits:)``), which the plan
    /// reads a window or two past its last minute: its wakes are final up to the last minute
    /// it sweeps, so it sweeps `looksAhead` minutes and no more.
    func stage(startIndex: Int, planMinutes: Int, looksAhead: Int?) -> (planMinutes: Int, plannedThrough: Int?) {
        let window = configuration.windowMinutes
        let margin = configuration.planning.byChance ? 0 : window
        guard let looksAhead, startIndex + looksAhead + margin < min(planMinutes, clock.count - window - 1) else {
            return (planMinutes, nil)
        }
        let staged = startIndex + looksAhead + margin
        return (staged, configuration.planning.byChance ? staged - 1 : staged - max(1, window / 2))
    }

    /// The wakes of an app's chosen minutes, with their reasons when the configuration explains
    /// wakes; the first also held back by the interval or a backoff when it comes soon after.
    /// A forecast that gives its own reasons (`explain`) names them instead of the parts of
    /// its expected launches.
    func appWakes(
        _ name: String, choices: [Sweep.Choice], model: AppModel, expected: ExpectedLaunches, earliest: Earliest,
        habits known: DayProfiles? = nil, explain: ((_ minute: Int, _ habits: DayProfiles) -> [WakeReason])? = nil
    ) -> [AppWake] {
        // The habits name the peaks of the reasons: read only for an app with wakes to explain,
        // and made only when the plan was not given them (the predictor keeps them until the app's
        // next launch for a forecaster that reads them: a launch model replans every app at each event).
        let habits =
            configuration.explainsWakes && !choices.isEmpty
            ? known ?? device.habitProfiles(app: name, configuration) : nil
        var wakes = choices.map { choice in
            AppWake(
                app: name, plannedTime: Date(milliseconds: clock.time(choice.index)), expectedLaunches: choice.expected,
                reasons: habits.map { habits in
                    if let explain {
                        return explain(choice.index, habits)
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
        guard configuration.usesFetchResults else { return Array(repeating: costFactor, count: 24) }
        return model.failureRates().map { (1 - $0) * costFactor }
    }
}
