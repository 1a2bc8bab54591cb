import Foundation

/// What the predictor has learned of one app on one device: when its cold launches come, by
/// time of day, and what its fetches bring.
///
/// Counts decay by day, so that recent days weigh more than old ones. The model is updated one
/// event at a time, in time order, and never needs the events again.
public struct AppModel: Sendable, Hashable, Codable {
    /// Bins of the daily profile: 5 minutes each, 288 a day.
    public static let binsPerDay = 288
    /// The length of a bin in minutes.
    public static let binMinutes = 5

    /// Decayed cold launches per bin, all days, with the fast ``PredictorConfiguration/dailyDecay``.
    var recent: [Double] = Array(repeating: 0, count: binsPerDay)
    /// Decayed cold launches per bin on weekdays (fast decay) and on weekends (slower decay).
    var weekday: [Double] = Array(repeating: 0, count: binsPerDay)
    var weekend: [Double] = Array(repeating: 0, count: binsPerDay)
    /// Decayed fetch results per local hour.
    var fetchNew: [Double] = Array(repeating: 0, count: 24)
    var fetchNo: [Double] = Array(repeating: 0, count: 24)
    var fetchFailed: [Double] = Array(repeating: 0, count: 24)
    /// What fetch results tell of how often new content appears, per local hour: publications
    /// attributed to the hour, and hours of exposure between a refresh and the fetch after it.
    var publications: [Double] = Array(repeating: 0, count: 24)
    var exposure: [Double] = Array(repeating: 0, count: 24)

    /// Gaps from a launch to the next cold launch: 10-minute bins from 30 minutes to a day, and
    /// a last bin for longer gaps. Decayed slowly: how soon an app is opened again is a lasting trait.
    var gaps: [Double] = Array(repeating: 0, count: AppModel.gapBins + 1)
    /// Where ``gaps`` begin, in minutes after a launch: a launch sooner is no cold launch.
    static let gapStartMinutes = 30
    /// The width of a bin of ``gaps``, in minutes.
    static let gapBinMinutes = 10
    /// The bins of ``gaps`` below a day.
    static let gapBins = (DayMinute.perDay - gapStartMinutes) / gapBinMinutes

    /// The bin of ``gaps`` of a time since a launch, in minutes.
    static func gapBin(minutes: Int) -> Int {
        min(gapBins, max(0, (minutes - gapStartMinutes) / gapBinMinutes))
    }

    /// The profile bin of ``LaunchHazard`` at each 5-minute bin of the current local day, from the
    /// planning profile as it stood when the day began; empty while the app is in cold start.
    var hazardBins: [UInt8] = []
    /// The time up to which the app's exposure has been counted in the device's ``LaunchHazard``.
    var exposureCountedUntil: Milliseconds?
    /// The app's own cold launches in each bin of time since its last launch, and those the
    /// device's ``LaunchHazard`` expected there: how the app differs from the device's apps.
    var sinceLaunches = [Double](repeating: 0, count: LaunchHazard.sinceBins)
    var sinceExpected = [Double](repeating: 0, count: LaunchHazard.sinceBins)

    /// How much more (or less) often than the device's apps this app comes back after `minutes`
    /// since its last launch, shrunk toward 1 by a prior of two launches.
    @inline(__always) func sinceMultiplier(bin: Int) -> Double {
        (sinceLaunches[bin] + 2) / (sinceExpected[bin] + 2)
    }

    /// The long memory of cold launches that the app's habits are read from.
    public internal(set) var habits = HabitCounts()

    /// Every launch and every cold launch seen, undecayed.
    public internal(set) var launches = 0
    /// Cold launches: launches with no launch of the app in the 30 minutes before.
    public internal(set) var coldLaunches = 0
    /// The local day of the app's first event.
    public internal(set) var firstDay: Int?
    /// The latest launch.
    public internal(set) var lastLaunch: Milliseconds?
    /// The local days with a launch, counted once each: a burst of launches on one day is one.
    public internal(set) var launchDays = 0
    /// The local day of the latest launch.
    public internal(set) var lastLaunchDay: Int?
    /// The local day of the first launch (``firstDay`` may be an earlier fetch's).
    public internal(set) var firstLaunchDay: Int?
    /// The latest fetch.
    public internal(set) var lastFetch: Milliseconds?
    /// Failed fetches since the last fetch that worked or the last launch.
    public internal(set) var consecutiveFailures = 0
    /// The latest failed fetch.
    public internal(set) var lastFailure: Milliseconds?
    /// A moving average of fetch durations, in seconds.
    public internal(set) var meanFetchDuration: Double?
    /// Bumped by every change, so that plans made from the model know when they are stale.
    public internal(set) var version = 0
    /// Bumped by every change of what its planning profiles are made of (cold launches, a new
    /// day), so that a cache of them knows when it is stale.
    public internal(set) var profileVersion = 0

    /// Creates a value with every field given.
    public init() {}

