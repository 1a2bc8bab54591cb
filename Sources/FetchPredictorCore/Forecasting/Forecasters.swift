import Foundation

/// Forecasts from each app's daily profile: its rate at each time of day, less a quiet spell's
/// discount and today's peaks that passed without a launch; with `returns`, plus the chance of
/// coming back soon after the last launch, weighed by hand (`Planner+Rates`).
public struct ProfileForecaster: LaunchForecaster {
    /// Whether the time since an app's last launch raises its expected launches (people often
    /// come back to an app within an hour or two).
    public var returns: Bool

    public init(returns: Bool = true) { self.returns = returns }

    public var name: String { returns ? "profile" : "daily" }
    public var inputs: ForecastInputs { [] }

    public func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
        requests.map { request in
            LaunchForecast(
                expected: request.planner.profileLaunches(
                    model: request.model, startIndex: request.startIndex, endIndex: request.endIndex,
                    profiles: request.profiles, notColdUntil: request.notColdUntil, returns: returns))
        }
    }
}

/// Forecasts from the device's learned ``LaunchHazard``: the chance the profile's rate at each
/// time of day stands for, times how the time since the app's last launch changes it on this
/// device. The default: over the five shared logs together it serves more launches for fewer
/// wakes than the hand weights (docs/evaluation.md). Until the hazard is trained, and for an
/// app never launched, it forecasts as ``ProfileForecaster`` does.
public struct HazardForecaster: LaunchForecaster {
    public init() {}

    public var name: String { "hazard" }
    public var inputs: ForecastInputs { .launchHazard }

    public func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
        requests.map { request in
            let planner = request.planner
            guard planner.device.hazard.isTrained, request.model.lastLaunch != nil else {
                return ProfileForecaster().forecast([request])[0]
            }
            return LaunchForecast(
                expected: planner.learnedLaunches(
                    model: request.model, startIndex: request.startIndex, endIndex: request.endIndex,
                    profiles: request.profiles, notColdUntil: request.notColdUntil))
        }
    }
}

/// Forecasts from a ``LaunchModel``'s trees: the chance of a cold launch in the window after each
/// minute, from the app's features as they would be if nothing happened until then, read every
/// ``Planner/launchModelStepMinutes`` minutes for every app asked at once (`Planner+LaunchModel`).
/// Its wakes' reasons are the model's (``WakeReason/launchModel(chance:)``). An app never launched
/// has no features: `fallback` forecasts it.
public struct TreesForecaster: LaunchForecaster {
    /// The trees.
    public var model: LaunchModel
    /// The forecaster of the apps the trees cannot read; its inputs are learned too.
    public var fallback: any LaunchForecaster
    /// The chances the replays of one device share, in a backtest (``sharingReadings()``).
    var shared: SharedReadings? = nil

    public init(model: LaunchModel, fallback: any LaunchForecaster = HazardForecaster()) {
        self.model = model
        self.fallback = fallback
    }

    public var name: String { "trees" }
    public var inputs: ForecastInputs { fallback.inputs.union(.launchFeatures) }
    /// A plan from the trees is made again at the device's next launch, unlock, screen turned on
    /// or notification, which often comes sooner than the first stage of others.
    public var firstStageMinutes: Int? { 30 }

