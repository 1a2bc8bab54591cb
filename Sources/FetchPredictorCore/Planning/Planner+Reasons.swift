import Foundation

extension Planner {
    /// A wake's new-content chance below which it is named as a reason.
    static let newContentReasonBelow = 0.9
    /// A failure rate at the wake's hour from which it is named as a reason.
    static let failuresReasonFrom = 0.1

    /// Why a wake at a minute of the horizon was chosen, each reason true of it: the habits that
    /// peak between its lead and the end of its window; use at this time of day; the app's return
    /// after its last launch; what fetch results say of new content and of failures.
    func reasons(
        at index: Int, newContentChance: Double, expected: ExpectedLaunches, model: AppModel, habits: DayProfiles
    ) -> [WakeReason] {
        let window = configuration.windowMinutes
        let lead = configuration.leadMinutes
        let span = (index + lead)...min(index + window, expected.usual.count - 1)
        let usual = span.reduce(0) { $0 + expected.usual[$1] }
        let returning = span.reduce(0) { $0 + expected.returning[$1] }
        var reasons = peakReasons(at: index, habits: habits)
        let total = usual + returning
        if let last = model.lastLaunch, returning > 0,
            returning >= Self.namedShare * total || reasons.isEmpty && returning >= usual
        {
            reasons.append(
                .returning(
                    minutesSinceLastLaunch: clock.time(index).minutes(since: last), expectedLaunches: returning))
        }
        if reasons.isEmpty
            || !reasons.contains(where: { if case .peak = $0 { true } else { false } })
                && usual >= Self.namedShare * total && usual > 0
        {
            reasons.append(.usualTime(expectedLaunches: usual))
        }
        return reasons + fetchReasons(at: index, newContentChance: newContentChance, model: model)
    }

    /// The habits that peak between a wake's lead and the end of its window.
    func peakReasons(at index: Int, habits: DayProfiles) -> [WakeReason] {
        let window = configuration.windowMinutes
        let lead = configuration.leadMinutes
        let wakeMinute = Int(clock.minuteOfDay[index])
        let profile = clock.weekend[min(index + window / 2, clock.count - 1)] ? habits.weekend : habits.weekday
        return profile.peaks.compactMap { peak in
            let ahead = DayMinute.ahead(from: wakeMinute, to: peak.minute)
            guard ahead >= lead && ahead <= window, peak.confidence > 0 else { return nil }
            return .peak(minute: peak.minute, spreadMinutes: peak.spreadMinutes, confidence: peak.confidence)
        }
    }

    /// What fetch results say of a wake: new content that may not wait, fetches that fail at its hour.
    func fetchReasons(at index: Int, newContentChance: Double, model: AppModel) -> [WakeReason] {
        guard configuration.usesFetchResults, model.fetchWeight > 0 else { return [] }
        var reasons: [WakeReason] = []
        if newContentChance < Self.newContentReasonBelow { reasons.append(.newContent(chance: newContentChance)) }
        let failureRate = model.failureRate(hour: Int(clock.minuteOfDay[index]) / DayMinute.perHour)
        if failureRate >= Self.failuresReasonFrom { reasons.append(.failures(rate: failureRate)) }
        return reasons
    }
}
