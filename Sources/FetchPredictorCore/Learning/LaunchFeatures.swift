/// What is known, at a decision time T, of how likely a cold launch of one app on one device is
/// in the freshness window after T: the signals of a launch model, one field per feature.
///
/// A ``FeatureTracker`` computes them from the events up to T alone. Every field is a number;
/// ``names`` and ``values`` give them in one fixed order, the columns of the `features` command's
/// CSV. Times are minutes; a time since something that never happened, or happened more than a
/// week ago, is ``capMinutes``. A feature the log cannot tell (a time since an unlock, in a log
/// without unlocks) is NaN, unknown, rather than a value it would be confused with; two values
/// are equal when their values have the same bits, so that an unknown equals an unknown.
///
/// Three families, as issue 28 lists them:
/// - time of day: ``profileRate``, ``profileSlope``, ``profileNext30``, ``habitRate``,
///   ``weekend``, ``minuteOfDay``, ``coldLaunchesPerDay``;
/// - recency: ``minutesSinceLaunch``, ``minutesSinceColdLaunch``, ``coldLaunchesToday``,
///   ``usualColdLaunchesByNow``, ``coldLaunchesLast24h``, ``coldLaunchesLast3h``,
///   ``sameWindowYesterday``, ``sameWindowLastWeek``;
/// - session: ``followsLastApp``, ``minutesSinceAnyLaunch``, ``minutesSinceSessionStart``,
///   ``wasLastApp``, ``launchesLast30Min``; the person's own rates (issue 71): ``recencyRate``,
///   ``baseRate``, ``followRate``, ``followRateByQuarter``, ``sessionStartRate``; and the device's context where the log has it:
///   ``minutesSinceUnlock``, ``minutesSinceNotification``.
///
/// ## Topics
/// - ``names``
/// - ``values``
public struct LaunchFeatures: Sendable, Hashable {
    // MARK: Time of day

    /// Expected cold launches per hour at T's local minute, from the app's planning profile (the
    /// fast-decaying, smoothed daily profile the planner weighs a day with), for T's kind of day.
    public var profileRate = 0.0
    /// How that rate changes around T: the rate 15 minutes after T minus the rate 15 minutes
    /// before, per hour.
    public var profileSlope = 0.0
    /// Expected cold launches in the 30 minutes after T from the same profile.
    public var profileNext30 = 0.0
    /// Expected cold launches per hour at T's minute from the app's long-memory habit profile
    /// (``DeviceModel/profile(app:for:_:)``, decaying over weeks rather than days).
    public var habitRate = 0.0
    /// 1 when T's local day is a Saturday or a Sunday, else 0.
    public var weekend = 0.0
    /// T's minute of the local day, 0 to 1439.
    public var minuteOfDay = 0.0
    /// Expected cold launches a day, from the planning profile of T's kind of day.
    public var coldLaunchesPerDay = 0.0

    // MARK: Recency

    /// Minutes since the app's last launch.
    public var minutesSinceLaunch = LaunchFeatures.capMinutes
    /// Minutes since the app's last cold launch.
    public var minutesSinceColdLaunch = LaunchFeatures.capMinutes
    /// The app's cold launches so far on T's local day.
    public var coldLaunchesToday = 0.0
    /// The cold launches its planning profile expects from local midnight to T: its usual by now.
    public var usualColdLaunchesByNow = 0.0
    /// The app's cold launches in the 24 hours before T.
    public var coldLaunchesLast24h = 0.0
    /// The app's cold launches in the 3 hours before T.
    public var coldLaunchesLast3h = 0.0
    /// The app's cold launches in the label's window one day earlier: (T + 1 min, T + 30 min]
    /// moved back 24 hours.
    public var sameWindowYesterday = 0.0
    /// The same, moved back 7 days.
    public var sameWindowLastWeek = 0.0

    // MARK: Session

    /// How often the app is launched within 30 minutes after a launch of the last app opened on
    /// the device (itself included): launches of that app followed by one of this app, over
    /// that app's launches plus one; 0 before any launch.
    public var followsLastApp = 0.0
    /// Minutes since the last launch of any app: how long the phone has been idle.
    public var minutesSinceAnyLaunch = LaunchFeatures.capMinutes
    /// Minutes since the session began: at an unlock or the screen turned on, or at a launch
    /// ``LaunchTraces/sessionGapMinutes`` or more after the previous launch of any app.
    public var minutesSinceSessionStart = LaunchFeatures.capMinutes
    /// 1 when the app is the last one opened on the device, else 0.
    public var wasLastApp = 0.0
    /// Launches of any app in the 30 minutes before T.
    public var launchesLast30Min = 0.0

    // MARK: The person's own rates