    public func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
        var forecasts = [LaunchForecast?](repeating: nil, count: requests.count)
        // The minutes each app's plan reads the trees at, read in one batch.
        var read: [(index: Int, minutes: [Int], needed: Int)] = []
        var others: [Int] = []
        for (index, request) in requests.enumerated() {
            guard request.model.lastLaunch != nil else {
                others.append(index)
                continue
            }
            // A plan made further ahead reads on from where the shorter one stopped.
            let minutes = request.planner.modelReadings(startIndex: request.startIndex, endIndex: request.endIndex)
            let needed = readingCount(request, of: minutes.count)
            read.append((index, minutes, needed))
        }
        let made = readings(requests, read)
        for ((index, minutes, needed), readings) in zip(read, made) {
            let request = requests[index]
            // No chance reaches the floor: the forecast gives none, only the readings to go on from.
            if let floor = request.chanceFloor, readings.allSatisfy({ $0 < floor }) {
                forecasts[index] = LaunchForecast(
                    expected: ExpectedLaunches(minutes: 0), readings: readings, staysBelowFloor: true)
                continue
            }
            let chances = readings[...]
            let planner = request.planner
            let (app, model, appModel, profiles) = (request.app, self.model, request.model, request.profiles)
            // Read only as far as the chances asked first: the rest when the plan chooses a wake.
            let completed: (() -> LaunchForecast)? =
                needed < minutes.count
                ? {
                    var whole = request
                    (whole.readings, whole.chancesThrough, whole.chanceFloor) = (readings, nil, nil)
                    return forecast([whole])[0]
                } : nil
            forecasts[index] = LaunchForecast(
                expected: planner.modelLaunches(
                    chances: chances, startIndex: request.startIndex, endIndex: request.endIndex, profiles: profiles),
                reasons: { minute, habits in
                    planner.modelReasons(
                        app, at: minute, launchModel: model, model: appModel, profiles: profiles, habits: habits)
                },
                // The chance planner reads the model's own chance, not launches made of it.
                chances: request.configuration.planning.byChance
                    ? planner.modelChances(chances, startIndex: request.startIndex, endIndex: request.endIndex)
                    : nil,
                readings: readings, completed: completed)
        }
        if !others.isEmpty {
            for (index, forecast) in zip(others, fallback.forecast(others.map { requests[$0] })) {
                forecasts[index] = forecast
            }
        }
        return forecasts.map { $0! }
    }

    /// The trees' readings for the requests asked (their index, the minutes of their plan, how
    /// many they need), in order from each plan's first minute: the request's own
    /// (``ForecastRequest/readings``), those the replays of the device share (``shared``), and
    /// the rest read from their rows, every request's in one batch.
    private func readings(_ requests: [ForecastRequest], _ asked: [(index: Int, minutes: [Int], needed: Int)])
        -> [[Double]]
    {
        let sources = asked.map { index, _, _ in
            let request = requests[index]
            return SharedReadings.Source(
                app: request.app, start: request.planner.clock.time(request.startIndex), device: request.device,
                profiles: request.profiles, habits: request.habitProfiles)
        }
        let stored = shared?.chances(sources)
        var known: [[Double]] = []
        var rows: [LaunchFeatures] = []
        for (position, (index, minutes, needed)) in asked.enumerated() {
            let own = requests[index].readings ?? []
            let reused = stored.map { $0[position].count > own.count ? $0[position] : own } ?? own
            known.append(Array(reused.prefix(needed)))
            let source = sources[position]
            rows += requests[index].planner.modelRows(
                source.app, at: minutes[known[position].count..<needed], profiles: source.profiles,
                habits: source.habits)
        }
        var made = model.probabilities(rows)[...]
        var read: [[Double]] = []
        var kept: [(source: SharedReadings.Source, chances: [Double])] = []
        for (position, (_, _, needed)) in asked.enumerated() {
            let count = needed - known[position].count
            read.append(known[position] + made.prefix(count))
            made = made.dropFirst(count)
            if count > 0 { kept.append((sources[position], read[position])) }
        }
        shared?.keep(kept)
        return read
    }

    /// The readings a request needs of the `count` of its plan: all of them, or up to the last
    /// minute whose chance it reads first (``ForecastRequest/chancesThrough``) and the reading
    /// after it, which that chance is read between.
    private func readingCount(_ request: ForecastRequest, of count: Int) -> Int {
        guard let through = request.chancesThrough else { return count }
        return min(count, max(0, through - request.startIndex) / Planner.launchModelStepMinutes + 2)
    }
}

extension TreesForecaster: SharesReplayReadings {
    func sharingReadings() -> any LaunchForecaster {
        var sharing = self
        sharing.shared = SharedReadings()
        return sharing
    }
}
