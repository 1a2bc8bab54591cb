import Foundation

extension Planner {
    /// How long after a launch the time since it says more than the time of day, in minutes.
    static let recencyHorizon = 4 * DayMinute.perHour
    /// Expected launches an app may miss before it counts as in a quiet spell, and how much
    /// each further missed launch lowers its expected launches.
    static let quietSpellAllowance = 1.5
    static let quietSpellWeight = 0.5
    /// A passed peak is waited for from this many of its spreads before its centre...
    static let passedPeakStartSpreads = 2.0
    /// ...to this many after it, a spread counted as this many minutes at least.
    static let passedPeakEndSpreads = 3.0
    static let passedPeakMinimumSpread = 10.0

    /// Expected cold launches per minute over the horizon (``ProfileForecaster``): the daily
    /// profile, and with `returns`, where the time since the app's last launch makes the next
    /// launch likely, the chance of coming back (people often come back to an app within an hour
    /// or two). An app not opened although its profile expected it is likely in a quiet spell,
    /// and a peak of today that passed without a launch is not waited for any more. The arrays
    /// stop at `endIndex` (the whole horizon by default), for a plan that looks only so far.
    func profileLaunches(
        model: AppModel, startIndex: Int, endIndex: Int? = nil, profiles: DayProfiles, notColdUntil: Milliseconds,
        returns: Bool = true
    ) -> ExpectedLaunches {
        let endIndex = min(endIndex ?? clock.count, clock.count)
        let (weekday, weekend) = profiles
        var expected = ExpectedLaunches(minutes: endIndex)
        let now = clock.time(startIndex)
        let densities =
            returns
            ? model.lastLaunch.flatMap { model.nextLaunchDensities(minutesWaited: now.minutes(since: $0)) } : nil
        var missed = launchesMissed(model: model, startIndex: startIndex, profiles: profiles)
        for index in startIndex..<max(startIndex, endIndex) {
            let time = clock.time(index)
            let profile = clock.weekend[index] ? weekend : weekday
            let profileRate = profile.rate(minute: Int(clock.minuteOfDay[index]))
            defer { if model.lastLaunch.map({ time > $0 }) ?? false { missed += profileRate } }
            guard time >= notColdUntil else { continue }
            expected.usual[index] = profileRate
            guard let last = model.lastLaunch else { continue }
            let since = time.minutes(since: last)
            if let densities, since >= AppModel.gapStartMinutes, since < Self.recencyHorizon {
                // Both signals add: the profile's launches at this hour, and the chance of
                // coming back so soon after the last launch.
                expected.returning[index] = densities[AppModel.gapBin(minutes: since)]
            } else if since >= Self.recencyHorizon {
                // The profile remembers the days when the app was in use.
                expected.usual[index] *= Self.quietShare(missed: missed)
            }
        }
        forgetPassedPeaks(&expected, model: model, startIndex: startIndex, profiles: profiles)
        return expected
    }

    /// The launches the profiles expected from the app's last launch to the minute planning
    /// starts from: counted to the horizon's start, then on to that minute.
    func launchesMissed(model: AppModel, startIndex: Int, profiles: DayProfiles) -> Double {
        guard let last = model.lastLaunch else { return 0 }
        var missed = Self.expectedLaunches(from: last, to: clock.start, device: device, profiles: profiles)
        if startIndex > 0, last < clock.time(startIndex) {
            missed += Self.expectedLaunches(
                from: max(last, clock.start), to: clock.time(startIndex), device: device, profiles: profiles)
        }
        return missed
    }

