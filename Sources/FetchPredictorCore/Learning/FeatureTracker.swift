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

    /// The profiles of each app at a version of its model, for a kind of day.
    var profiles: [String: CachedProfiles] = [:]
    /// The person's own rates at a version of the traces.
    var rates: (version: Int, snapshot: OwnRates.Snapshot)?

    struct CachedProfiles: Sendable {
        var version: Int
        var kind: DayKind
        var planning: DailyProfile
        var habit: DailyProfile
    }

    /// A tracker of a device in a time zone that has seen nothing yet, reading profiles and the
    /// cold-launch rule with `configuration`. It learns no launch hazard, which no feature reads,
    /// and the traces the features read.
    public init(timeZone: TimeZone, configuration: PredictorConfiguration = PredictorConfiguration()) {
        model = DeviceModel(timeZone: timeZone)
        self.configuration = configuration
    }

    /// Learns from one event, which must come no earlier than the events before it. Fetches are
    /// ignored: the features describe the person, not the scheduler.
    public mutating func observe(_ event: Event) {
        lastEventTime = max(lastEventTime ?? event.time, event.time)
        guard event.kind != .fetch else { return }
        model.observe(event, configuration, learning: .launchFeatures)
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
        let local = DeviceModel.local(time, utcOffset: nil, zone: model.timeZone)
        let kind: DayKind = DeviceModel.isWeekend(day: local.day) ? .weekend : .weekday
        let (planning, habit) = profiles(of: app, kind: kind)
        if rates?.version != model.traces.version {
            rates = (model.traces.version, model.traces.ownRates(configuration))
        }
        return model.traces.features(
            of: app, at: time, local: local, zone: model.timeZone,
            profiles: LaunchTraces.Profiles(planning: planning, habit: habit), rates: rates!.snapshot, configuration)
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
