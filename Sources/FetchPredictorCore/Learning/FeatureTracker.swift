import Foundation

/// Computes the ``LaunchFeatures`` of a device's apps incrementally, from its events as they
/// arrive in time order: launches, unlocks and the screen turned on, and notifications.
///
/// The tracker keeps only what the features need (a ``DeviceModel`` for the daily profiles, the
/// last week of each app's cold launches, the last half hour of launches), so that it never
/// needs an event again. Features at T are asked for after the events up to T have been
/// observed, and never once an event after T has: they cannot read the future.
///
/// ```swift
/// var tracker = FeatureTracker(timeZone: zone)
/// for event in events where event.time <= now { tracker.observe(event) }
/// let features = tracker.features(of: "com.example.news", at: now)
/// ```
///
/// ## Topics
/// - ``observe(_:)``
/// - ``features(of:at:)``
public struct FeatureTracker: Sendable {
    /// What the predictor learns of the device, read for the daily profiles.
    public private(set) var model: DeviceModel
    /// The settings the profiles and the cold-launch rule are read with.
    public let configuration: PredictorConfiguration
    /// The time of the latest event observed.
    public private(set) var lastEventTime: Milliseconds?

    /// What is kept of one app.
    struct AppTrace: Sendable {
        var lastLaunch: Milliseconds?
        var lastColdLaunch: Milliseconds?
        /// Cold launches of the last week and an hour, oldest first.
        var coldLaunches: [Milliseconds] = []
        var lastNotification: Milliseconds?
    }

    /// A launch of the last half hour, with the apps launched after it so far.
    struct RecentLaunch: Sendable {
        var time: Milliseconds
        var app: String
        var followers: Set<String> = []
    }

    var apps: [String: AppTrace] = [:]
    var recent: [RecentLaunch] = []
    /// Launches of each app, and for each, of each app launched within 30 minutes after one of them.
    var launchCounts: [String: Int] = [:]
    var followed: [String: [String: Int]] = [:]
    var lastApp: String?
    var lastAnyLaunch: Milliseconds?
    var sessionStart: Milliseconds?
    var lastUnlock: Milliseconds?
    /// Whether the device has reported a notification of any app.
    var notifies = false
    /// The profiles of each app at a version of its model, for a kind of day.
    var profiles: [String: CachedProfiles] = [:]

    struct CachedProfiles: Sendable {
        var version: Int
        var kind: DayKind
        var planning: DailyProfile
        var habit: DailyProfile
    }

    /// A session begins at a launch this many minutes or more after the previous launch of any
    /// app (or unlock).
    public static let sessionGapMinutes = 10
    /// The window of the session features (launches in it, apps that follow), in minutes.
    public static let followMinutes = 30

    /// The settings the tracker reads profiles with by default: the predictor's, without the
    /// launch hazard, which no feature reads.
    public static let defaultConfiguration: PredictorConfiguration = {
        var configuration = PredictorConfiguration()
        configuration.learnsLaunchHazard = false
        return configuration
    }()

    /// A tracker of a device in a time zone that has seen nothing yet.
    public init(timeZone: TimeZone, configuration: PredictorConfiguration = FeatureTracker.defaultConfiguration) {
        model = DeviceModel(timeZone: timeZone)
        self.configuration = configuration
    }

    /// Learns from one event, which must come no earlier than the events before it. Fetches are
    /// ignored: the features describe the person, not the scheduler.
    public mutating func observe(_ event: Event) {
        let time = event.time
        lastEventTime = max(lastEventTime ?? time, time)
        switch event.kind {
        case .launch:
            observeLaunch(event)
        case .unlock, .screenOn:
            lastUnlock = time
            sessionStart = time
        case .notification:
            apps[event.app, default: AppTrace()].lastNotification = time
            notifies = true
        case .fetch, .screenOff:
            break
        }
    }

    private mutating func observeLaunch(_ event: Event) {
        let time = event.time, app = event.app
        let window = Milliseconds(Self.followMinutes) * 60_000
        model.observe(event, configuration)
        var trace = apps[app, default: AppTrace()]
        if ColdLaunch.isCold(at: time, previous: trace.lastLaunch, gap: ColdLaunch.gap(configuration)) {
            trace.lastColdLaunch = time
            trace.coldLaunches.append(time)
            let kept = time - Milliseconds(LaunchFeatures.capMinutes) * 60_000 - 3_600_000
            if let first = trace.coldLaunches.first, first < kept {
                trace.coldLaunches.removeAll { $0 < kept }
            }
        }
        trace.lastLaunch = time
        apps[app] = trace
        // Which launches of the last half hour this one follows.
        recent.removeAll { time - $0.time > window }
        for index in recent.indices where recent[index].followers.insert(app).inserted {
            followed[recent[index].app, default: [:]][app, default: 0] += 1
        }
        recent.append(RecentLaunch(time: time, app: app))
        launchCounts[app, default: 0] += 1
        let gap = Milliseconds(Self.sessionGapMinutes) * 60_000
        let previous = max(lastAnyLaunch ?? .min, lastUnlock ?? .min)
        if previous == .min || time - previous >= gap { sessionStart = time }
        lastAnyLaunch = time
        lastApp = app
    }

