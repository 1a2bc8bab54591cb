import Foundation

/// How likely a cold launch of an app is in a minute, learned from every app of a device: a
/// log-linear model of two signals, the app's daily profile at that time of day and the time
/// since its last launch.
///
/// Each is cut into bins, and the model counts, decayed by day, the minutes each app spent in each
/// pair of bins while a cold launch could come (its exposure) and the cold launches that came.
/// The chance per minute is `profile[p] × since[s]`, fitted to those counts by iterative
/// proportional fitting once a day, each factor pulled toward what the profile alone says by a
/// prior of a few launches. So the weight of each signal is learned from how the device's apps
/// were used, not set by hand: a profile that overstates its peaks is shrunk, and how soon people
/// come back to their apps (within the hour, or after a night) is read from their history.
public struct LaunchHazard: Sendable, Hashable, Codable {
    /// The upper edges of the profile bins, in expected cold launches per minute.
    static let profileEdges: [Double] = [
        0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128,
    ]
    /// The rate each profile bin stands for before any launch is counted: its geometric middle.
    static let profileMiddles: [Double] = {
        let edges = [0.00003] + profileEdges + [0.256]
        return (0..<(edges.count - 1)).map { (edges[$0] * edges[$0 + 1]).squareRoot() }
    }()
    /// The upper edges of the bins of time since the app's last launch, in minutes; the first bin
    /// starts at the cold-launch gap.
    static let sinceEdges = [60, 120, 240, 480, 24 * 60]
    static var profileBins: Int { profileEdges.count + 1 }
    static var sinceBins: Int { sinceEdges.count + 1 }
    /// How strongly the prior holds, in launches per bin.
    static let priorLaunches = 3.0
    /// The launches counted before the learned factors are used.
    static let launchesNeeded = 30.0

    /// Minutes of exposure and cold launches by profile bin and since bin (`p * sinceBins + s`).
    public internal(set) var exposure = [Double](repeating: 0, count: profileBins * sinceBins)
    public internal(set) var launches = [Double](repeating: 0, count: profileBins * sinceBins)
    /// The fitted factors: the chance per minute of each profile bin at the typical time since a
    /// launch, and how the time since the last launch multiplies it (exposure-weighted mean 1).
    public internal(set) var profileRates = LaunchHazard.profileMiddles
    public internal(set) var sinceFactors = [Double](repeating: 1, count: sinceBins)

    /// Creates a value with nothing learned.
    public init() {}

    /// The cold launches counted when the factors were last fitted.
    public internal(set) var fittedLaunches = 0.0

    /// Whether the factors were fitted from enough cold launches to be used. It changes only
    /// with a fit, once a day, as the factors do: never between two of the planner's questions
    /// on the same day, so that a plan made further ahead goes on as it was begun.
    public var isTrained: Bool { fittedLaunches >= Self.launchesNeeded }

    @inline(__always) static func profileBin(_ rate: Double) -> Int {
        var bin = 0
        while bin < profileEdges.count, rate >= profileEdges[bin] { bin += 1 }
        return bin
    }

    @inline(__always) static func sinceBin(minutes: Int) -> Int {
        var bin = 0
        while bin < sinceEdges.count, minutes >= sinceEdges[bin] { bin += 1 }
        return bin
    }

    /// The chance per minute of a cold launch in a profile bin and a bin of time since the app's
    /// last launch.
    @inline(__always) func rate(profileBin: Int, sinceBin: Int) -> Double {
        profileRates[profileBin] * sinceFactors[sinceBin]
    }

    /// The chance per minute that a profile's rate stands for at a typical time since a launch.
    ///
    /// Between the middles of two bins it follows a straight line in log-log, so that a sharper
    /// peak is expected to bring more launches than a flatter one in the same bin; above the last
    /// middle it grows with the profile.
    @inline(__always) public func usualRate(profileRate: Double) -> Double {
        let middles = Self.profileMiddles
        guard profileRate > middles[0] else { return profileRates[0] }
        let last = middles.count - 1
        guard profileRate < middles[last] else { return profileRates[last] * profileRate / middles[last] }
        var upper = 1
        while middles[upper] <= profileRate { upper += 1 }
        let share = log(profileRate / middles[upper - 1]) / log(middles[upper] / middles[upper - 1])
        return profileRates[upper - 1] * pow(profileRates[upper] / profileRates[upper - 1], share)
    }

    mutating func count(profileBin: Int, sinceBin: Int, minutes: Double, launched: Bool) {
        let cell = profileBin * Self.sinceBins + sinceBin
        exposure[cell] += minutes
        if launched { launches[cell] += 1 }
    }

    mutating func decay(_ factor: Double) {
        for index in exposure.indices {
            exposure[index] *= factor
            launches[index] *= factor
        }
    }

    /// Fits the factors to the counts.
    mutating func fit() {
        fittedLaunches = launches.reduce(0, +)
        let (profileBins, sinceBins) = (Self.profileBins, Self.sinceBins)
        var rates = Self.profileMiddles
        var factors = [Double](repeating: 1, count: sinceBins)
        let prior = Self.priorLaunches
        for _ in 0..<12 {
            for p in 0..<profileBins {
                var observed = prior, expected = prior / Self.profileMiddles[p]
                for s in 0..<sinceBins {
                    observed += launches[p * sinceBins + s]
                    expected += exposure[p * sinceBins + s] * factors[s]
                }
                rates[p] = observed / expected
            }
            for s in 0..<sinceBins {
                var observed = prior, expected = prior
                for p in 0..<profileBins {
                    observed += launches[p * sinceBins + s]
                    expected += exposure[p * sinceBins + s] * rates[p]
                }
                factors[s] = observed / expected
            }
        }
        // Scale so that the since factors average 1 over the exposure: the profile's rates are
        // then those of a typical moment.
        var weight = 0.0, weighted = 0.0
        for s in 0..<sinceBins {
            for p in 0..<profileBins {
                weight += exposure[p * sinceBins + s]
                weighted += exposure[p * sinceBins + s] * factors[s]
            }
        }
        let mean = weight > 0 ? weighted / weight : 1
        profileRates = rates.map { $0 * mean }
        sinceFactors = factors.map { $0 / mean }
    }
}
