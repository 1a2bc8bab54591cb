import Foundation

/// Plans the wakes of one device: each app's wakes first, then coalesced into device wakes.
///
/// An app's plan is made in steps, each in a file of its own: the earliest fetch its interval
/// and backoff allow (`Planner+Earliest`), the conservative plan of an app with too little
/// history (`Planner+ColdStart`), its expected cold launches minute by minute (`Planner+Rates`),
/// the chance that new content waits (`ContentOutlook`), the greedy choice of wakes
/// (`Planner+Selection`) and their reasons (`Planner+Reasons`). Coalescing into device wakes is
/// `Planner+Coalescing`.
enum Planner {
    /// The floor between two fetches of an app with this interval.
    static func floor(_ interval: FetchInterval, _ configuration: PredictorConfiguration) -> Milliseconds? {
        switch interval {
        case .never: nil
        case .minimum: Milliseconds(configuration.minimumIntervalFloor * 1000)
        case .seconds(let seconds): Milliseconds(max(Double(seconds), configuration.minimumIntervalFloor) * 1000)
        }
    }

    /// The plan of one app over the clock's horizon; `nil` when the app is never woken.
    static func planApp(
        _ name: String, device: DeviceModel, policy: AppPolicy, clock: HorizonClock, startIndex: Int,
        planMinutes: Int, _ configuration: PredictorConfiguration
    ) -> AppPlan? {
        guard policy.enabled, let floor = floor(policy.interval, configuration) else { return nil }
        let model = device.apps[name] ?? AppModel()
        let earliest = earliestFetch(
            model, interval: policy.interval, floor: floor, from: clock.time(startIndex), configuration)
        let firstIndex = max(0, Int((earliest.time - clock.start + 59_999) / 60_000))
        let factors = valueFactors(model, configuration)
        if device.isColdStart(app: name, configuration) {
            let wakes = coldStartWakes(
                name, clock: clock, from: firstIndex, to: planMinutes, floor: floor, heldBy: earliest.heldBy,
                configuration)
            return AppPlan(
                wakes: wakes, rates: [], factors: factors, earliest: earliest.time, floor: floor, coldStart: true)
        }
        let weekday = device.planningProfile(app: name, for: .weekday, configuration)
        let weekend = device.planningProfile(app: name, for: .weekend, configuration)
        var rates = [Double](repeating: 0, count: clock.count)
        let notColdUntil = (model.lastLaunch ?? .min) + Milliseconds(configuration.coldLaunchGap * 1000)
        fillRates(
            &rates, model: model, clock: clock, startIndex: startIndex, weekday: weekday, weekend: weekend,
            notColdUntil: notColdUntil, device: device, configuration)
        let content = ContentOutlook(model, clock: clock, configuration)
        let selection = Selection(
            name: name, model: model, clock: clock, factors: factors, content: content,
            profiles: (
                device.profile(app: name, for: .weekday, configuration),
                device.profile(app: name, for: .weekend, configuration)
            ), configuration: configuration)
        var wakes = selection.choose(
            rates: rates, from: firstIndex, planMinutes: planMinutes,
            floorMinutes: Int((floor + 59_999) / 60_000))
        if configuration.usesFetchResults { wakes = selection.dropWakesWithoutNews(wakes) }
        // The first wake is the one the interval or a backoff held back, if it comes soon after.
        if let heldBy = earliest.heldBy, let first = wakes.first,
            first.plannedTime.milliseconds - earliest.time <= Milliseconds(configuration.freshnessWindow * 1000)
        {
            wakes[0].reasons.append(heldBy)
        }
        return AppPlan(
            wakes: wakes, rates: rates, factors: factors, earliest: earliest.time, floor: floor, coldStart: false)
    }

    /// The value factor of a fetch at each local hour: how likely it is to work, and how cheap.
    static func valueFactors(_ model: AppModel, _ configuration: PredictorConfiguration) -> [Double] {
        let costFactor = 1 / (1 + max(0, (model.meanFetchDuration ?? 0) - 5) / 25)
        return (0..<24).map { hour -> Double in
            guard configuration.usesFetchResults else { return costFactor }
            return (1 - model.failureRate(hour: hour)) * costFactor
        }
    }

    @inline(__always) static func circularDistance(_ a: Int, _ b: Int) -> Int {
        let distance = abs(a - b) % 1440
        return min(distance, 1440 - distance)
    }

}
