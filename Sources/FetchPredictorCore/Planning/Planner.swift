import Foundation

/// The settings that decide whether and how often an app may be woken.
public struct AppPolicy: Sendable, Hashable, Codable {
    /// The interval that applies (the app's own, else the store's default).
    public var interval: FetchInterval
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool

    /// Creates a value with every field given.
    public init(interval: FetchInterval, enabled: Bool = true) {
        self.interval = interval
        self.enabled = enabled
    }
}

/// The local calendar of a planning horizon, minute by minute, shared by every app of a device.
struct HorizonClock {
    /// The first minute of the horizon.
    let start: Milliseconds
    /// Minutes in the horizon.
    let count: Int
    /// For each minute: its minute of the local day, and whether its local day is a weekend.
    let minuteOfDay: [Int16]
    let weekend: [Bool]
    let localDay: [Int32]

    init(start: Milliseconds, minutes: Int, zone: TimeZone) {
        self.start = start
        count = minutes
        var minuteOfDay = [Int16](repeating: 0, count: minutes)
        var weekend = [Bool](repeating: false, count: minutes)
        var localDay = [Int32](repeating: 0, count: minutes)
        var offset = 0
        for index in 0..<minutes {
            let time = start + Milliseconds(index) * 60_000
            if index % 15 == 0 { offset = zone.secondsFromGMT(for: Date(milliseconds: time)) }
            let (day, millisecond) = CivilDate.split(localMilliseconds: time + Milliseconds(offset) * 1000)
            minuteOfDay[index] = Int16(millisecond / 60_000)
            weekend[index] = DeviceModel.isWeekend(day: day)
            localDay[index] = Int32(day)
        }
        self.minuteOfDay = minuteOfDay
        self.weekend = weekend
        self.localDay = localDay
    }

    @inline(__always) func time(_ index: Int) -> Milliseconds { start + Milliseconds(index) * 60_000 }
}

/// One app's plan over a horizon, before coalescing, with what coalescing needs to weigh moves.
struct AppPlan: Sendable {
    var wakes: [AppWake]
    /// Expected cold launches per minute of the horizon (and a window beyond it).
    var rates: [Double]
    /// The value factor of a fetch at each local hour (success, new data, cost).
    var factors: [Double]
    /// The earliest a fetch may happen, from the interval and backoff.
    var earliest: Milliseconds
    /// The app's interval floor, in milliseconds.
    var floor: Milliseconds
    var coldStart: Bool
}

/// Plans the wakes of one device: each app's wakes first, then coalesced into device wakes.
enum Planner {
    /// The floor between two fetches of an app with this interval.
    static func floor(_ interval: FetchInterval, _ configuration: PredictorConfiguration) -> Milliseconds? {
        switch interval {
        case .never: nil
        case .minimum: Milliseconds(configuration.minimumIntervalFloor * 1000)
        case .seconds(let seconds): Milliseconds(max(Double(seconds), configuration.minimumIntervalFloor) * 1000)
        }
    }