    mutating func decay(launchFactor: Double, slowFactor: Double, fetchFactor: Double) {
        for index in 0..<Self.binsPerDay {
            recent[index] *= launchFactor
            weekday[index] *= launchFactor
            weekend[index] *= slowFactor
        }
        for index in gaps.indices { gaps[index] *= slowFactor }
        for index in sinceLaunches.indices {
            sinceLaunches[index] *= slowFactor
            sinceExpected[index] *= slowFactor
        }
        profileVersion += 1
        for hour in 0..<24 {
            fetchNew[hour] *= fetchFactor
            fetchNo[hour] *= fetchFactor
            fetchFailed[hour] *= fetchFactor
            publications[hour] *= fetchFactor
            exposure[hour] *= fetchFactor
        }
        version += 1
    }

    /// Counts a launch at a local minute of a local day; returns whether it was cold.
    @discardableResult
    mutating func observeLaunch(
        at time: Milliseconds, minuteOfDay: Int, day: Int, isWeekend: Bool, coldGap: Milliseconds,
        habitDecay: Double = PredictorConfiguration().habitDecay
    ) -> Bool {
        if firstDay == nil { firstDay = day }
        let cold = ColdLaunch.isCold(at: time, previous: lastLaunch, gap: coldGap)
        launches += 1
        if firstLaunchDay == nil { firstLaunchDay = day }
        if lastLaunchDay.map({ day > $0 }) ?? true {
            launchDays += 1
            lastLaunchDay = day
        }
        if cold {
            coldLaunches += 1
            let bin = minuteOfDay / Self.binMinutes
            recent[bin] += 1
            if let last = lastLaunch {
                let minutes = time.minutes(since: last)
                gaps[Self.gapBin(minutes: minutes)] += 1
            }
            if isWeekend { weekend[bin] += 1 } else { weekday[bin] += 1 }
            profileVersion += 1
        }
        habits.countLaunch(bin: cold ? minuteOfDay / Self.binMinutes : nil, day: day, decay: habitDecay)
        lastLaunch = max(lastLaunch ?? time, time)
        lastRefresh = max(lastRefresh ?? time, time)
        // Opening the app ends a backoff, as on iOS.
        consecutiveFailures = 0
        version += 1
        return cold
    }

    /// The last refresh of the app's content: a fetch that did not fail, or a launch.
    public internal(set) var lastRefresh: Milliseconds?

    /// Prior publications per hour and hours of exposure: before any fetch result, content is
    /// taken to change about four times an hour, so that every fetch is expected to bring news;
    /// the prior is weak, so that a few days of results outweigh it.
    static let priorPublications = 0.2, priorExposure = 0.05
    /// The mean fetch duration is a moving average: the old mean keeps this weight...
    static let durationKept = 0.8
    /// ...and each new duration has this one.
    static let durationWeight = 0.2
    /// An app's share of failed fetches starts from this many failures...
    static let priorFailures = 0.1
    /// ...in this many fetches; an hour's share is shrunk toward the app's by this many fetches
    /// at the app's share.
    static let priorFetches = 2.0

    /// New content expected per hour at a local hour of the day.
    public func publicationRate(hour: Int) -> Double {
        (publications[hour] + Self.priorPublications) / (exposure[hour] + Self.priorExposure)
    }

    /// Learns from a fetch that did not fail how often content appears: the time since the last
    /// refresh is exposure, and new data is one publication or more within it, spread over its
    /// hours in proportion to the rates believed so far.
    mutating func learnPublications(at time: Milliseconds, minuteOfDay: Int, newData: Bool) {
        guard let refresh = lastRefresh, refresh < time else { return }
        let gapMinutes = min(time.minutes(since: refresh), DayMinute.perDay)
        guard gapMinutes > 0 else { return }
        var overlap = [Double](repeating: 0, count: 24)
        var minute = minuteOfDay
        var left = gapMinutes
        while left > 0 {
            let hour = DayMinute.wrapped(minute - 1) / DayMinute.perHour
            let intoHour = ((minute - 1) % 60 + 60) % 60 + 1
            let step = min(left, intoHour)
            overlap[hour] += Double(step) / Double(DayMinute.perHour)
            minute -= step
            left -= step
        }
        var expected = 0.0
        for hour in 0..<24 where overlap[hour] > 0 {
            exposure[hour] += overlap[hour]
            expected += overlap[hour] * publicationRate(hour: hour)
        }
        guard newData, expected > 0 else { return }
        // At least one publication; attribute the expected count (never less than one).
        let count = max(1, expected)
        for hour in 0..<24 where overlap[hour] > 0 {
            publications[hour] += count * overlap[hour] * publicationRate(hour: hour) / expected
        }
    }

