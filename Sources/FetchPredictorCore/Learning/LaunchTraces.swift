import Foundation

/// What a device keeps of its recent events for the ``LaunchFeatures`` beyond the daily
/// profiles: each app's last launches and the last week of its cold launches, the launches of
/// the last half hour, which app follows which, the session, unlocks and notifications.
///
/// A ``DeviceModel`` keeps one and updates it with each event, so that the features of any app
/// at any time from its latest event on can be computed without reading an event again: by the
/// planner, which asks them of the minutes ahead as if nothing happened until then, and by a
/// ``FeatureTracker``, which asks them of the present. They never read the future: an event
/// reaches them only once it happened.
public struct LaunchTraces: Sendable, Hashable, Codable {
    /// What is kept of one app.
    struct AppTrace: Sendable, Hashable, Codable {
        var lastLaunch: Milliseconds?
        /// The number of the app's last launch among the device's launches, from 0 (``launchesSeen``).
        var lastLaunchSequence: Int?
        var lastColdLaunch: Milliseconds?
        /// Cold launches of the last week and an hour, oldest first.
        var coldLaunches: [Milliseconds] = []
        var lastNotification: Milliseconds?
    }

    /// A launch of the last half hour: the app's place (``OwnRates``) and the launch's number
    /// among the device's launches. The apps that followed it are those whose last launch came later.
    struct RecentLaunch: Sendable, Hashable, Codable {
        var time: Milliseconds
        var app: Int
        var sequence: Int
    }

    var apps: [String: AppTrace] = [:]
    var recent: [RecentLaunch] = []
    /// Launches the traces observed.
    var launchesSeen = 0
    /// Launches of each app by its place (``OwnRates``), and for each, how many of them each app
    /// (by place) followed within ``followMinutes``.
    var launchCounts: [Int] = []
    var followed: [PlaceTable<Int>] = []
    var lastApp: String?
    var lastAnyLaunch: Milliseconds?
    var sessionStart: Milliseconds?
    var lastUnlock: Milliseconds?
    /// Whether the device has reported a notification of any app.
    var notifies = false
    /// The person's own rates, counted on the device's completed windows.
    var rates = OwnRates()
    /// Counts the events that changed the traces: the features of every app may differ after
    /// one, so a plan made from the features is made again when it moves.
    public internal(set) var version = 0

    /// A session begins at a launch this many minutes or more after the previous launch of any
    /// app (or unlock).
    public static let sessionGapMinutes = 10
    /// The window of the session features (launches in it, apps that follow), in minutes.
    public static let followMinutes = 30

    /// Traces of a device that has seen nothing.
    public init() {}

    /// Keeps what the features need of one event, which comes no earlier than those before it.
    /// Fetches and the screen turned off leave the traces as they were.
    mutating func observe(_ event: Event, zone: TimeZone, _ configuration: PredictorConfiguration) {
        let time = event.time
        switch event.kind {
        case .launch:
            rates.completed(time)
            observeLaunch(of: event.app, at: time, utcOffset: event.utcOffset, zone: zone, configuration)
        case .unlock, .screenOn:
            rates.completed(time)
            lastUnlock = time
            sessionStart = time
        case .notification:
            rates.completed(time)
            apps[event.app, default: AppTrace()].lastNotification = time
            notifies = true
        case .fetch, .screenOff, .powerConnected, .powerDisconnected, .battery, .network, .lowPowerOn, .lowPowerOff:
            return
        }
        version += 1
    }

    private mutating func observeLaunch(
        of app: String, at time: Milliseconds, utcOffset: Int?, zone: TimeZone, _ configuration: PredictorConfiguration
    ) {
        let window = Milliseconds.minutes(Self.followMinutes)
        let coldGap = ColdLaunch.gap(configuration)
        var trace = apps[app, default: AppTrace()]
        let gap = Milliseconds.minutes(Self.sessionGapMinutes)
        let previous = max(lastAnyLaunch ?? .min, lastUnlock ?? .min)
        let startsSession = previous == .min || time - previous >= gap
        let cold = ColdLaunch.isCold(at: time, previous: trace.lastLaunch, gap: coldGap)
        let place = rates.observeLaunch(
            of: app, at: time, cold: cold,
            quarter: DeviceModel.local(time, utcOffset: utcOffset, zone: zone).minute / 360,
            startsSession: startsSession, lead: configuration.leadMilliseconds,
            window: configuration.windowMilliseconds, coldGap: coldGap)
        if cold {
            trace.lastColdLaunch = time
            trace.coldLaunches.append(time)
            let kept = time - Milliseconds(LaunchFeatures.capMinutes) * .perMinute - .perHour
            if let first = trace.coldLaunches.first, first < kept {
                trace.coldLaunches.removeAll { $0 < kept }
            }
        }
        // The launches of the last half hour this one is the first of the app to follow: those
        // since the app's last launch (itself included), the newest last.
        recent.removeAll { time - $0.time > window }
        if place == launchCounts.count {
            launchCounts.append(0)
            followed.append(PlaceTable())
        }
        let since = trace.lastLaunchSequence ?? .min
        for leader in recent.reversed() {
            guard leader.sequence >= since else { break }
            followed[leader.app].update(place, from: 0) { $0 += 1 }
        }
        trace.lastLaunch = time
        trace.lastLaunchSequence = launchesSeen
        apps[app] = trace
        recent.append(RecentLaunch(time: time, app: place, sequence: launchesSeen))
        launchesSeen += 1
        launchCounts[place] += 1
        if startsSession { sessionStart = time }
        lastAnyLaunch = time
        lastApp = app
    }