    /// Expected cold launches per minute from the device's learned ``LaunchHazard``
    /// (``HazardForecaster``, once the hazard is trained and the app was launched): the chance
    /// the profile's rate at each time of day stands for, times how the time since the app's
    /// last launch changes it on this device and for this app; past ``recencyHorizon``, less a
    /// quiet spell's discount, as in the hand-weighted sum (the hazard's bins of time since the
    /// last launch are pooled over the device's apps, the quiet spell is this app's own). The
    /// part the time of day explains is ``ExpectedLaunches/usual``, the rest, within
    /// ``recencyHorizon`` of the last launch, ``ExpectedLaunches/returning``.
    /// `discountsQuietSpells: false` leaves the discount out, to measure it.
    func learnedLaunches(
        model: AppModel, startIndex: Int, endIndex: Int, profiles: DayProfiles, notColdUntil: Milliseconds,
        discountsQuietSpells: Bool = true
    ) -> ExpectedLaunches {
        var expected = ExpectedLaunches(minutes: endIndex)
        guard let last = model.lastLaunch else { return expected }
        let (weekday, weekend) = profiles
        let hazard = device.hazard
        // The usual chance of each 5-minute bin of the day (weekdays, then weekends), worked out
        // when the plan first reaches the bin, and the factor of each bin of time since the last
        // launch: read once, not for every minute.
        let bins = weekday.rates.count
        var usualByBin = [Double](repeating: -1, count: 2 * bins)
        let factors = (0..<LaunchHazard.sinceBins).map { hazard.sinceFactors[$0] * model.sinceMultiplier(bin: $0) }
        var since = clock.time(startIndex).minutes(since: last)
        var sinceBin = LaunchHazard.sinceBin(minutes: since)
        var missed = launchesMissed(model: model, startIndex: startIndex, profiles: profiles)
        for index in startIndex..<max(startIndex, endIndex) {
            defer {
                if clock.time(index) > last {
                    missed += (clock.weekend[index] ? weekend : weekday).rate(minute: Int(clock.minuteOfDay[index]))
                }
                since += 1
            }
            guard clock.time(index) >= notColdUntil else { continue }
            while sinceBin < LaunchHazard.sinceEdges.count, since >= LaunchHazard.sinceEdges[sinceBin] { sinceBin += 1 }
            let bin = Int(clock.minuteOfDay[index]) / AppModel.binMinutes
            let cell = clock.weekend[index] ? bins + bin : bin
            var usual = usualByBin[cell]
            if usual < 0 {
                let rate = (clock.weekend[index] ? weekend : weekday).rates[bin]
                usual = hazard.usualRate(profileRate: rate / Double(AppModel.binMinutes))
                usualByBin[cell] = usual
            }
            let quiet = discountsQuietSpells && since >= Self.recencyHorizon ? Self.quietShare(missed: missed) : 1
            let total = usual * factors[sinceBin] * quiet
            // What the time since the last launch adds is a return only within the hours after
            // it; a day later, it is how the app is used at this time of day.
            let returns = since < Self.recencyHorizon
            expected.usual[index] = returns ? min(usual, total) : total
            expected.returning[index] = returns ? max(0, total - usual) : 0
        }
        return expected
    }

    /// Today's peaks whose time has passed with no launch since they began are not waited for:
    /// their remaining launches are taken out of the rest of today.
    func forgetPassedPeaks(_ expected: inout ExpectedLaunches, model: AppModel, startIndex: Int, profiles: DayProfiles)
    {
        guard startIndex < expected.usual.count else { return }
        let today = clock.localDay[startIndex]
        let nowMinute = Int(clock.minuteOfDay[startIndex])
        let profile = clock.weekend[startIndex] ? profiles.weekend : profiles.weekday
        let dayStart = clock.time(startIndex) - .minutes(nowMinute)
        for peak in profile.peaks where peak.minute < nowMinute {
            let spread = max(Self.passedPeakMinimumSpread, peak.spreadMinutes)
            let began = dayStart + Milliseconds(Double(peak.minute) - Self.passedPeakStartSpreads * spread) * .perMinute
            if let last = model.lastLaunch, last >= began { continue }
            let end = min(DayMinute.perDay, Int(Double(peak.minute) + Self.passedPeakEndSpreads * spread))
            var index = startIndex
            while index < expected.usual.count, clock.localDay[index] == today, Int(clock.minuteOfDay[index]) < end {
                expected.usual[index] = 0
                index += 1
            }
        }
    }

    /// The launches the profiles expected from `start` to `end`, counted bin by bin over at most
    /// a week.
    static func expectedLaunches(
        from start: Milliseconds, to end: Milliseconds, device: DeviceModel, profiles: DayProfiles
    ) -> Double {
        guard start < end else { return 0 }
        var expected = 0.0
        var (day, minute) = device.local(start, utcOffset: nil)
        var left = min(7 * DayMinute.perDay, end.minutes(since: start))
        while left > 0 {
            let profile = DeviceModel.isWeekend(day: day) ? profiles.weekend : profiles.weekday
            if minute == 0, left >= DayMinute.perDay {
                expected += profile.launchesPerDay
                left -= DayMinute.perDay
                day += 1
                continue
            }
            // The rest of the minute's 5-minute bin at once: its rate is the same throughout.
            let minutes = min(left, AppModel.binMinutes - minute % AppModel.binMinutes)
            expected += Double(minutes) * profile.rate(minute: minute)
            left -= minutes
            minute += minutes
            if minute == DayMinute.perDay {
                minute = 0
                day += 1
            }
        }
        return expected
    }

    /// The share of its usual launches that an app is expected to make after it missed `missed`
    /// launches its profile expected: it is likely in a quiet spell.
    ///
    /// `missed` is summed from the horizon's start, so two plans that start at other minutes hold
    /// it with other rounding; taken to a grid of 2⁻²⁰ launches first, it gives the same share,
    /// and the same rates, from whichever minute a plan starts.
    static func quietShare(missed: Double) -> Double {
        let grid = 1_048_576.0
        let missed = (missed * grid).rounded() / grid
        return 1 / (1 + quietSpellWeight * max(0, missed - quietSpellAllowance))
    }
}
