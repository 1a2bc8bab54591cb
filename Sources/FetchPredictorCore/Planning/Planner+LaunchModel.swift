import Foundation

extension Planner {
    /// The minutes between two readings of the launch model over a horizon; the minutes between
    /// are read off the straight line between them.
    static let launchModelStepMinutes = 5

    /// Expected cold launches per minute over the horizon from the ``LaunchModel``
    /// (``TreesForecaster``): its chance of a cold launch in the window after each minute, with
    /// the app's features at that minute as they would be if nothing happened until then (the
    /// plan is made again at the next event).
    ///
    /// A chance p over the window is read as −ln(1 − p) expected launches, spread evenly over
    /// the minutes from the lead to the window's end: the launches a wake at a minute serves (the sum of the rates over
    /// its window) are then about those the model expects in that wake's window. The part the
    /// app's daily profile expects is ``ExpectedLaunches/usual``, the rest, what the time since
    /// launches and the session add, ``ExpectedLaunches/returning``.
    ///
    /// - Complexity: O((endIndex − startIndex) / ``launchModelStepMinutes`` × the model's trees).
    func modelLaunches(
        _ name: String, launchModel: LaunchModel, startIndex: Int, endIndex: Int, profiles: DayProfiles,
        habits: DayProfiles
    ) -> ExpectedLaunches {
        let rows = modelRows(name, startIndex: startIndex, endIndex: endIndex, profiles: profiles, habits: habits)
        return modelLaunches(
            chances: launchModel.probabilities(rows)[...], startIndex: startIndex, endIndex: endIndex,
            profiles: profiles)
    }

    /// The shift from a reading's minute to the minutes whose rates it gives: a wake at minute i
    /// serves (i + lead, i + window], so a launch at minute m is most often served by the wakes
    /// about half a window before it.
    var modelShift: Int { (configuration.windowMinutes + 1) / 2 }

    /// The minutes the model is read at for an app's plan: every ``launchModelStepMinutes``
    /// from the start, through the last minute a rate reads; none for an empty span. A plan
    /// made further ahead from the same minute reads the same minutes first.
    func modelReadings(startIndex: Int, endIndex: Int) -> [Int] {
        guard startIndex < endIndex else { return [] }
        let step = Self.launchModelStepMinutes
        let lastReading = max(startIndex, endIndex - 1 - modelShift)
        // The last reading at or past the last minute read, within the clock.
        let end = min(lastReading, clock.count - step) + step
        return Array(stride(from: startIndex, to: max(end, startIndex + 1), by: step))
    }

    /// The features the model is read at for an app's plan, at the minutes of
    /// ``modelReadings(startIndex:endIndex:)``.
    func modelRows(_ name: String, startIndex: Int, endIndex: Int, profiles: DayProfiles, habits: DayProfiles)
        -> [LaunchFeatures]
    {
        modelRows(
            name, at: modelReadings(startIndex: startIndex, endIndex: endIndex)[...], profiles: profiles,
            habits: habits)
    }

    /// The features of an app at some of its plan's reading minutes.
    func modelRows(_ name: String, at minutes: ArraySlice<Int>, profiles: DayProfiles, habits: DayProfiles)
        -> [LaunchFeatures]
    {
        guard !minutes.isEmpty else { return [] }
        // What the rows read by the app's name, looked up once.
        let inputs = device.traces.inputs(of: name, rates: ownRates)
        return minutes.map { features(of: inputs, at: $0, profiles: profiles, habits: habits) }
    }

