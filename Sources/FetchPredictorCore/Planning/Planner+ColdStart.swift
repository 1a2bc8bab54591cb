import Foundation

extension Planner {
    /// The conservative plan of an app with too little history: a wake at each of the
    /// configuration's cold-start times, as the interval allows, each expecting the app's cold
    /// launches a day so far spread over a waking day, and saying so.
    func coldStartWakes(
        _ name: String, from firstIndex: Int, to planMinutes: Int, floor: Milliseconds, heldBy: WakeReason?
    ) -> [AppWake] {
        let use = device.newAppUse(app: name) ?? (0, 1)
        let served = Double(configuration.windowMinutes - configuration.leadMinutes + 1)
        let expected = use.coldLaunchesPerDay * served / (configuration.coldStartWakingHours * 60)
        let rule = WakeReason.newApp(
            coldLaunchesPerDay: use.coldLaunchesPerDay, days: use.days, expectedLaunches: expected)
        var wakes: [AppWake] = []
        var last = Milliseconds.min / 2
        for index in firstIndex..<max(firstIndex, min(planMinutes, clock.count))
        where configuration.coldStartMinutes.contains(Int(clock.minuteOfDay[index]))
            && clock.time(index) - last >= floor
        {
            last = clock.time(index)
            wakes.append(
                AppWake(
                    app: name, plannedTime: Date(milliseconds: last), expectedLaunches: expected,
                    reasons: [.coldStart, rule] + (wakes.isEmpty ? heldBy.map { [$0] } ?? [] : [])))
        }
        return wakes
    }
}
