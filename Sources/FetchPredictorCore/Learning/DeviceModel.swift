import Foundation

/// What the predictor has learned of one device: its apps' models, and the days it has seen.
///
/// Events must arrive in time order. Each event's local wall-clock time comes from its own UTC
/// offset when it has one, else from the device's time zone.
public struct DeviceModel: Sendable, Hashable, Codable {
    /// The device's time zone, used for events without an offset and for planning.
    public var timeZone: TimeZone
    /// The apps, by name.
    public internal(set) var apps: [String: AppModel] = [:]
    /// The local day of the latest event (days since 1970-01-01 in local time).
    public internal(set) var currentDay: Int?
    /// The local day of the first event.
    public internal(set) var firstDay: Int?
    /// Decayed counts of days seen: all days and weekdays (fast decay), weekend days (slow decay).
    var recentDays = 0.0
    var weekdayDays = 0.0
    var weekendDays = 0.0
    /// The time of the latest event.
    public internal(set) var lastEventTime: Milliseconds?
    /// How well the planner's forecasts came true, and the correction of its next ones.
    public internal(set) var calibration = ForecastCalibration()
    /// How a cold launch's chance depends on the time of day and on the time since the last
    /// launch, learned from every app of the device.
    public internal(set) var hazard = LaunchHazard()

    /// Creates a value with every field given.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The slower decay of the weekend profile: weekend days come two a week, so their history
    /// must last longer than a week to be learned at all.
    static func slowDecay(_ configuration: PredictorConfiguration) -> Double {
        min(0.97, configuration.dailyDecay + (1 - configuration.dailyDecay) * 0.6)
    }

    /// Whether a local day (days since 1970) is a Saturday or a Sunday.
    static func isWeekend(day: Int) -> Bool {
        let weekday = CivilDate.weekday(days: day)
        return weekday == 1 || weekday == 7
    }

    /// The local time of an instant: its day and its minute of the day.
    func local(_ time: Milliseconds, utcOffset: Int?) -> (day: Int, minute: Int) {
        let offset = utcOffset ?? timeZone.secondsFromGMT(for: Date(milliseconds: time))
        let (day, millisecond) = CivilDate.split(localMilliseconds: time + Milliseconds(offset) * 1000)
        return (day, millisecond / 60_000)
    }

    /// Moves the model's clock to a local day, decaying what came before.
    mutating func advance(to day: Int, _ configuration: PredictorConfiguration) {
        guard let current = currentDay else {
            currentDay = day
            firstDay = day
            recentDays = 1
            if Self.isWeekend(day: day) { weekendDays = 1 } else { weekdayDays = 1 }
            return
        }
        guard day > current else { return }
        let steps = min(day - current, 120)
        let fast = configuration.dailyDecay, slow = Self.slowDecay(configuration)
        for step in 1...steps {
            let newDay = day - steps + step
            recentDays = recentDays * fast + 1
            weekdayDays *= fast
            weekendDays *= slow
            if Self.isWeekend(day: newDay) { weekendDays += 1 } else { weekdayDays += 1 }
        }
        let launchFactor = pow(fast, Double(steps)), slowFactor = pow(slow, Double(steps))
        let fetchFactor = pow(configuration.fetchDecay, Double(steps))
        // Through the values in place: iterating the keys while writing would copy the dictionary.
        for index in apps.values.indices {
            apps.values[index].decay(launchFactor: launchFactor, slowFactor: slowFactor, fetchFactor: fetchFactor)
        }
        calibration.decay(pow(configuration.habitDecay, Double(steps)))
        hazard.decay(pow(configuration.habitDecay, Double(steps)))
        currentDay = day
    }