    /// Expected cold launches per minute from the model's chances at the rows of ``modelRows``.
    func modelLaunches(chances: ArraySlice<Double>, startIndex: Int, endIndex: Int, profiles: DayProfiles)
        -> ExpectedLaunches
    {
        var expected = ExpectedLaunches(minutes: endIndex)
        guard startIndex < endIndex else { return expected }
        // The minutes a wake's window counts in the sweep, from its lead to its end.
        let span = configuration.windowMinutes - configuration.leadMinutes + 1
        let shift = modelShift
        let readings = chances.map { -log(1 - min(Self.maximumChance, $0)) / Double(span) }
        for minute in startIndex..<endIndex {
            let rate = Self.interpolated(readings, at: max(0, minute - shift - startIndex))
            let profile = clock.weekend[minute] ? profiles.weekend : profiles.weekday
            let usual = profile.rate(minute: Int(clock.minuteOfDay[minute]))
            expected.usual[minute] = min(usual, rate)
            expected.returning[minute] = max(0, rate - usual)
        }
        return expected
    }

    /// The model's chance of a cold launch in the window after each minute, from its chances at
    /// the rows of ``modelRows``: read at every ``launchModelStepMinutes``th minute, and off the
    /// straight line between two readings at the minutes between (the last reading after it).
    func modelChances(_ chances: ArraySlice<Double>, startIndex: Int, endIndex: Int) -> [Double] {
        var result = [Double](repeating: 0, count: max(0, endIndex))
        guard startIndex < endIndex, !chances.isEmpty else { return result }
        let readings = Array(chances)
        for minute in startIndex..<endIndex { result[minute] = Self.interpolated(readings, at: minute - startIndex) }
        return result
    }

    /// A reading of the model `offset` minutes after its first (read every
    /// ``launchModelStepMinutes``): on the straight line between the two readings around it, or
    /// the last reading after it.
    static func interpolated(_ readings: [Double], at offset: Int) -> Double {
        let step = launchModelStepMinutes
        let (reading, share) = (offset / step, Double(offset % step) / Double(step))
        return reading + 1 < readings.count
            ? readings[reading] * (1 - share) + readings[reading + 1] * share : readings[readings.count - 1]
    }

    /// An app's features at a minute of the horizon, as they would be if nothing happened until then.
    func features(of name: String, at index: Int, profiles: DayProfiles, habits: DayProfiles) -> LaunchFeatures {
        features(of: device.traces.inputs(of: name, rates: ownRates), at: index, profiles: profiles, habits: habits)
    }

    /// The features of an app at a minute of the horizon from what they read by its name.
    func features(of inputs: LaunchTraces.AppInputs, at index: Int, profiles: DayProfiles, habits: DayProfiles)
        -> LaunchFeatures
    {
        let weekend = clock.weekend[index]
        return device.traces.features(
            of: inputs, at: clock.time(index), local: (Int(clock.localDay[index]), Int(clock.minuteOfDay[index])),
            zone: device.timeZone, utcOffset: Int(clock.utcOffset[index]),
            profiles: LaunchTraces.Profiles(
                planning: weekend ? profiles.weekend : profiles.weekday,
                habit: weekend ? habits.weekend : habits.weekday), configuration)
    }

    /// The share of what makes a wake likely that a signal must make to be named as a reason:
    /// of the hazard's expected launches, those of the time of day or of the return after the
    /// last launch; of the model's chance, how much lower it is with a family of signals as they
    /// are when nothing happened for a week.
    static let namedShare = 0.25
    /// The highest chance the model's reading is taken at, so that −ln(1 − p) stays finite.
    static let maximumChance = 0.999

