import Foundation

/// An app's learned daily profile: expected cold launches through the local day, and its peaks.
public struct DailyProfile: Sendable, Hashable, Codable {
    /// Which days it describes.
    public var days: DayKind
    /// Expected cold launches per day in each 5-minute bin from midnight, smoothed.
    public var rates: [Double]
    /// The peaks, by time of day.
    public var peaks: [Peak]
    /// The weight of history behind the profile, in days (decayed).
    public var effectiveDays: Double

    /// Expected cold launches per day.
    public var launchesPerDay: Double { rates.reduce(0, +) }

    /// The profile of an app with no launch learned: every day, no launch at any time, no peak.
    public static let empty = DailyProfile(
        days: .all, rates: Array(repeating: 0, count: AppModel.binsPerDay), peaks: [], effectiveDays: 0)

    /// The expected cold launches per minute at a minute of the day.
    @inline(__always) public func rate(minute: Int) -> Double {
        rates[DayMinute.wrapped(minute) / AppModel.binMinutes] / Double(AppModel.binMinutes)
    }

    /// Builds a profile from decayed bin counts over a decayed number of days.
    static func make(
        bins: [Double], days: Double, kind: DayKind, smoothingMinutes: Double, findsPeaks: Bool = true
    ) -> DailyProfile {
        let count = AppModel.binsPerDay
        guard days > 0 else {
            return DailyProfile(days: kind, rates: Array(repeating: 0, count: count), peaks: [], effectiveDays: 0)
        }
        let sigma = max(0.5, smoothingMinutes / Double(AppModel.binMinutes))
        // Half the mass on a narrow kernel, half on one three times wider: sharp habits keep a
        // sharp peak, and scattered use still spreads to the hours around it.
        let narrow = smooth(bins, days: days, sigma: sigma), wide = smooth(bins, days: days, sigma: sigma * 3)
        let rates = zip(narrow, wide).map { ($0 + $1) / 2 }
        guard findsPeaks else { return DailyProfile(days: kind, rates: rates, peaks: [], effectiveDays: days) }
        // The planner's peaks (``HabitFinder/passingPeaks(_:days:smoothingBins:)``) are found on a
        // wider kernel than the rates, so that a habit seen only a few times, its launches
        // scattered, makes one peak rather than several.
        let peakSigma = max(sigma, peakSmoothingMinutes / Double(AppModel.binMinutes))
        let peakRates = peakSigma == sigma ? rates : smooth(bins, days: days, sigma: peakSigma)
        let peaks = HabitFinder.passingPeaks(peakRates, days: days, smoothingBins: peakSigma)
        return DailyProfile(days: kind, rates: rates, peaks: peaks, effectiveDays: days)
    }

    /// The smallest smoothing, in minutes, of the rates that peaks are found on.
    static let peakSmoothingMinutes = 15.0

    /// Rates per bin from decayed counts over decayed days, smoothed by a circular Gaussian kernel.
    ///
    /// Each bin's rate gathers its neighbours' counts in the order of their bins, from midnight
    /// on, as scattering each count over its neighbours in bin order would add them: the sums
    /// are the same to the last bit, with no test of the wrap at midnight in the inner loop.
    static func smooth(_ bins: [Double], days: Double, sigma: Double) -> [Double] {
        let count = bins.count
        let (kernel, radius) = gaussianKernel(sigma: sigma)
        // A count of zero adds nothing: `sum + 0` is `sum` for the sums here, none negative.
        let values = bins.map { $0 > 0 ? $0 / days : 0 }
        // A sparse day (few bins with launches) is cheaper scattered: only its launches are read.
        let used = values.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        guard 2 * radius < count, used * Self.scatterShare > count else {
            return scatter(values, kernel: kernel, radius: radius)
        }
        var rates = Array(repeating: 0.0, count: count)
        kernel.withUnsafeBufferPointer { kernel in
            values.withUnsafeBufferPointer { values in
                rates.withUnsafeMutableBufferPointer { rates in
                    // The bins from `low` through `high`, the kernel read from `tap` downward.
                    @inline(__always) func gather(_ sum: inout Double, _ low: Int, _ high: Int, _ tap: Int) {
                        var tap = tap
                        for source in low...high {
                            sum += values[source] * kernel[tap]
                            tap -= 1
                        }
                    }
                    // Four bins at a time away from midnight: four sums apart, each in its own order,
                    // so that one need not wait for another's last addition.
                    var target = radius
                    while target + 3 + radius < count {
                        var sums = (0.0, 0.0, 0.0, 0.0)
                        let first = target - radius
                        for offset in 0...(2 * radius) {
                            let weight = kernel[2 * radius - offset]
                            sums.0 += values[first + offset] * weight
                            sums.1 += values[first + offset + 1] * weight
                            sums.2 += values[first + offset + 2] * weight
                            sums.3 += values[first + offset + 3] * weight
                        }
                        (rates[target], rates[target + 1], rates[target + 2], rates[target + 3]) = sums
                        target += 4
                    }
                    let unrolledEnd = target
                    for target in 0..<count where target < radius || target >= unrolledEnd {
                        var sum = 0.0
                        if target < radius {
                            // Past midnight backward: the day's first bins come first, then its last.
                            gather(&sum, 0, target + radius, target + radius)
                            gather(&sum, count + target - radius, count - 1, 2 * radius)
                        } else if target + radius >= count {
                            gather(&sum, 0, target + radius - count, target + radius - count)
                            gather(&sum, target - radius, count - 1, 2 * radius)
                        } else {
                            gather(&sum, target - radius, target + radius, 2 * radius)
                        }
                        rates[target] = sum
                    }
                }
            }
        }
        return rates
    }

    /// A Gaussian kernel of standard deviation `sigma` bins, cut at three of them on each side
    /// and scaled to sum to 1, and its radius.
    static func gaussianKernel(sigma: Double) -> (kernel: [Double], radius: Int) {
        let radius = Int((3 * sigma).rounded(.up))
        let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        return (kernel.map { $0 / total }, radius)
    }

    /// A day with fewer than one bin in this many used is smoothed by scattering.
    static let scatterShare = 3

    /// The same by scattering each bin over its neighbours: for a sparse day, and for a kernel
    /// wider than the day.
    static func scatter(_ values: [Double], kernel: [Double], radius: Int) -> [Double] {
        let count = values.count
        var rates = Array(repeating: 0.0, count: count)
        for bin in 0..<count where values[bin] > 0 {
            var target = ((bin - radius) % count + count) % count
            for weight in kernel {
                rates[target] += values[bin] * weight
                target += 1
                if target == count { target = 0 }
            }
        }
        return rates
    }
}
