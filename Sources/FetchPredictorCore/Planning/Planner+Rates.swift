import Foundation

extension Planner {
    /// Expected cold launches per minute over the horizon: the daily profile, raised where the
    /// time since the app's last launch makes the next launch likely (people often come back
    /// to an app within an hour or two).
    /// How long after a launch the time since it says more than the time of day, in minutes.
    static let recencyHorizon = 4 * 60
    /// Expected launches an app may miss before it counts as in a quiet spell, and how much
    /// each further missed launch lowers its expected launches.
    static let quietSpellAllowance = 1.5
    static let quietSpellWeight = 0.5

    static func fillRates(
        _ rates: inout [Double], model: AppModel, clock: HorizonClock, startIndex: Int, weekday: DailyProfile,
        weekend: DailyProfile, notColdUntil: Milliseconds, device: DeviceModel, _ configuration: PredictorConfiguration
    ) {
        let now = clock.time(startIndex)
        let densities =
            configuration.usesRecency
            ? model.lastLaunch.flatMap { model.nextLaunchDensities(minutesWaited: Int((now - $0) / 60_000)) } : nil
        var missed =
            model.lastLaunch.map {
                expectedLaunches(from: $0, to: clock.start, device: device, weekday: weekday, weekend: weekend)
            } ?? 0
        for index in 0..<clock.count {
            let time = clock.time(index)
            let profile = clock.weekend[index] ? weekend : weekday
            let profileRate = profile.rate(minute: Int(clock.minuteOfDay[index]))
            defer { if model.lastLaunch.map({ time > $0 }) ?? false { missed += profileRate } }
            guard time >= notColdUntil else {
                rates[index] = 0
                continue
            }
            var rate = profileRate
            if let last = model.lastLaunch {
                let since = Int((time - last) / 60_000)
                if let densities, since >= 30, since < recencyHorizon {
                    // Both signals add: the profile's launches at this hour, and the chance of
                    // coming back so soon after the last launch.
                    rate += densities[(since - 30) / 10]
                } else if since >= recencyHorizon {
                    // An app not opened although its profile expected it is likely in a quiet
                    // spell: the profile remembers the days when it was in use.
                    rate *= quietShare(missed: missed)
                }
            }
            rates[index] = rate
        }
    }

    /// The launches the profiles expected from `start` to `end`, counted minute by minute over
    /// at most a week.
    static func expectedLaunches(
        from start: Milliseconds, to end: Milliseconds, device: DeviceModel, weekday: DailyProfile,
        weekend: DailyProfile
    ) -> Double {
        guard start < end else { return 0 }
        var expected = 0.0
        var (day, minute) = device.local(start, utcOffset: nil)
        var left = min(7 * 1440, Int((end - start) / 60_000))
        while left > 0 {
            let profile = DeviceModel.isWeekend(day: day) ? weekend : weekday
            if minute == 0, left >= 1440 {
                expected += profile.launchesPerDay
                left -= 1440
                day += 1
                continue
            }
            expected += profile.rate(minute: minute)
            left -= 1
            minute += 1
            if minute == 1440 {
                minute = 0
                day += 1
            }
        }
        return expected
    }

    /// The share of its usual launches that an app is expected to make after it missed `missed`
    /// launches its profile expected: it is likely in a quiet spell.
    static func quietShare(missed: Double) -> Double {
        1 / (1 + quietSpellWeight * max(0, missed - quietSpellAllowance))
    }
}
