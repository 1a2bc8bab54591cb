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
    /// The device's wakes of the hour up to its latest fetch: the distinct times of its fetches,
    /// in order, which a push budget counts before the plan that follows them.
    public internal(set) var recentWakes: [Milliseconds] = []
    /// How well the planner's forecasts came true, and the correction of its next ones.
    public internal(set) var calibration = ForecastCalibration()
    /// How a cold launch's chance depends on the time of day and on the time since the last
    /// launch, learned from every app of the device.
    public internal(set) var hazard = LaunchHazard()
    /// What the launch model's features keep of the recent events: launches, unlocks and
    /// notifications; empty unless learned for a forecaster that reads them
    /// (``ForecastInputs/launchFeatures``).
    public internal(set) var traces = LaunchTraces()
    /// Low Power Mode as the device's last `lowPowerOn` or `lowPowerOff` event left it; `nil`
    /// when it has had none.
    public internal(set) var lowPowerMode: LowPowerMode?
    /// Its power, network and battery, and how often it is on power and on an unmetered network
    /// at each time of day, from its state events.
    public internal(set) var stateHabits = StateHabits()

    /// The time of the latest event a plan is made at: a launch, a fetch, or an event that told
    /// the device's power, network or battery, which a plan counts on from the moment it changes
    /// (``Predictor/plannedWake(asOf:device:)``). Low Power Mode is not among them: while it is on
    /// nothing is planned, and once off the plan is the one the device would have had.
    public var lastPlanningTime: Milliseconds? {
        [lastEventTime, stateHabits.lastChange].compactMap { $0 }.max()
    }

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
        Self.local(time, utcOffset: utcOffset, zone: timeZone)
    }

    /// The local time of an instant in a zone, or at a UTC offset when it has one: its day
    /// (days since 1970-01-01) and its minute of the day.
    public static func local(_ time: Milliseconds, utcOffset: Int?, zone: TimeZone) -> (day: Int, minute: Int) {
        let offset = utcOffset ?? zone.secondsFromGMT(for: Date(milliseconds: time))
        let (day, millisecond) = CivilDate.split(localMilliseconds: time + .seconds(offset))
        return (day, millisecond / Int(Milliseconds.perMinute))
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
        // A day at a time, so that what the apps learned depends on the days passed, not on the
        // events that moved the clock: a replay's own fetch may move it sooner than another's.
        // Through the values in place: iterating the keys while writing would copy the dictionary.
        for index in apps.values.indices {
            for _ in 1...steps {
                apps.values[index].decay(launchFactor: fast, slowFactor: slow, fetchFactor: configuration.fetchDecay)
            }
        }
        calibration.decay(pow(configuration.habitDecay, Double(steps)))
        hazard.decay(pow(configuration.habitDecay, Double(steps)))
        currentDay = day
    }

    /// Learns from one event. Unlocks, the screen turned on and notifications reach only the
    /// launch model's ``traces``, kept when `learning` has ``ForecastInputs/launchFeatures``; Low
    /// Power Mode turned on or off only ``lowPowerMode``; power, network and battery only
    /// ``stateHabits``. The ``hazard`` is learned when `learning` has ``ForecastInputs/launchHazard``:
    /// `learning` is what the forecaster reads (``LaunchForecaster/inputs``): by default the
    /// default forecaster's, ``HazardForecaster``.
    public mutating func observe(
        _ event: Event, _ configuration: PredictorConfiguration, learning: ForecastInputs = .launchHazard
    ) {
        if event.kind == .lowPowerOn || event.kind == .lowPowerOff {
            // Two events at one instant: on wins, as no wake is the safe reading.
            if let current = lowPowerMode,
                current.since.milliseconds > event.time
                    || (current.since.milliseconds == event.time && current.isOn)
            {
                return
            }
            lowPowerMode = LowPowerMode(isOn: event.kind == .lowPowerOn, since: Date(milliseconds: event.time))
            return
        }
        if event.kind.isDeviceState {
            stateHabits.observe(event, zone: timeZone)
            return
        }
        if learning.contains(.launchFeatures) { traces.observe(event, zone: timeZone, configuration) }
        guard event.kind == .launch || event.kind == .fetch else { return }
        let (day, minute) = local(event.time, utcOffset: event.utcOffset)
        if learning.contains(.launchHazard), let currentDay, day > currentDay {
            // The day that ended is counted into the launch hazard with the profiles it began with.
            // By position, not by name: iterating the keys while writing the values would copy
            // the dictionary, and each lookup would hash the name again.
            var index = apps.startIndex
            while index != apps.endIndex {
                countExposure(at: index, until: event.time, configuration)
                apps.formIndex(after: &index)
            }
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
            if learning.contains(.launchHazard) {
                countLaunch(of: event.app, at: event.time, minute: minute, configuration)
            }
            let cold = apps[event.app, default: AppModel()].observeLaunch(
                at: event.time, minuteOfDay: minute, day: day, isWeekend: Self.isWeekend(day: day),
                coldGap: ColdLaunch.gap(configuration), habitDecay: configuration.habitDecay)
            calibration.launched(
                event.app, at: event.time, cold: cold, lead: configuration.leadMilliseconds,
                window: configuration.windowMilliseconds)
        case .fetch:
            noteWake(at: event.time)
            calibration.fetched(event.app, at: event.time)
            apps[event.app, default: AppModel()].observeFetch(
                at: event.time, minuteOfDay: minute, day: day, result: event.result ?? .failed, duration: event.duration
            )
        default:
            break
        }
    }

    /// Notes a fetch's time among ``recentWakes``: a wake, once for all the apps fetched at it.
    mutating func noteWake(at time: Milliseconds) {
        guard !recentWakes.contains(time) else { return }
        recentWakes.insert(time, at: recentWakes.firstIndex { $0 > time } ?? recentWakes.count)
        let since = recentWakes.last! - .perHour
        if recentWakes.first! <= since { recentWakes.removeAll { $0 <= since } }
    }

    /// Counts the minutes the app at a position of ``apps`` spent, up to `time`, where a cold
    /// launch of it could come, in the launch hazard.
    mutating func countExposure(
        at index: [String: AppModel].Index, until time: Milliseconds, _ configuration: PredictorConfiguration
    ) {
        // In place, through a mutating method: a read of the app's model from the dictionary
        // would copy it, and retain each of its arrays, for every app every day and at every launch.
        apps.values[index].countExposure(
            until: time, coldGap: ColdLaunch.gap(configuration), zone: timeZone, into: &hazard)
    }

    /// Counts the exposure of an app up to its launch, and the launch when it is cold.
    mutating func countLaunch(
        of name: String, at time: Milliseconds, minute: Int, _ configuration: PredictorConfiguration
    ) {
        guard let index = apps.index(forKey: name) else { return }
        apps.values[index].countLaunch(
            at: time, minute: minute, coldGap: ColdLaunch.gap(configuration), zone: timeZone,
            into: &hazard)
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