    /// The plan of one app over the clock's horizon.
    static func planApp(
        _ name: String, device: DeviceModel, policy: AppPolicy, clock: HorizonClock, startIndex: Int,
        planMinutes: Int, _ configuration: PredictorConfiguration
    ) -> AppPlan? {
        guard policy.enabled, let floor = floor(policy.interval, configuration) else { return nil }
        let model = device.apps[name] ?? AppModel()
        let window = Int(configuration.freshnessWindow / 60), lead = Int((configuration.lead / 60).rounded(.up))
        // The earliest fetch the interval and backoff allow.
        var earliest = clock.time(startIndex)
        var heldBy: WakeReason?
        if let last = model.lastFetch, last + floor > earliest {
            earliest = last + floor
            heldBy = .intervalHeldBack(until: Date(milliseconds: earliest), interval: policy.interval)
        }
        if configuration.usesFetchResults, model.consecutiveFailures > 0, let failure = model.lastFailure {
            let wait = min(
                configuration.backoffBase * pow(2, Double(model.consecutiveFailures - 1)), configuration.backoffCap)
            let until = failure + Milliseconds(wait * 1000)
            if until >= earliest {
                earliest = until
                heldBy = .backoff(failures: model.consecutiveFailures, until: Date(milliseconds: until))
            }
        }
        let firstIndex = max(0, Int((earliest - clock.start + 59_999) / 60_000))
        let costFactor = 1 / (1 + max(0, (model.meanFetchDuration ?? 0) - 5) / 25)
        let factors = (0..<24).map { hour -> Double in
            guard configuration.usesFetchResults else { return costFactor }
            return (1 - model.failureRate(hour: hour)) * costFactor
        }
        let coldStart = device.isColdStart(app: name, configuration)
        if coldStart {
            var wakes: [AppWake] = []
            var last = Milliseconds.min / 2
            for index in firstIndex..<max(firstIndex, min(planMinutes, clock.count))
            where configuration.coldStartMinutes.contains(Int(clock.minuteOfDay[index]))
                && clock.time(index) - last >= floor
            {
                last = clock.time(index)
                wakes.append(
                    AppWake(
                        app: name, plannedTime: Date(milliseconds: last), expectedLaunches: 0,
                        reasons: [.coldStart] + (wakes.isEmpty ? heldBy.map { [$0] } ?? [] : [])))
            }
            return AppPlan(wakes: wakes, rates: [], factors: factors, earliest: earliest, floor: floor, coldStart: true)
        }

        let weekday = device.profile(app: name, for: .weekday, configuration)
        let weekend = device.profile(app: name, for: .weekend, configuration)
        var rates = [Double](repeating: 0, count: clock.count)
        let notColdUntil = (model.lastLaunch ?? .min) + Milliseconds(configuration.coldLaunchGap * 1000)
        fillRates(&rates, model: model, clock: clock, startIndex: startIndex, weekday: weekday, weekend: weekend,
            notColdUntil: notColdUntil, device: device, configuration)
        let originalRates = rates
        // New content expected per minute of the horizon, and its running sum.
        var contentPrefix = [Double](repeating: 0, count: clock.count + 1)
        for index in 0..<clock.count {
            contentPrefix[index + 1] = contentPrefix[index] + model.publicationRate(hour: Int(clock.minuteOfDay[index]) / 60) / 60
        }
        let meanRate = (0..<24).reduce(0) { $0 + model.publicationRate(hour: $1) } / 24
        /// The chance that something new was published between the last refresh before a
        /// candidate and the candidate.
        func newContentChance(_ candidate: Int, lastSelectedBefore: Int?) -> Double {
            guard configuration.usesFetchResults else { return 1 }
            let expected: Double
            if let previous = lastSelectedBefore {
                expected = contentPrefix[candidate] - contentPrefix[previous]
            } else if let refresh = model.lastRefresh {
                let index = Int((refresh - clock.start) / 60_000)
                if index >= 0 {
                    expected = contentPrefix[candidate] - contentPrefix[min(index, candidate)]
                } else {
                    let before = min(Double(-index), 24 * 60) / 60 * meanRate
                    expected = contentPrefix[candidate] + before
                }
            } else {
                return 1
            }
            return 1 - exp(-expected)
        }
        var wakes: [AppWake] = []
        var selected: [Int] = []
        var perDay: [Int32: Int] = [:]
        let floorMinutes = Int((floor + 59_999) / 60_000)
        let lastIndex = min(planMinutes, clock.count - window - 1)
        let threshold = configuration.threshold
        var prefix = [Double](repeating: 0, count: clock.count + 1)
        while wakes.count < configuration.perAppDailyCap * (planMinutes / 1440 + 1) {
            for index in 0..<clock.count { prefix[index + 1] = prefix[index] + rates[index] }
            let sorted = selected.sorted()
            var pointer = 0
            var best = -1
            var bestValue = 0.0
            var bestChance = 1.0
            var candidate = firstIndex
            while candidate < lastIndex {
                if let near = selected.first(where: { abs($0 - candidate) < floorMinutes }) {
                    candidate = near + floorMinutes
                    continue
                }
                while pointer < sorted.count, sorted[pointer] < candidate { pointer += 1 }
                let raw = prefix[candidate + window + 1] - prefix[candidate + lead]
                let upper = raw * factors[Int(clock.minuteOfDay[candidate]) / 60]
                if upper > bestValue, upper >= threshold,
                    perDay[clock.localDay[candidate], default: 0] < configuration.perAppDailyCap
                {
                    let chance = newContentChance(candidate, lastSelectedBefore: pointer > 0 ? sorted[pointer - 1] : nil)
                    if upper * chance > bestValue {
                        bestValue = upper * chance
                        bestChance = chance
                        best = candidate
                    }
                }
                candidate += 1
            }
            guard best >= 0, bestValue >= threshold, bestValue > 0 else { break }
            selected.append(best)
            perDay[clock.localDay[best], default: 0] += 1
            let expected = prefix[best + window + 1] - prefix[best + lead]
            for index in (best + lead)...(best + window) { rates[index] = 0 }
            var reasons: [WakeReason] = []
            let profile = clock.weekend[best + window / 2] ? weekend : weekday
            let centre = (Int(clock.minuteOfDay[best]) + (lead + window) / 2) % 1440
            if let peak = profile.peaks.min(by: {
                circularDistance($0.minute, centre) < circularDistance($1.minute, centre)
            }), circularDistance(peak.minute, centre) <= 90 {
                reasons.append(.peak(minute: peak.minute, expectedLaunches: expected, confidence: peak.confidence))
            } else {
                reasons.append(.peak(minute: centre, expectedLaunches: expected, confidence: 0))
            }
            if configuration.usesFetchResults, model.fetchWeight > 0, bestChance < 0.9 {
                reasons.append(.fetchResults(newDataRate: bestChance))
            }
            wakes.append(
                AppWake(app: name, plannedTime: Date(milliseconds: clock.time(best)), expectedLaunches: expected, reasons: reasons))
        }
        wakes.sort { $0.plannedTime < $1.plannedTime }
        // Greedy picks are made out of time order, so a pick may have counted on new content
        // that an earlier pick, made after it, will already have fetched. Walk the picks in time
        // order with the refresh before each, and drop those no longer worth a wake.
        if configuration.usesFetchResults {
            var kept: [AppWake] = []
            var previous: Int?
            for wake in wakes {
                let index = Int((wake.plannedTime.milliseconds - clock.start) / 60_000)
                let chance = newContentChance(index, lastSelectedBefore: previous)
                let value = wake.expectedLaunches * factors[Int(clock.minuteOfDay[index]) / 60] * chance
                guard value >= threshold else { continue }
                var updated = wake
                updated.reasons.removeAll { if case .fetchResults = $0 { true } else { false } }
                if model.fetchWeight > 0, chance < 0.9 { updated.reasons.append(.fetchResults(newDataRate: chance)) }
                kept.append(updated)
                previous = index
            }
            wakes = kept
        }
        // The first wake is the one the interval or a backoff held back, if it comes soon after.
        if let heldBy, let first = wakes.first,
            first.plannedTime.milliseconds - earliest <= Milliseconds(configuration.freshnessWindow * 1000)
        {
            wakes[0].reasons.append(heldBy)
        }
        return AppPlan(wakes: wakes, rates: originalRates, factors: factors, earliest: earliest, floor: floor, coldStart: false)
    }

