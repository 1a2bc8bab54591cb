extension Planner.Selection {
    /// Why a wake at a minute of the horizon was chosen: the peak it comes before, and what
    /// fetch results say of new content.
    func reasons(at index: Int, expected: Double, newContentChance: Double) -> [WakeReason] {
        var reasons: [WakeReason] = []
        let profile = clock.weekend[index + window / 2] ? profiles.weekend : profiles.weekday
        let centre = (Int(clock.minuteOfDay[index]) + (lead + window) / 2) % 1440
        if let peak = profile.peaks.min(by: {
            Planner.circularDistance($0.minute, centre) < Planner.circularDistance($1.minute, centre)
        }), Planner.circularDistance(peak.minute, centre) <= 90 {
            reasons.append(.peak(minute: peak.minute, expectedLaunches: expected, confidence: peak.confidence))
        } else {
            reasons.append(.peak(minute: centre, expectedLaunches: expected, confidence: 0))
        }
        if configuration.usesFetchResults, model.fetchWeight > 0, newContentChance < 0.9 {
            reasons.append(.fetchResults(newDataRate: newContentChance))
        }
        return reasons
    }
}