    /// The profiles the time-of-day features of an app read, for the kind of day of the time asked.
    struct Profiles {
        /// The planning profile (``DeviceModel/planningProfile(app:for:_:findsPeaks:)``).
        var planning: DailyProfile
        /// The long-memory habit profile (``DeviceModel/profile(app:for:_:)``).
        var habit: DailyProfile
    }

    /// The features of an app at `time`, no earlier than the latest event the traces kept, from
    /// the app's profiles for that time's kind of day; `utcOffset` is the zone's offset at `time`
    /// in seconds, when the caller knows it (the zone is asked otherwise).
    ///
    /// - Complexity: O(the app's cold launches of the last week + launches of the last half hour).
    func features(
        of app: String, at time: Milliseconds, local: (day: Int, minute: Int), zone: TimeZone, utcOffset: Int? = nil,
        profiles: Profiles, rates: OwnRates.Snapshot, _ configuration: PredictorConfiguration
    ) -> LaunchFeatures {
        features(
            of: inputs(of: app, rates: rates), at: time, local: local, zone: zone, utcOffset: utcOffset,
            profiles: profiles, configuration)
    }

    /// What an app's features read of the traces and of the person's own rates by the app's
    /// name, the same at every time until the next event: looked up once for the rows of a plan.
    struct AppInputs {
        var trace: AppTrace?
        var recency: [Double]?
        var baseRate: Double
        /// The chance after a launch of the last app opened, and in each quarter of the day.
        var follow: Double
        var followByQuarter: [Double]
        var sessionStartRate: Double
        /// How often the app followed the last app opened, and whether it is that app; 0 when none was.
        var followsLastApp = 0.0
        var wasLastApp = 0.0
    }

    /// The launches of an app.
    func launches(of app: String) -> Int {
        rates.place[app].map { launchCounts[$0] } ?? 0
    }

    /// The launches of `leader` that one of `app` followed within ``followMinutes``.
    func follows(_ app: String, after leader: String) -> Int {
        guard let leader = rates.place[leader], let app = rates.place[app] else { return 0 }
        return followed[leader][app] ?? 0
    }

    /// Whether the counts by place hold together with the own rates', as bytes read back must.
    var isConsistent: Bool {
        let places = 0..<rates.apps.count
        return rates.isConsistent && launchCounts.count == places.count && followed.count == places.count
            && followed.allSatisfy { $0.isWellFormed(places: places) }
            && recent.allSatisfy { places.contains($0.app) && (0..<launchesSeen).contains($0.sequence) }
    }

    /// The inputs of an app's features as of the latest event.
    func inputs(of app: String, rates: OwnRates.Snapshot) -> AppInputs {
        let own = rates.apps[app]
        let afterLaunch = own?.afterLaunch ?? OwnRates.launchPrior
        var inputs = AppInputs(
            trace: apps[app], recency: own?.recency, baseRate: own?.base ?? OwnRates.gridPrior,
            follow: afterLaunch, followByQuarter: [afterLaunch, afterLaunch, afterLaunch, afterLaunch],
            sessionStartRate: own?.sessionStart ?? afterLaunch)
        if let lastApp {
            inputs.followsLastApp = Double(follows(app, after: lastApp)) / Double(launches(of: lastApp) + 1)
            inputs.wasLastApp = lastApp == app ? 1 : 0
            (inputs.follow, inputs.followByQuarter) = rates.follows(app, after: lastApp, in: self.rates)
        }
        return inputs
    }

