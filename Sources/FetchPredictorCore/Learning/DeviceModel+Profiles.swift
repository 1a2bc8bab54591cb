import Foundation

extension DeviceModel {
    /// What was learned of an app's habits for a kind of day: its cold launches through the day
    /// over the recent weeks (``HabitCounts``), and its habits as peaks (``HabitFinder``).
    /// Weekdays and weekends are apart when the app's history shows that they differ.
    public func profile(app: String, for kind: DayKind, _ configuration: PredictorConfiguration) -> DailyProfile {
        profile(app: app, for: kind, configuration, findsPeaks: true)
    }

    /// ``profile(app:for:_:)``, its peaks found only when asked.
    func profile(app: String, for kind: DayKind, _ configuration: PredictorConfiguration, findsPeaks: Bool)
        -> DailyProfile
    {
        guard let habits = apps[app]?.habits else { return .empty }
        let apart = configuration.splitsWeekends && Self.weekendsDiffer(habits.bins(.weekday), habits.bins(.weekend))
        let shown = kind != .all && apart ? kind : .all
        let (bins, days) = habits.bins(shown)
        guard days > 0 else { return .empty }
        return DailyProfile(
            days: shown, rates: DailyProfile.smooth(bins, days: days, sigma: HabitFinder.narrowBins),
            peaks: findsPeaks ? HabitFinder.peaks(bins: bins, days: days) : [], effectiveDays: days)
    }

    /// An app's habits on weekdays and on weekends (the same profile twice when they do not differ),
    /// as a launch model's features and its wakes' reasons read them: their peaks, which only the
    /// reasons name, found only when the configuration explains wakes.
    func habitProfiles(app: String, _ configuration: PredictorConfiguration) -> (
        weekday: DailyProfile, weekend: DailyProfile
    ) {
        let peaks = configuration.explainsWakes
        let weekday = profile(app: app, for: .weekday, configuration, findsPeaks: peaks)
        return (
            weekday,
            weekday.days == .all ? weekday : profile(app: app, for: .weekend, configuration, findsPeaks: peaks)
        )
    }

    /// The planner's weekday and weekend profiles of an app (the same one twice when they do not differ).
    func planningProfiles(app: String, _ configuration: PredictorConfiguration) -> (
        weekday: DailyProfile, weekend: DailyProfile
    ) {
        let weekday = planningProfile(app: app, for: .weekday, configuration)
        return (weekday, weekday.days == .all ? weekday : planningProfile(app: app, for: .weekend, configuration))
    }

    /// The profile the planner weighs a day with: the fast-decaying counts, so that a moved habit
    /// is followed within days; weekdays and weekends apart when they differ.
    func planningProfile(
        app: String, for kind: DayKind, _ configuration: PredictorConfiguration, findsPeaks: Bool = true
    ) -> DailyProfile {
        guard let model = apps[app] else { return .empty }
        if kind != .all, configuration.splitsWeekends,
            Self.weekendsDiffer((model.weekday, weekdayDays), (model.weekend, weekendDays))
        {
            return DailyProfile.make(
                bins: kind == .weekend ? model.weekend : model.weekday,
                days: kind == .weekend ? weekendDays : weekdayDays,
                kind: kind, smoothingMinutes: configuration.smoothingMinutes, findsPeaks: findsPeaks)
        }
        return DailyProfile.make(
            bins: model.recent, days: recentDays, kind: .all, smoothingMinutes: configuration.smoothingMinutes,
            findsPeaks: findsPeaks)
    }

    /// Weekdays and weekends are learned apart when one has this many times the other's launches
    /// a day...
    static let weekendRateRatio = 2.0
    /// ...or when their shapes, smoothed over ``weekendShapeSmoothingMinutes``, are further apart
    /// than this total variation distance.
    static let weekendShapeDistance = 0.45
    static let weekendShapeSmoothingMinutes = 30.0

    /// Whether an app's weekdays and weekends differ enough, on enough history, to learn apart.
    static func weekendsDiffer(_ weekdays: (bins: [Double], days: Double), _ weekends: (bins: [Double], days: Double))
        -> Bool
    {
        let (weekday, weekdayDays) = weekdays
        let (weekend, weekendDays) = weekends
        guard weekdayDays >= 1, weekendDays >= 1 else { return false }
        let weekdayTotal = weekday.reduce(0, +), weekendTotal = weekend.reduce(0, +)
        guard weekdayTotal + weekendTotal >= 2 else { return false }
        let weekdayRate = weekdayTotal / weekdayDays, weekendRate = weekendTotal / weekendDays
        if weekdayRate > 0, weekendRate > 0,
            max(weekdayRate, weekendRate) / min(weekdayRate, weekendRate) > weekendRateRatio
        {
            return true
        }
        guard weekdayTotal > 0, weekendTotal > 0 else { return true }
        // Compare the shapes, smoothed over an hour, by their total variation distance.
        let sigma = weekendShapeSmoothingMinutes / Double(AppModel.binMinutes)
        let a = DailyProfile.smooth(weekday, days: weekdayTotal, sigma: sigma)
        let b = DailyProfile.smooth(weekend, days: weekendTotal, sigma: sigma)
        let distance = zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / 2
        return distance > weekendShapeDistance
    }

    /// Whether an app is planned with the conservative cold-start plan: it has too little history,
    /// is new (its first event within ``PredictorConfiguration/coldStartLimitDays``), was
    /// launched on ``PredictorConfiguration/coldStartEarningDays`` distinct days or more, and is
    /// used often enough since it was first seen (``PredictorConfiguration/coldStartLeastPerDay``)
    /// that a fetch at a cold-start time may find a launch.
    func plansColdStart(app: String, _ configuration: PredictorConfiguration) -> Bool {
        guard isColdStart(app: app, configuration), let model = apps[app],
            model.launchDays >= configuration.coldStartEarningDays
        else { return false }
        guard let use = newAppUse(app: app) else { return true }
        return Double(use.days - 1) < configuration.coldStartLimitDays
            && use.coldLaunchesPerDay >= configuration.coldStartLeastPerDay
    }

    /// How much a new app is used: its cold launches a day over the local days from its first
    /// event to the device's latest, that day included. `nil` for an app with no event yet.
    func newAppUse(app: String) -> (coldLaunchesPerDay: Double, days: Int)? {
        guard let model = apps[app], let first = model.firstDay, let current = currentDay else { return nil }
        let days = max(1, current - first + 1)
        return (Double(model.coldLaunches) / Double(days), days)
    }

    /// Whether an app has too little history to learn from.
    public func isColdStart(app: String, _ configuration: PredictorConfiguration) -> Bool {
        guard let model = apps[app], let first = model.firstDay, let current = currentDay else { return true }
        return Double(current - first) < configuration.coldStartDays
            || model.coldLaunches < configuration.coldStartLaunches
    }
}