    /// Expected cold launches per minute over the horizon: the daily profile, raised where the
    /// time since the app's last launch makes the next launch likely (people often come back
    /// to an app within an hour or two).
    /// How long after a launch the time since it says more than the time of day, in minutes.
    static let recencyHorizon = 4 * 60
    /// Expected launches an app may miss before it counts as in a quiet spell, and how much
    /// each further missed launch lowers its expected launches.
    static let quietSpellAllowance = 1.5
    static let quietSpellWeight = 0.5

    static func fillRates(
        _ rates: inout [Double], model: AppModel, clock: HorizonClock, startIndex: Int, weekday: DailyProfile,
        weekend: DailyProfile, notColdUntil: Milliseconds, device: DeviceModel, _ configuration: PredictorConfiguration
    ) {
        let now = clock.time(startIndex)
        let densities = configuration.usesRecency
            ? model.lastLaunch.flatMap { model.nextLaunchDensities(minutesWaited: Int((now - $0) / 60_000)) } : nil
        // Launches the profile expected since the app's last launch, up to the horizon's start,
        // counted minute by minute over at most a week.
        var missed = 0.0
        if let last = model.lastLaunch, last < clock.start {
            var (day, minute) = device.local(last, utcOffset: nil)
            var left = min(7 * 1440, Int((clock.start - last) / 60_000))
            while left > 0 {
                let profile = DeviceModel.isWeekend(day: day) ? weekend : weekday
                if minute == 0, left >= 1440 {
                    missed += profile.launchesPerDay
                    left -= 1440
                    day += 1
                    continue
                }
                missed += profile.rate(minute: minute)
                left -= 1
                minute += 1
                if minute == 1440 {
                    minute = 0
                    day += 1
                }
            }
        }
        for index in 0..<clock.count {
            let time = clock.time(index)
            let profile = clock.weekend[index] ? weekend : weekday
            let profileRate = profile.rate(minute: Int(clock.minuteOfDay[index]))
            defer { if model.lastLaunch.map({ time > $0 }) ?? false { missed += profileRate } }
            guard time >= notColdUntil else {
                rates[index] = 0
                continue
            }
            var rate = profileRate
            if let last = model.lastLaunch {
                let since = Int((time - last) / 60_000)
                if let densities, since >= 30, since < recencyHorizon {
                    // Both signals add: the profile's launches at this hour, and the chance of
                    // coming back so soon after the last launch.
                    rate += densities[(since - 30) / 10]
                } else if since >= recencyHorizon {
                    // An app not opened although its profile expected it is likely in a quiet
                    // spell: the profile remembers the days when it was in use.
                    rate /= 1 + quietSpellWeight * max(0, missed - quietSpellAllowance)
                }
            }
            rates[index] = rate
        }
    }