    /// The reasons of a wake the launch model chose, each true of it: the chance the model gives
    /// a cold launch in its window; the app that was opened last, when following it makes a
    /// quarter of that chance or more (the chance with the session signals at rest, the app's
    /// chance after that app read as its chance after any launch, is that much lower); the app's
    /// own last launch, when the time since it does (its chance by time since its last launch
    /// read a week after it); the time of day, when the app's use at this time does (its chance
    /// with no use in its daily profile, in this window yesterday or a week ago); and the habits
    /// that peak in the window. When no signal makes a quarter, the one that makes the most is
    /// named, so that every wake says what its chance comes from.
    func modelReasons(
        _ name: String, at index: Int, launchModel: LaunchModel, model: AppModel, profiles: DayProfiles,
        habits: DayProfiles
    ) -> [WakeReason] {
        let features = features(of: name, at: index, profiles: profiles, habits: habits)
        let chance = launchModel.probability(features)
        var reasons = peakReasons(at: index, habits: habits)
        let signals = modelSignals(
            name, at: index, features: features, chance: chance, launchModel: launchModel, model: model)
        let named = signals.filter { $0.share >= Self.namedShare * chance }
        if !named.isEmpty {
            reasons += named.map(\.reason)
        } else if let most = signals.max(by: { $0.share < $1.share }), most.share > 0 {
            reasons.append(most.reason)
        }
        reasons.append(.launchModel(chance: chance))
        return reasons
    }

    /// Each signal a wake the launch model chose may name: the reason, and how much higher the
    /// chance is with the signal than with it at rest (the session's, the app's own last launch,
    /// the time of day's).
    func modelSignals(
        _ name: String, at index: Int, features: LaunchFeatures, chance: Double, launchModel: LaunchModel,
        model: AppModel
    ) -> [(reason: WakeReason, share: Double)] {
        var atRest = features
        atRest.followsLastApp = 0
        atRest.wasLastApp = 0
        atRest.launchesLast30Min = 0
        atRest.minutesSinceAnyLaunch = LaunchFeatures.capMinutes
        atRest.minutesSinceSessionStart = LaunchFeatures.capMinutes
        // With no app opened last, the app's own chance after a launch is the one after any.
        let afterAnyLaunch = ownRates.apps[name]?.afterLaunch ?? OwnRates.launchPrior
        (atRest.followRate, atRest.followRateByQuarter) = (afterAnyLaunch, afterAnyLaunch)
        var signals: [(reason: WakeReason, share: Double)] = []
        if let lastApp = device.traces.lastApp, lastApp != name, features.followsLastApp > 0,
            case let launches = device.traces.launches(of: lastApp), launches > 0
        {
            let follows = device.traces.follows(name, after: lastApp)
            signals.append(
                (
                    .follows(app: lastApp, share: Double(follows) / Double(launches)),
                    chance - launchModel.probability(atRest)
                ))
        }
        var longAgo = features
        longAgo.minutesSinceLaunch = LaunchFeatures.capMinutes
        longAgo.minutesSinceColdLaunch = LaunchFeatures.capMinutes
        longAgo.coldLaunchesLast3h = 0
        if let recency = ownRates.apps[name]?.recency {
            longAgo.recencyRate = recency[OwnRates.bucket(.minutes(Int(LaunchFeatures.capMinutes)))]
        }
        let chanceLongAgo = launchModel.probability(longAgo)
        if let last = model.lastLaunch {
            signals.append(
                (
                    .returning(
                        minutesSinceLastLaunch: clock.time(index).minutes(since: last),
                        expectedLaunches: Self.expectedLaunches(from: chanceLongAgo, to: chance)),
                    chance - chanceLongAgo
                ))
        }
        var noUseNow = features
        (noUseNow.profileRate, noUseNow.profileSlope, noUseNow.profileNext30, noUseNow.habitRate) = (0, 0, 0, 0)
        (noUseNow.sameWindowYesterday, noUseNow.sameWindowLastWeek) = (0, 0)
        let chanceNoUseNow = launchModel.probability(noUseNow)
        signals.append(
            (
                .usualTime(expectedLaunches: Self.expectedLaunches(from: chanceNoUseNow, to: chance)),
                chance - chanceNoUseNow
            ))
        return signals
    }

    /// The expected cold launches in a window that a chance adds over another, as the plan reads
    /// a chance (−ln(1 − p)).
    static func expectedLaunches(from lower: Double, to higher: Double) -> Double {
        log(1 - min(maximumChance, lower)) - log(1 - min(maximumChance, higher))
    }
}
