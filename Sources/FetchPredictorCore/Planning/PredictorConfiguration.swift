/// The settings of the predictor and the planner, with their documented defaults.
///
/// The one setting meant to be turned is ``budget``: how eager the planner is to spend a wake.
/// The others describe the system being modelled (the freshness window, the lead) or bound it.
public struct PredictorConfiguration: Sendable, Hashable, Codable {
    /// How eager the planner is to spend a wake, from 0 (never) to 1 (whenever any launch may
    /// follow). A wake is planned when its forecast, before calibration, is to find at least
    /// `1 - budget` cold launches that no other wake serves, after weighing its chance of
    /// bringing new content. (The calibration learned from past wakes scales the forecasts a
    /// wake reports, not the choice: learned from the wakes a budget made, it would change which
    /// wakes that budget makes, and a higher budget could make fewer.)
    ///
    /// The default, 0.90, is the level a user can rely on across people: on the five shared
    /// logs together it plans 4.0 fetches per app and day, the protocol's reading point, and
    /// from 1.7 to 7 on each log and persona but one (a log of 4 scored days: 13), where the
    /// default 0.85 of before planned 0.17 for some people (`docs/experiments.md`, "A default
    /// level a user can rely on"). `evaluate` always runs it and marks its row.
    public var budget: Double = 0.90
    /// A fetch serves launches from ``lead`` to ``freshnessWindow`` after it starts, in seconds.
    public var freshnessWindow: Double = 30 * 60
    /// A fetch needs this long before a launch to have finished, in seconds.
    public var lead: Double = 60
    /// A launch is cold when the app was not launched in this many seconds before it.
    public var coldLaunchGap: Double = 30 * 60
    /// How much a day's launches still weigh a day later: 0.75 halves their weight in about
    /// 2.4 days, so that a moved habit is followed within about four days.
    public var dailyDecay: Double = 0.75
    /// How much a day's launches still weigh a day later in the app's habits, which `peaks`
    /// shows: 0.97 halves their weight in about 23 days, so that habits are the recent weeks'.
    public var habitDecay: Double = 0.97
    /// How much a fetch result still weighs a day later.
    public var fetchDecay: Double = 0.9
    /// The standard deviation, in minutes, of the kernel that smooths the daily profile.
    public var smoothingMinutes: Double = 10
    /// The floor of apps with the `minimum` interval, in seconds: the planner never fetches such
    /// an app twice within it.
    public var minimumIntervalFloor: Double = 15 * 60
    /// At most this many planned wakes per app and local day.
    public var perAppDailyCap: Int = 24
    /// At most this many device wakes per local day.
    public var perDeviceDailyCap: Int = 96
    /// App wakes within this many seconds after a device wake may join it.
    public var coalescingWindow: Double = 10 * 60
    /// An app wake joins an earlier device wake only if that keeps at least this share of its
    /// expected value.
    public var coalescingMinimumValue: Double = 0.9
    /// An app has too little history to learn from below this many days ...
    public var coldStartDays: Double = 3
    /// ... or this many cold launches.
    public var coldStartLaunches: Int = 5
    /// An app still short of cold launches this many days after its first event is rarely used,
    /// not new: it is planned from what it has (which brings few wakes, if any), not with the
    /// cold-start plan's four a day.
    public var coldStartLimitDays: Double = 14
    /// An app in cold start earns the cold-start plan by launches on this many distinct local
    /// days: a burst of launches on one day (a sound recorder opened five times in three
    /// minutes) is no sign of an app in use. Until then it is planned from what it has, which
    /// brings few wakes, if any.
    public var coldStartEarningDays: Int = 3
    /// ... and by this many cold launches a day, on average, since its first event: an app
    /// opened five times in thirteen days is rarely used, and four fetches a day would find
    /// nothing. Each cold-start wake then expects the app's daily cold launches spread over a
    /// waking day of ``coldStartWakingHours``, which its reasons say.
    public var coldStartLeastPerDay: Double = 1
    /// The hours of a day a new app's launches are taken to be spread over, for what a
    /// cold-start wake expects.
    public var coldStartWakingHours: Double = 16
    /// The local times, in minutes after midnight, of the conservative plan of an app in cold start:
    /// 07:00, 11:00, 15:00 and 19:00.
    public var coldStartMinutes: [Int] = [7 * 60, 11 * 60, 15 * 60, 19 * 60]
    /// A device with no launch of any app for this long, in seconds, has gone silent: it gets
    /// no wake from then until its next launch; so does an app of it with no launch for this
    /// long. Two weeks by default; `nil` wakes devices however long ago they were last used.
    /// Launches count, not fetch results: the wakes' own fetches would keep a phone that was
    /// thrown away awake for ever. (Without it, a log that ended months before still gets its
    /// habits' wakes, as the profile of a day no longer seen never decays.)
    public var silenceLimit: Double? = 14 * 86_400
    /// After consecutive failures an app waits this long (seconds) before the next fetch,
    /// doubling with each further failure ...
    public var backoffBase: Double = 15 * 60
    /// ... up to this long.
    public var backoffCap: Double = 8 * 3600
    /// How wakes are chosen from the forecast: the sweep of expected launches (the default), or
    /// the forecaster's chance of a launch in each wake's window (``WakePlanning``).
    public var planning: WakePlanning = .sweep
    /// Whether fetch results steer the plan (`false` plans from launches alone, for comparison).
    public var usesFetchResults: Bool = true
    /// Whether forecasts are corrected by how the planned fetches' forecasts came true
    /// (``ForecastCalibration``).
    public var calibratesForecasts: Bool = true
    /// Whether wakes carry their reasons; a backtest, which reads none, plans faster without.
    public var explainsWakes: Bool = true
    /// Whether weekdays and weekends are learned apart when the history shows that they differ.
    public var splitsWeekends: Bool = true

    /// Creates a value with every field given.
    public init() {}

    /// The least expected value a wake must buy, from ``budget``.
    public var threshold: Double { max(0, 1 - min(1, max(0, budget))) }
}