    @inline(__always) static func circularDistance(_ a: Int, _ b: Int) -> Int {
        let distance = abs(a - b) % 1440
        return min(distance, 1440 - distance)
    }

    /// Groups app wakes into device wakes: an app wake joins the device wake before it when that
    /// is at most the coalescing window earlier, keeps enough of its value, and breaks no interval.
    static func coalesce(
        _ plans: [String: AppPlan], device: String, clock: HorizonClock, from: Date, to: Date,
        _ configuration: PredictorConfiguration
    ) -> [DeviceWake] {
        let window = Int(configuration.freshnessWindow / 60), lead = Int((configuration.lead / 60).rounded(.up))
        var all = plans.values.flatMap(\.wakes).filter { $0.plannedTime > from && $0.plannedTime < to }
        all.sort { ($0.plannedTime, $0.app) < ($1.plannedTime, $1.app) }
        var lastTime: [String: Milliseconds] = [:]
        var deviceWakes: [DeviceWake] = []
        let maximumShift = Milliseconds(configuration.coalescingWindow * 1000)
        func value(_ plan: AppPlan, at time: Milliseconds) -> Double {
            let index = Int((time - clock.start) / 60_000)
            guard index >= 0, index + window < plan.rates.count else { return 0 }
            var sum = 0.0
            for minute in (index + lead)...(index + window) { sum += plan.rates[minute] }
            return sum * plan.factors[Int(clock.minuteOfDay[index]) / 60]
        }
        for var wake in all {
            let plan = plans[wake.app]!
            let planned = wake.plannedTime.milliseconds
            if var current = deviceWakes.last, planned - current.time.milliseconds <= maximumShift,
                !current.apps.contains(where: { $0.app == wake.app })
            {
                let anchor = current.time.milliseconds
                let keepsValue =
                    plan.coldStart || anchor == planned
                    || value(plan, at: anchor) >= configuration.coalescingMinimumValue * value(plan, at: planned)
                let keepsInterval = anchor >= plan.earliest && anchor - (lastTime[wake.app] ?? .min / 2) >= plan.floor
                if keepsValue && keepsInterval {
                    if anchor != planned { wake.reasons.append(.movedEarlier(seconds: Double(planned - anchor) / 1000)) }
                    current.apps.append(wake)
                    deviceWakes[deviceWakes.count - 1] = current
                    lastTime[wake.app] = anchor
                    continue
                }
            }
            deviceWakes.append(DeviceWake(device: device, time: wake.plannedTime, apps: [wake]))
            lastTime[wake.app] = planned
        }
        for index in deviceWakes.indices where deviceWakes[index].apps.count > 1 {
            let names = deviceWakes[index].apps.map(\.app)
            for appIndex in deviceWakes[index].apps.indices {
                let others = names.filter { $0 != deviceWakes[index].apps[appIndex].app }
                deviceWakes[index].apps[appIndex].reasons.append(.coalesced(with: others))
            }
        }
        return capPerDay(deviceWakes, clock: clock, configuration)
    }

