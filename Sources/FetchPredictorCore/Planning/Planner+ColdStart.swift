import Foundation

extension Planner {
    /// The conservative plan of an app with too little history: a wake at each of the
    /// configuration's cold-start times, as the interval allows.
    func coldStartWakes(
        _ name: String, from firstIndex: Int, to planMinutes: Int, floor: Milliseconds, heldBy: WakeReason?
    ) -> [AppWake] {
        var wakes: [AppWake] = []
        var last = Milliseconds.min / 2
        for index in firstIndex..<max(firstIndex, min(planMinutes, clock.count))
        where configuration.coldStartMinutes.contains(Int(clock.minuteOfDay[index]))
            && clock.time(index) - last >= floor
        {
            last = clock.time(index)
            wakes.append(
                AppWake(
                    app: name, plannedTime: Date(milliseconds: last), expectedLaunches: 0,
                    reasons: [.coldStart] + (wakes.isEmpty ? heldBy.map { [$0] } ?? [] : [])))
        }
        return wakes
    }
}
