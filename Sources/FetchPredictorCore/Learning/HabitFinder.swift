import Foundation

/// Reads habits from counts of cold launches by time of day: each habit is one ``Peak`` with
/// its time, its spread, its launches a day and the confidence its evidence earns.
///
/// The counts are smoothed with a 15-minute kernel, and again with a 45-minute one for wide
/// habits seen a few times; each local maximum is a candidate. From it, the mean and the spread
/// settle on the habit's core (two spreads each side) above the level of its shoulders (the next
/// two spreads each side), which is the background there: the launches that come at any time
/// (the higher shoulder counts, so that the edge of the day's use is no habit). A candidate is
/// a habit when it is all of: ``minimumExcess`` launches or more above that background; at least
/// ``minimumLaunchesPerDay`` (a habit happens on half the days or more); a spread of at most
/// ``maximumSpread``; and more launches than the background makes by chance (Poisson,
/// ``significance``). Its launches a day are those
/// above the background over the days counted, and its confidence grows with them.
///
/// - Complexity: O(bins) per candidate, once per profile asked for.
enum HabitFinder {
    /// The kernel that finds sharp habits, in bins (15 minutes).
    static let narrowBins = 3.0
    /// The kernel that finds wide habits, in bins (45 minutes).
    static let wideBins = 9.0
    /// The fewest launches above the background that make a habit.
    static let minimumExcess = 1.5
    /// The fewest launches a day that make a habit.
    static let minimumLaunchesPerDay = 0.5
    /// The widest spread of a habit, in minutes: use spread wider than that is a stretch of the
    /// day, not a habit.
    static let maximumSpread = 60.0
    /// The largest chance that the background alone made so many launches.
    static let significance = 0.001
    /// A wide habit is the same as a sharp one found within this many minutes of it...
    static let sameHabitMinutes = 30.0
    /// ...or within this many of the wide habit's spreads, when that is further.
    static let sameHabitSpreads = 1.5
    /// The share of a normal habit's variance within two spreads of its centre, where its core is
    /// measured (a normal distribution cut at ±2σ).
    static let coreVarianceShare = 0.774
    /// The share of a normal habit's launches within two spreads of its centre.
    static let coreLaunchShare = 0.954
    /// The launches above the background at which a habit's confidence reaches 1 − 1/e.
    static let confidenceLaunches = 2.5

    /// The habits in counts of cold launches per 5-minute bin over a number of days.
    static func peaks(bins: [Double], days: Double) -> [Peak] {
        guard days > 0, bins.contains(where: { $0 > 0 }) else { return [] }
        // Sharp habits show on the narrow kernel; a wide one, seen a few times, on the wide one.
        var found = basins(bins, sigma: narrowBins).compactMap { habit($0, bins: bins, days: days) }
        for wide in basins(bins, sigma: wideBins).compactMap({ habit($0, bins: bins, days: days) })
        where !found.contains(where: {
            DayMinute.distance($0.minute, wide.minute)
                <= Int(max(sameHabitMinutes, sameHabitSpreads * wide.spreadMinutes))
        }) {
            found.append(wide)
        }
        return found.sorted { $0.minute < $1.minute }
    }

    /// The basins of the counts smoothed with a kernel: from one local minimum to the next, each
    /// with its maximum, in bins (the end may pass the day's last bin).
    static func basins(_ bins: [Double], sigma: Double) -> [(start: Int, end: Int, top: Int, sigma: Double)] {
        let count = bins.count
        let smoothed = DailyProfile.smooth(bins, days: 1, sigma: sigma)
        func wrap(_ index: Int) -> Int { ((index % count) + count) % count }
        let minima = (0..<count).filter {
            smoothed[$0] <= smoothed[wrap($0 - 1)] && smoothed[$0] < smoothed[wrap($0 + 1)]
        }
        return minima.enumerated().map { index, start in
            var end = index + 1 < minima.count ? minima[index + 1] : minima[0] + count
            if end <= start { end += count }
            let top = (start...end).max { smoothed[wrap($0)] < smoothed[wrap($1)] }!
            return (start, end, top, sigma)
        }
    }