    /// Counts a fetch result at a local time.
    mutating func observeFetch(
        at time: Milliseconds, minuteOfDay: Int, day: Int, result: FetchResult, duration: Double?
    ) {
        let hour = minuteOfDay / DayMinute.perHour
        if firstDay == nil { firstDay = day }
        if result != .failed {
            learnPublications(at: time, minuteOfDay: minuteOfDay, newData: result == .newData)
            lastRefresh = max(lastRefresh ?? time, time)
        }
        switch result {
        case .newData: fetchNew[hour] += 1
        case .noData: fetchNo[hour] += 1
        case .failed: fetchFailed[hour] += 1
        }
        if result == .failed {
            consecutiveFailures += 1
            lastFailure = time
        } else {
            consecutiveFailures = 0
        }
        lastFetch = max(lastFetch ?? time, time)
        if let duration, duration.isFinite, duration >= 0 {
            meanFetchDuration =
                meanFetchDuration.map { Self.durationKept * $0 + Self.durationWeight * duration } ?? duration
        }
        version += 1
    }

    /// For each 10-minute bin of time since the last launch, the chance per minute that the next
    /// cold launch comes then, given that none came in the first `minutesWaited`; `nil` without
    /// enough history.
    public func nextLaunchDensities(minutesWaited: Int) -> [Double]? {
        let total = gaps.reduce(0, +)
        guard total >= 5 else { return nil }
        let waitedBin = Self.gapBin(minutes: minutesWaited)
        let surviving = gaps[waitedBin...].reduce(0, +)
        guard surviving > 0 else { return nil }
        return gaps.map { $0 / Double(Self.gapBinMinutes) / surviving }
    }

    /// The share of fetches at a local hour that fail, shrunk toward the app's overall share.
    public func failureRate(hour: Int) -> Double {
        failureRate(hour: hour, overall: overallFailureRate)
    }

    /// ``failureRate(hour:)`` at each of the 24 hours, the overall share summed once.
    func failureRates() -> [Double] {
        let overall = overallFailureRate
        return (0..<24).map { failureRate(hour: $0, overall: overall) }
    }

    /// The share of all fetches that fail, shrunk toward the prior.
    private var overallFailureRate: Double {
        let allFailed = fetchFailed.reduce(0, +)
        let all = allFailed + fetchNew.reduce(0, +) + fetchNo.reduce(0, +)
        return (allFailed + Self.priorFailures) / (all + Self.priorFetches)
    }

    private func failureRate(hour: Int, overall: Double) -> Double {
        let atHour = fetchFailed[hour] + fetchNew[hour] + fetchNo[hour]
        return (fetchFailed[hour] + Self.priorFetches * overall) / (atHour + Self.priorFetches)
    }

    /// How many fetches the app has had, decayed.
    var fetchWeight: Double { fetchNew.reduce(0, +) + fetchNo.reduce(0, +) + fetchFailed.reduce(0, +) }
}

extension AppModel {
    /// Counts the minutes the app spent, up to `time`, where a cold launch of it could come,
    /// each in the launch hazard's bins of its profile and of the time since its last launch;
    /// and what the hazard expected in each of those bins of time, which the app's own
    /// multipliers are learned against.
    mutating func countExposure(
        until time: Milliseconds, coldGap: Milliseconds, zone: TimeZone, into hazard: inout LaunchHazard
    ) {
        guard let last = lastLaunch, hazardBins.count == Self.binsPerDay else { return }
        let from = max(exposureCountedUntil ?? .min, last + coldGap)
        guard from < time else { return }
        let minutes = time.minutes(since: from)
        guard minutes > 0 else { return }
        var minute = DeviceModel.local(from, utcOffset: nil, zone: zone).minute
        var since = from.minutes(since: last)
        var expected = [Double](repeating: 0, count: LaunchHazard.sinceBins)
        hazardBins.withUnsafeBufferPointer { bins in
            for _ in 0..<minutes {
                let bin = Int(bins[minute / Self.binMinutes])
                let sinceBin = LaunchHazard.sinceBin(minutes: since)
                hazard.count(profileBin: bin, sinceBin: sinceBin, minutes: 1, launched: false)
                expected[sinceBin] += hazard.rate(profileBin: bin, sinceBin: sinceBin)
                minute = minute == 1439 ? 0 : minute + 1
                since += 1
            }
        }
        exposureCountedUntil = from + .minutes(minutes)
        for bin in expected.indices { sinceExpected[bin] += expected[bin] }
    }

    /// Counts the exposure up to a launch at a local minute, and the launch when it is cold.
    mutating func countLaunch(
        at time: Milliseconds, minute: Int, coldGap: Milliseconds, zone: TimeZone, into hazard: inout LaunchHazard
    ) {
        countExposure(until: time, coldGap: coldGap, zone: zone, into: &hazard)
        guard let last = lastLaunch, hazardBins.count == Self.binsPerDay else { return }
        if ColdLaunch.isCold(at: time, previous: last, gap: coldGap) {
            let sinceBin = LaunchHazard.sinceBin(minutes: time.minutes(since: last))
            sinceLaunches[sinceBin] += 1
            hazard.count(
                profileBin: Int(hazardBins[minute / Self.binMinutes]), sinceBin: sinceBin, minutes: 0, launched: true)
        }
        exposureCountedUntil = nil
    }
}
