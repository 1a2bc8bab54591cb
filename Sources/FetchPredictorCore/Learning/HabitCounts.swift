import Foundation

/// The long memory of an app's cold launches from which its habits are read: counts by time of
/// day on weekdays and on weekends, the days they were counted over, and the last week day by day.
///
/// Counts and days decay together by ``PredictorConfiguration/habitDecay`` a day (0.97 halves a
/// day's weight in about 23 days), so that launches per day are the recent weeks' average. Days
/// are counted from the app's first launch to its latest: the days since the latest are its
/// ``AppState``, a quiet spell that would otherwise rewrite its habits; they count once a launch
/// ends them.
public struct HabitCounts: Sendable, Hashable, Codable {
    /// Decayed cold launches per 5-minute bin of the local day, on weekdays and on weekends.
    var weekday = [Double](repeating: 0, count: AppModel.binsPerDay)
    var weekend = [Double](repeating: 0, count: AppModel.binsPerDay)
    /// Decayed days counted since the app's first day, by kind.
    var weekdayDays = 0.0
    var weekendDays = 0.0
    /// Cold launches on each of the last ``recentDayCount`` local days, the newest last.
    var recentDays = [Double](repeating: 0, count: HabitCounts.recentDayCount)
    /// The local day the newest of ``recentDays`` is.
    var recentDay: Int?

    /// How many days ``recentDays`` keeps.
    static let recentDayCount = 8

    /// Moves to a later local day: decays what came before, and counts the days in between.
    private mutating func advance(from current: Int, to day: Int, decay: Double) {
        guard day > current else { return }
        for newDay in (current + 1)...day {
            weekdayDays *= decay
            weekendDays *= decay
            if DeviceModel.isWeekend(day: newDay) { weekendDays += 1 } else { weekdayDays += 1 }
        }
        let factor = pow(decay, Double(day - current))
        for index in 0..<AppModel.binsPerDay {
            weekday[index] *= factor
            weekend[index] *= factor
        }
        shiftRecent(to: day)
    }

    /// Counts a launch on a local day: the days up to it, and the launch in its bin when it is
    /// cold (`bin` is `nil` for a launch that is not).
    mutating func countLaunch(bin: Int?, day: Int, decay: Double) {
        if let counted = recentDay {
            advance(from: counted, to: day, decay: decay)
        } else {
            if DeviceModel.isWeekend(day: day) { weekendDays = 1 } else { weekdayDays = 1 }
            recentDay = day
        }
        guard let bin else { return }
        if DeviceModel.isWeekend(day: day) { weekend[bin] += 1 } else { weekday[bin] += 1 }
        if day == recentDay { recentDays[recentDays.count - 1] += 1 }
    }

    private mutating func shiftRecent(to day: Int) {
        guard let newest = recentDay else {
            recentDay = day
            return
        }
        guard day > newest else { return }
        let shift = min(day - newest, recentDays.count)
        recentDays.removeFirst(shift)
        recentDays.append(contentsOf: repeatElement(0, count: shift))
        recentDay = day
    }

    /// Cold launches on the local days from `first` to `last`, both included, as far as kept.
    func coldLaunches(from first: Int, through last: Int) -> Double {
        guard let newest = recentDay else { return 0 }
        var total = 0.0
        for (offset, count) in recentDays.enumerated() {
            let day = newest - (recentDays.count - 1 - offset)
            if day >= first && day <= last { total += count }
        }
        return total
    }

    /// The counts and days of a kind of day; `.all` adds both.
    func bins(_ kind: DayKind) -> (bins: [Double], days: Double) {
        switch kind {
        case .weekday: (weekday, weekdayDays)
        case .weekend: (weekend, weekendDays)
        case .all: (zip(weekday, weekend).map(+), weekdayDays + weekendDays)
        }
    }
}
