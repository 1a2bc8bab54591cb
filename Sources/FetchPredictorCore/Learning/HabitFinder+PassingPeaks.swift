import Foundation

/// The planner's peaks: a looser reading of the same counts than ``HabitFinder/peaks(bins:days:)``.
///
/// The habits of ``HabitFinder/peaks(bins:days:)`` must stand out of the background by a
/// significance test, since they are shown to people and named in reasons. The planner asks a
/// different question of a day's profile: which bumps of use have passed today with no launch, so
/// that their launches are not waited for any more. For that a bump need not be a proven habit:
/// each local maximum of the smoothed rates is one, with the basin of bins that descend from it.
/// Measured: planning with the strict habits instead forgets fewer passed bumps, and the five
/// shared logs together lose (fresh@4 0.353 → 0.348, wakes@50 6.76 → 6.80; docs/experiments.md).
extension HabitFinder {
    /// A basin ends where the rate falls below this share of its peak's.
    static let basinEdgeShare = 0.05
    /// The fewest launches a day in a basin that make a passing peak.
    static let passingLaunchesPerDay = 0.15
    /// The fewest launches in a basin, over the days counted, that make a passing peak.
    static let passingLaunches = 1.2
    /// The launches around a passing peak at which its confidence reaches 1 − 1/e...
    static let passingConfidenceLaunches = 1.5
    /// ...and the days of history at which it is no longer discounted.
    static let passingConfidenceDays = 2.0

    /// The local maxima of smoothed rates (launches a day per bin), each with the basin of bins
    /// around it that descend from it; `smoothingBins` is the kernel the rates were smoothed
    /// with, taken out of the spread.
    static func passingPeaks(_ rates: [Double], days: Double, smoothingBins: Double) -> [Peak] {
        let count = rates.count
        var peaks: [Peak] = []
        let binMinutes = Double(AppModel.binMinutes)
        for bin in 0..<count {
            let value = rates[bin]
            let previous = rates[(bin - 1 + count) % count], next = rates[(bin + 1) % count]
            guard value > 0, value > previous, value >= next else { continue }
            // Walk down both sides to the basin's edges.
            func rate(_ index: Int) -> Double { rates[((index % count) + count) % count] }
            let edge = value * basinEdgeShare
            var left = bin, right = bin
            while bin - left < count / 2, rate(left - 1) <= rate(left), rate(left - 1) > edge { left -= 1 }
            while right - bin < count / 2, rate(right + 1) <= rate(right), rate(right + 1) > edge { right += 1 }
            var mass = 0.0, weightedOffset = 0.0
            for index in left...right {
                mass += rate(index)
                weightedOffset += rate(index) * Double(index - bin)
            }
            guard mass >= passingLaunchesPerDay, mass * days >= passingLaunches else { continue }
            let centre = Double(bin) + weightedOffset / mass
            var variance = 0.0
            for index in left...right {
                let distance = Double(index) - centre
                variance += rate(index) * distance * distance
            }
            variance = max(0, variance / mass - smoothingBins * smoothingBins)
            let minute = DayMinute.wrapped(Int(((centre + 0.5) * binMinutes).rounded()))
            // Confidence grows with the launches seen around the peak and with the days behind them.
            let support = mass * days
            let confidence =
                (1 - exp(-support / passingConfidenceLaunches)) * min(1, days / passingConfidenceDays)
            peaks.append(
                Peak(
                    minute: minute, spreadMinutes: variance.squareRoot() * binMinutes,
                    launchesPerDay: mass, confidence: confidence))
        }
        return peaks.sorted { $0.minute < $1.minute }
    }
}