    /// The app's own chance of a cold launch in the window after a time as long after its last
    /// launch as T is, counted every 2 minutes on the device's completed windows and shrunk toward
    /// the device's chance over all its apps (`OwnRates`); 0 before its first launch.
    public var recencyRate = 0.0
    /// The app's chance of a cold launch in the window after any time after its first launch.
    public var baseRate = 0.0
    /// The app's chance of a cold launch in the window after a launch of the last app opened,
    /// shrunk toward its chance after any launch.
    public var followRate = 0.0
    /// The same, after a launch of the last app opened in T's quarter of the local day.
    public var followRateByQuarter = 0.0
    /// The app's chance of a cold launch in the window after a launch that began a session.
    public var sessionStartRate = 0.0

    // MARK: Device context

    /// Minutes since the device was last unlocked or its screen turned on; unknown (NaN) while
    /// the device has reported no such event, as in a log that has none.
    public var minutesSinceUnlock = Double.nan
    /// Minutes since the app last posted a notification (``capMinutes`` when it has posted none
    /// in the last week); unknown (NaN) while the device has reported no notification of any app,
    /// as in a log that has none.
    public var minutesSinceNotification = Double.nan

    /// The value of a time since something that never happened or happened over a week ago.
    public static let capMinutes = 7.0 * 1440

    /// Creates the features of an app with no history: no launch, nothing expected.
    public init() {}

    /// Each feature's name and field, in the fixed order of the CSV's columns: ``names`` reads
    /// it, and ``values`` is held to it by a test.
    static let fields: [(name: String, value: KeyPath<LaunchFeatures, Double> & Sendable)] = [
        ("profileRate", \.profileRate),
        ("profileSlope", \.profileSlope),
        ("profileNext30", \.profileNext30),
        ("habitRate", \.habitRate),
        ("weekend", \.weekend),
        ("minuteOfDay", \.minuteOfDay),
        ("coldLaunchesPerDay", \.coldLaunchesPerDay),
        ("minutesSinceLaunch", \.minutesSinceLaunch),
        ("minutesSinceColdLaunch", \.minutesSinceColdLaunch),
        ("coldLaunchesToday", \.coldLaunchesToday),
        ("usualColdLaunchesByNow", \.usualColdLaunchesByNow),
        ("coldLaunchesLast24h", \.coldLaunchesLast24h),
        ("coldLaunchesLast3h", \.coldLaunchesLast3h),
        ("sameWindowYesterday", \.sameWindowYesterday),
        ("sameWindowLastWeek", \.sameWindowLastWeek),
        ("followsLastApp", \.followsLastApp),
        ("minutesSinceAnyLaunch", \.minutesSinceAnyLaunch),
        ("minutesSinceSessionStart", \.minutesSinceSessionStart),
        ("wasLastApp", \.wasLastApp),
        ("launchesLast30Min", \.launchesLast30Min),
        ("recencyRate", \.recencyRate),
        ("baseRate", \.baseRate),
        ("followRate", \.followRate),
        ("followRateByQuarter", \.followRateByQuarter),
        ("sessionStartRate", \.sessionStartRate),
        ("minutesSinceUnlock", \.minutesSinceUnlock),
        ("minutesSinceNotification", \.minutesSinceNotification),
    ]

    /// The features' names in their fixed order: the CSV header's columns.
    public static let names = fields.map(\.name)

    /// The features' values in the order of ``names``: written out rather than read through
    /// ``fields``' key paths, as the planner reads them for every app many times a query
    /// (`LaunchFeaturesTests` holds the two to the same order).
    public var values: [Double] {
        [
            profileRate, profileSlope, profileNext30, habitRate, weekend, minuteOfDay, coldLaunchesPerDay,
            minutesSinceLaunch, minutesSinceColdLaunch, coldLaunchesToday, usualColdLaunchesByNow,
            coldLaunchesLast24h, coldLaunchesLast3h, sameWindowYesterday, sameWindowLastWeek, followsLastApp,
            minutesSinceAnyLaunch, minutesSinceSessionStart, wasLastApp, launchesLast30Min, recencyRate, baseRate,
            followRate, followRateByQuarter, sessionStartRate, minutesSinceUnlock, minutesSinceNotification,
        ]
    }

    /// The values read through ``fields``: the reference ``values`` is held to.
    var valuesByKeyPath: [Double] { Self.fields.map { self[keyPath: $0.value] } }

    /// Whether every value has the same bits: an unknown (NaN) equals an unknown.
    public static func == (left: LaunchFeatures, right: LaunchFeatures) -> Bool {
        left.values.map(\.bitPattern) == right.values.map(\.bitPattern)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values.map(\.bitPattern))
    }
}