    /// Learns from one event. Device events are ignored for now.
    public mutating func observe(_ event: Event, _ configuration: PredictorConfiguration) {
        guard event.kind == .launch || event.kind == .fetch else { return }
        let (day, minute) = local(event.time, utcOffset: event.utcOffset)
        if configuration.learnsLaunchHazard, let currentDay, day > currentDay {
            // The day that ended is counted into the launch hazard with the profiles it began with.
            for name in apps.keys { countExposure(of: name, until: event.time, configuration) }
            advance(to: day, configuration)
            hazard.fit()
            for name in apps.keys { snapshotHazardBins(of: name, day: day, configuration) }
        } else {
            advance(to: day, configuration)
        }
        lastEventTime = max(lastEventTime ?? event.time, event.time)
        // In place: a copy of the app's model would copy its counts on the first write.
        switch event.kind {
        case .launch:
            if configuration.learnsLaunchHazard {
                countLaunch(of: event.app, at: event.time, minute: minute, configuration)
            }
            let cold = apps[event.app, default: AppModel()].observeLaunch(
                at: event.time, minuteOfDay: minute, day: day, isWeekend: Self.isWeekend(day: day),
                coldGap: Milliseconds(configuration.coldLaunchGap * 1000), habitDecay: configuration.habitDecay)
            calibration.launched(
                event.app, at: event.time, cold: cold, lead: Milliseconds(configuration.lead * 1000),
                window: Milliseconds(configuration.freshnessWindow * 1000))
        case .fetch:
            calibration.fetched(event.app, at: event.time)
            apps[event.app, default: AppModel()].observeFetch(
                at: event.time, minuteOfDay: minute, day: day, result: event.result ?? .failed, duration: event.duration
            )
        default:
            break
        }
    }

    /// Counts the minutes an app spent, up to `time`, where a cold launch of it could come, each
    /// in the launch hazard's bins of its profile and of the time since its last launch.
    mutating func countExposure(of name: String, until time: Milliseconds, _ configuration: PredictorConfiguration) {
        guard let model = apps[name], let last = model.lastLaunch, model.hazardBins.count == AppModel.binsPerDay
        else { return }
        let from = max(model.exposureCountedUntil ?? .min, last + Milliseconds(configuration.coldLaunchGap * 1000))
        guard from < time else { return }
        let minutes = Int((time - from) / 60_000)
        guard minutes > 0 else { return }
        var minute = local(from, utcOffset: nil).minute
        var since = Int((from - last) / 60_000)
        var expected = [Double](repeating: 0, count: LaunchHazard.sinceBins)
        model.hazardBins.withUnsafeBufferPointer { bins in
            for _ in 0..<minutes {
                let bin = Int(bins[minute / AppModel.binMinutes])
                let sinceBin = LaunchHazard.sinceBin(minutes: since)
                hazard.count(profileBin: bin, sinceBin: sinceBin, minutes: 1, launched: false)
                expected[sinceBin] += hazard.rate(profileBin: bin, sinceBin: sinceBin)
                minute = minute == 1439 ? 0 : minute + 1
                since += 1
            }
        }
        apps[name]!.exposureCountedUntil = from + Milliseconds(minutes) * 60_000
        for bin in expected.indices { apps[name]!.sinceExpected[bin] += expected[bin] }
    }

    /// Counts the exposure of an app up to its launch, and the launch when it is cold.
    mutating func countLaunch(
        of name: String, at time: Milliseconds, minute: Int, _ configuration: PredictorConfiguration
    ) {
        countExposure(of: name, until: time, configuration)
        guard let model = apps[name], let last = model.lastLaunch, model.hazardBins.count == AppModel.binsPerDay
        else { return }
        let gap = Milliseconds(configuration.coldLaunchGap * 1000)
        if time - last >= gap {
            let sinceBin = LaunchHazard.sinceBin(minutes: Int((time - last) / 60_000))
            apps[name]!.sinceLaunches[sinceBin] += 1
            hazard.count(
                profileBin: Int(model.hazardBins[minute / AppModel.binMinutes]), sinceBin: sinceBin, minutes: 0,
                launched: true)
        }
        apps[name]!.exposureCountedUntil = nil
    }

    /// Records the profile bins an app's new day begins with; none while it is in cold start.
    mutating func snapshotHazardBins(of name: String, day: Int, _ configuration: PredictorConfiguration) {
        guard !isColdStart(app: name, configuration) else {
            apps[name]!.hazardBins = []
            return
        }
        let kind: DayKind = Self.isWeekend(day: day) ? .weekend : .weekday
        let rates = planningProfile(app: name, for: kind, configuration, findsPeaks: false).rates
        apps[name]!.hazardBins = rates.map { UInt8(LaunchHazard.profileBin($0 / Double(AppModel.binMinutes))) }
    }

    /// Days of history the device has, counting the current one.
    public var daysOfHistory: Int {
        guard let firstDay, let currentDay else { return 0 }
        return currentDay - firstDay + 1
    }
}
