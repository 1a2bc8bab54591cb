import Foundation

/// What an app's fetch results say of its content over a planning horizon: the new content
/// expected minute by minute, and so the chance that a fetch finds something new.
struct ContentOutlook {
    private let model: AppModel
    private let clock: HorizonClock
    private let usesFetchResults: Bool
    /// New content expected up to each minute of the horizon: a running sum.
    private let prefix: [Double]
    /// New content expected per hour, averaged over the day.
    private let meanRate: Double

    init(_ model: AppModel, clock: HorizonClock, _ configuration: PredictorConfiguration) {
        self.model = model
        self.clock = clock
        usesFetchResults = configuration.usesFetchResults
        var prefix = [Double](repeating: 0, count: clock.count + 1)
        for index in 0..<clock.count {
            prefix[index + 1] = prefix[index] + model.publicationRate(hour: Int(clock.minuteOfDay[index]) / 60) / 60
        }
        self.prefix = prefix
        meanRate = (0..<24).reduce(0) { $0 + model.publicationRate(hour: $1) } / 24
    }

    /// The chance that something new was published between the last refresh before a candidate
    /// minute (a planned wake, else the app's last refresh) and the candidate.
    func newContentChance(_ candidate: Int, lastSelectedBefore: Int?) -> Double {
        guard usesFetchResults else { return 1 }
        let expected: Double
        if let previous = lastSelectedBefore {
            expected = prefix[candidate] - prefix[previous]
        } else if let refresh = model.lastRefresh {
            let index = Int((refresh - clock.start) / 60_000)
            if index >= 0 {
                expected = prefix[candidate] - prefix[min(index, candidate)]
            } else {
                let before = min(Double(-index), 24 * 60) / 60 * meanRate
                expected = prefix[candidate] + before
            }
        } else {
            return 1
        }
        return 1 - exp(-expected)
    }
}