    /// The first device wake after `from`: coalescing needs only the app wakes within the
    /// coalescing window of the earliest one, so this costs O(apps), not a whole schedule.
    static func firstDeviceWake(
        _ plans: [String: AppPlan], device: String, clock: HorizonClock, after from: Date, before end: Date,
        _ configuration: PredictorConfiguration
    ) -> DeviceWake? {
        var firsts: [String: AppPlan] = [:]
        var earliest: Date?
        for (app, plan) in plans {
            guard let index = firstIndex(plan.wakes, after: from), plan.wakes[index].plannedTime < end else { continue }
            var trimmed = plan
            trimmed.wakes = [plan.wakes[index]]
            firsts[app] = trimmed
            earliest = min(earliest ?? plan.wakes[index].plannedTime, plan.wakes[index].plannedTime)
        }
        guard let earliest else { return nil }
        let limit = earliest.addingTimeInterval(configuration.coalescingWindow)
        let near = firsts.filter { $0.value.wakes[0].plannedTime <= limit }
        return coalesce(near, device: device, clock: clock, from: from, to: end, configuration).first
    }

    /// The index of the first wake after a time, in wakes sorted by time.
    static func firstIndex(_ wakes: [AppWake], after time: Date) -> Int? {
        var low = 0, high = wakes.count
        while low < high {
            let middle = (low + high) / 2
            if wakes[middle].plannedTime <= time { low = middle + 1 } else { high = middle }
        }
        return low < wakes.count ? low : nil
    }

    /// Drops the least valuable device wakes of any local day over the device's daily cap.
    static func capPerDay(_ wakes: [DeviceWake], clock: HorizonClock, _ configuration: PredictorConfiguration) -> [DeviceWake] {
        var byDay: [Int32: [Int]] = [:]
        for (index, wake) in wakes.enumerated() {
            let minute = Int((wake.time.milliseconds - clock.start) / 60_000)
            let day = clock.localDay[max(0, min(clock.count - 1, minute))]
            byDay[day, default: []].append(index)
        }
        var dropped = Set<Int>()
        for indices in byDay.values where indices.count > configuration.perDeviceDailyCap {
            let ranked = indices.sorted {
                wakes[$0].apps.reduce(0) { $0 + $1.expectedLaunches } > wakes[$1].apps.reduce(0) { $0 + $1.expectedLaunches }
            }
            dropped.formUnion(ranked.dropFirst(configuration.perDeviceDailyCap))
        }
        return wakes.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }
}