    /// The features of an app at `time` from its ``AppInputs``, as
    /// ``features(of:at:local:zone:utcOffset:profiles:rates:_:)`` gives them.
    func features(
        of inputs: AppInputs, at time: Milliseconds, local: (day: Int, minute: Int), zone: TimeZone,
        utcOffset: Int? = nil, profiles: Profiles, _ configuration: PredictorConfiguration
    ) -> LaunchFeatures {
        var features = LaunchFeatures()
        let minute = local.minute
        let isWeekend = DeviceModel.isWeekend(day: local.day)
        let planning = profiles.planning

        // Time of day.
        features.profileRate = planning.rate(minute: minute) * 60
        features.profileSlope = (planning.rate(minute: minute + 15) - planning.rate(minute: minute - 15)) * 60
        features.profileNext30 = (1...Self.followMinutes).reduce(0) { $0 + planning.rate(minute: minute + $1) }
        features.habitRate = profiles.habit.rate(minute: minute) * 60
        features.weekend = isWeekend ? 1 : 0
        features.minuteOfDay = Double(minute)
        features.coldLaunchesPerDay = planning.launchesPerDay

        // Recency.
        let bin = minute / AppModel.binMinutes
        features.usualColdLaunchesByNow =
            planning.rates[..<bin].reduce(0, +)
            + planning.rates[bin] * Double(minute % AppModel.binMinutes) / Double(AppModel.binMinutes)
        let trace = inputs.trace
        features.minutesSinceLaunch = Self.minutes(since: trace?.lastLaunch, until: time)
        features.minutesSinceColdLaunch = Self.minutes(since: trace?.lastColdLaunch, until: time)
        let offset = utcOffset ?? zone.secondsFromGMT(for: Date(milliseconds: time))
        let localMillisecond = CivilDate.split(localMilliseconds: time + .seconds(offset)).millisecond
        let midnight = time - Milliseconds(localMillisecond)
        let hour = Milliseconds.perHour, day24 = Milliseconds.perDay
        let lead = configuration.leadMilliseconds, window = configuration.windowMilliseconds
        // Cold launches in (start, end] of each span, found by halving: the features are read at
        // every app at every few minutes of each plan, and a busy app keeps a week of them.
        let colds = trace?.coldLaunches ?? []
        func count(after start: Milliseconds, through end: Milliseconds) -> Double {
            Double(max(0, colds.partitioningIndex { $0 > end } - colds.partitioningIndex { $0 > start }))
        }
        features.coldLaunchesToday = count(after: midnight - 1, through: time)
        features.coldLaunchesLast24h = count(after: time - day24, through: time)
        features.coldLaunchesLast3h = count(after: time - 3 * hour, through: time)
        features.sameWindowYesterday = count(after: time + lead - day24, through: time + window - day24)
        features.sameWindowLastWeek = count(after: time + lead - 7 * day24, through: time + window - 7 * day24)

        // Session.
        features.followsLastApp = inputs.followsLastApp
        features.wasLastApp = inputs.wasLastApp
        features.minutesSinceAnyLaunch = Self.minutes(since: lastAnyLaunch, until: time)
        features.minutesSinceSessionStart = Self.minutes(since: sessionStart, until: time)
        let windowStart = time - .minutes(Self.followMinutes)
        features.launchesLast30Min = Double(recent.reduce(0) { $0 + ($1.time > windowStart ? 1 : 0) })

        // The person's own rates.
        if let recency = inputs.recency, let last = trace?.lastLaunch {
            features.recencyRate = recency[OwnRates.bucket(time - last)]
        }
        features.baseRate = inputs.baseRate
        features.followRate = inputs.follow
        features.followRateByQuarter = inputs.followByQuarter[minute / 360]
        features.sessionStartRate = inputs.sessionStartRate

        // Device context.
        features.minutesSinceUnlock = lastUnlock == nil ? .nan : Self.minutes(since: lastUnlock, until: time)
        features.minutesSinceNotification =
            notifies ? Self.minutes(since: trace?.lastNotification, until: time) : .nan
        return features
    }

    /// The person's own rates as of the latest event, for ``features(of:at:local:zone:utcOffset:profiles:rates:_:)``.
    func ownRates(_ configuration: PredictorConfiguration) -> OwnRates.Snapshot {
        rates.snapshot(
            lead: configuration.leadMilliseconds, window: configuration.windowMilliseconds,
            coldGap: ColdLaunch.gap(configuration))
    }

    /// Minutes from an instant to a later one, capped at ``LaunchFeatures/capMinutes``; the cap
    /// when there is no instant.
    static func minutes(since start: Milliseconds?, until time: Milliseconds) -> Double {
        guard let start else { return LaunchFeatures.capMinutes }
        return min(LaunchFeatures.capMinutes, time.fractionalMinutes(since: start))
    }
}
