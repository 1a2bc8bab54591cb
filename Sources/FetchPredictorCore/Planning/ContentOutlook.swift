import Foundation

/// What an app's fetch results say of its content over a planning horizon: the new content
/// expected minute by minute, and so the chance that a fetch finds something new.
struct ContentOutlook {
    private let model: AppModel
    private let clock: HorizonClock
    private let usesFetchResults: Bool
    /// New content expected up to each minute of the horizon it was asked for: a running sum.
    private let prefix: [Double]
    /// New content expected per hour, averaged over the day.
    private let meanRate: Double

    /// The first minute the running sum counts from: before it, the mean rate stands in.
    private let from: Int

    /// The running sum is counted from `from` up to `to` (the whole horizon by default): a plan
    /// that looks only so far asks nothing beyond.
    init(_ model: AppModel, clock: HorizonClock, from: Int = 0, to: Int? = nil, _ configuration: PredictorConfiguration)
    {
        self.model = model
        self.clock = clock
        usesFetchResults = configuration.usesFetchResults
        let hourly = (0..<24).map { model.publicationRate(hour: $0) }
        let end = min(to ?? clock.count, clock.count)
        var prefix = [Double](repeating: 0, count: end + 1)
        self.from = min(max(0, from), end)
        if configuration.usesFetchResults {
            for index in self.from..<end {
                prefix[index + 1] =
                    prefix[index] + hourly[Int(clock.minuteOfDay[index]) / DayMinute.perHour]
                    / Double(DayMinute.perHour)
            }
        }
        self.prefix = prefix
        meanRate = hourly.reduce(0, +) / 24
    }

    /// The chance that something new was published between the last refresh before a candidate
    /// minute (a planned wake, else the app's last refresh) and the candidate.
    func newContentChance(_ candidate: Int, lastSelectedBefore: Int?) -> Double {
        guard usesFetchResults else { return 1 }
        let expected: Double
        if let previous = lastSelectedBefore {
            expected = prefix[candidate] - prefix[previous]
        } else if let refresh = model.lastRefresh {
            let index = refresh.minutes(since: clock.start)
            if index >= from {
                expected = prefix[candidate] - prefix[min(index, candidate)]
            } else {
                let before = min(Double(from - index), Double(DayMinute.perDay)) / Double(DayMinute.perHour) * meanRate
                expected = prefix[candidate] - prefix[from] + before
            }
        } else {
            return 1
        }
        return 1 - exp(-expected)
    }
}