    /// The features of an app at a decision time, from the events observed so far.
    ///
    /// - Parameters:
    ///   - app: the app.
    ///   - time: the decision time T, no earlier than the latest event observed.
    /// - Complexity: O(the app's cold launches of the last week + launches of the last half
    ///   hour), and a profile's smoothing when the app's model changed since the last call.
    public mutating func features(of app: String, at time: Milliseconds) -> LaunchFeatures {
        precondition(time >= (lastEventTime ?? .min), "features at \(time) asked after an event at \(lastEventTime!)")
        var features = LaunchFeatures()
        let zone = model.timeZone
        let (day, minute) = DeviceModel.local(time, utcOffset: nil, zone: zone)
        let isWeekend = DeviceModel.isWeekend(day: day)
        let kind: DayKind = isWeekend ? .weekend : .weekday
        let (planning, habit) = profiles(of: app, kind: kind)

        // Time of day.
        features.profileRate = planning.rate(minute: minute) * 60
        features.profileSlope = (planning.rate(minute: minute + 15) - planning.rate(minute: minute - 15)) * 60
        features.profileNext30 = (1...Self.followMinutes).reduce(0) { $0 + planning.rate(minute: minute + $1) }
        features.habitRate = habit.rate(minute: minute) * 60
        features.weekend = isWeekend ? 1 : 0
        features.minuteOfDay = Double(minute)
        features.coldLaunchesPerDay = planning.launchesPerDay

        // Recency.
        let bin = minute / AppModel.binMinutes
        features.usualColdLaunchesByNow =
            planning.rates[..<bin].reduce(0, +)
            + planning.rates[bin] * Double(minute % AppModel.binMinutes) / Double(AppModel.binMinutes)
        let trace = apps[app]
        features.minutesSinceLaunch = Self.minutes(since: trace?.lastLaunch, until: time)
        features.minutesSinceColdLaunch = Self.minutes(since: trace?.lastColdLaunch, until: time)
        let localMillisecond = CivilDate.split(
            localMilliseconds: time + Milliseconds(zone.secondsFromGMT(for: Date(milliseconds: time))) * 1000
        ).millisecond
        let midnight = time - Milliseconds(localMillisecond)
        let colds = trace?.coldLaunches ?? []
        let oneMinute = Milliseconds(60_000), hour = 60 * oneMinute, day24 = 24 * hour
        func count(after start: Milliseconds, through end: Milliseconds) -> Double {
            Double(colds.reduce(0) { $0 + ($1 > start && $1 <= end ? 1 : 0) })
        }
        features.coldLaunchesToday = count(after: midnight - 1, through: time)
        features.coldLaunchesLast24h = count(after: time - day24, through: time)
        features.coldLaunchesLast3h = count(after: time - 3 * hour, through: time)
        let lead = configuration.leadMilliseconds, window = configuration.windowMilliseconds
        features.sameWindowYesterday = count(after: time + lead - day24, through: time + window - day24)
        features.sameWindowLastWeek = count(after: time + lead - 7 * day24, through: time + window - 7 * day24)

        // Session.
        if let lastApp {
            let follows = Double(followed[lastApp]?[app] ?? 0)
            features.followsLastApp = follows / Double((launchCounts[lastApp] ?? 0) + 1)
            features.wasLastApp = lastApp == app ? 1 : 0
        }
        features.minutesSinceAnyLaunch = Self.minutes(since: lastAnyLaunch, until: time)
        features.minutesSinceSessionStart = Self.minutes(since: sessionStart, until: time)
        let windowStart = time - Milliseconds(Self.followMinutes) * oneMinute
        features.launchesLast30Min = Double(recent.reduce(0) { $0 + ($1.time > windowStart ? 1 : 0) })

        // Device context.
        features.minutesSinceUnlock = lastUnlock == nil ? .nan : Self.minutes(since: lastUnlock, until: time)
        features.minutesSinceNotification =
            notifies ? Self.minutes(since: trace?.lastNotification, until: time) : .nan
        return features
    }

    /// Minutes from an instant to a later one, capped at ``LaunchFeatures/capMinutes``; the cap
    /// when there is no instant.
    static func minutes(since start: Milliseconds?, until time: Milliseconds) -> Double {
        guard let start else { return LaunchFeatures.capMinutes }
        return min(LaunchFeatures.capMinutes, Double(time - start) / 60_000)
    }

    /// The app's planning and habit profiles for a kind of day, made again only when its model changed.
    private mutating func profiles(of app: String, kind: DayKind) -> (planning: DailyProfile, habit: DailyProfile) {
        guard let version = model.apps[app]?.version else { return (.empty, .empty) }
        if let cached = profiles[app], cached.version == version, cached.kind == kind {
            return (cached.planning, cached.habit)
        }
        let planning = model.planningProfile(app: app, for: kind, configuration, findsPeaks: false)
        let habit = model.profile(app: app, for: kind, configuration)
        profiles[app] = CachedProfiles(version: version, kind: kind, planning: planning, habit: habit)
        return (planning, habit)
    }
}