    /// The habit of one basin, or `nil` when its launches do not stand out of the background.
    static func habit(_ basin: (start: Int, end: Int, top: Int, sigma: Double), bins: [Double], days: Double) -> Peak? {
        let count = bins.count
        func wrap(_ index: Int) -> Int { ((index % count) + count) % count }
        // From the highest point and the kernel's width, settle the mean and the spread on the core
        // (two spreads each side) above the level of its shoulders (the next two spreads each
        // side). The lower shoulder is the level the habit's own launches are counted above; the
        // higher one the level it must stand out of, so that the edge of the day's use is no habit.
        var centre = Double(basin.top)
        var sigma = basin.sigma
        var level = 0.0
        var strictLevel = 0.0
        var core: [Int] = []
        for _ in 0..<3 {
            let half = max(2, (2 * sigma).rounded(.up))
            core = Array(Int((centre - half).rounded())...Int((centre + half).rounded()))
            let leftShoulder = Int((centre - 2 * half).rounded())...(core.first! - 1)
            let rightShoulder = (core.last! + 1)...Int((centre + 2 * half).rounded())
            func mean(_ range: ClosedRange<Int>) -> Double {
                range.isEmpty ? 0 : range.reduce(0) { $0 + bins[wrap($1)] } / Double(range.count)
            }
            level = min(mean(leftShoulder), mean(rightShoulder))
            strictLevel = max(mean(leftShoulder), mean(rightShoulder))
            guard let settled = moments(core, bins: bins, level: level) else { return nil }
            centre = settled.centre
            // The core holds a normal habit within two spreads, where its variance is a share of the whole.
            sigma = max(0.5, settled.sigma / coreVarianceShare.squareRoot())
        }
        let launches = core.reduce(0) { $0 + bins[wrap($1)] }
        let excess = launches - level * Double(core.count)
        let strictBackground = strictLevel * Double(core.count)
        guard launches - strictBackground >= minimumExcess, excess / days >= minimumLaunchesPerDay,
            poissonTail(atLeast: Int(launches.rounded()), mean: strictBackground) < significance
        else { return nil }
        let binMinutes = Double(AppModel.binMinutes)
        // A launch is known to its 5-minute bin: the spread within a bin is added back.
        let spread = (sigma * sigma * binMinutes * binMinutes + binMinutes * binMinutes / 12).squareRoot()
        guard spread <= maximumSpread else { return nil }
        let minute = DayMinute.wrapped(Int(((centre + 0.5) * binMinutes).rounded()))
        return Peak(
            minute: minute, spreadMinutes: spread, launchesPerDay: excess / coreLaunchShare / days,
            confidence: 1 - exp(-excess / confidenceLaunches))
    }

    /// The mean position and the standard deviation, in bins, of the counts above a level.
    static func moments(_ positions: [Int], bins: [Double], level: Double) -> (centre: Double, sigma: Double)? {
        let count = bins.count
        var mass = 0.0
        var sum = 0.0
        for position in positions {
            let weight = max(0, bins[((position % count) + count) % count] - level)
            mass += weight
            sum += weight * Double(position)
        }
        guard mass > 0 else { return nil }
        let centre = sum / mass
        var variance = 0.0
        for position in positions {
            let weight = max(0, bins[((position % count) + count) % count] - level)
            variance += weight * (Double(position) - centre) * (Double(position) - centre)
        }
        return (centre, (variance / mass).squareRoot())
    }

    /// The chance that a Poisson count of that mean reaches `count`.
    static func poissonTail(atLeast count: Int, mean: Double) -> Double {
        guard count > 0 else { return 1 }
        guard mean > 0 else { return 0 }
        var term = exp(-mean)
        var below = term
        for index in 1..<count {
            term *= mean / Double(index)
            below += term
        }
        return max(0, 1 - below)
    }
}
