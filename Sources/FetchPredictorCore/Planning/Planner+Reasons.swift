import Foundation

extension Planner {
    /// A wake's new-content chance below which it is named as a reason.
    static let newContentReasonBelow = 0.9
    /// A failure rate at the wake's hour from which it is named as a reason.
    static let failuresReasonFrom = 0.1

    /// Why a wake at a minute of the horizon was chosen, each reason true of it: the habits that
    /// peak between its lead and the end of its window; and the parts of its expected launches,
    /// those it serves to the end of its window past `servedBefore` (what the app's wake before
    /// serves): use at this time of day and the
    /// app's return after its last launch, each named when it expects any, so that they add up to
    /// the wake's expected launches; what fetch results say of new content and of failures.
    func reasons(
        at index: Int, servedBefore: Int, newContentChance: Double, expected: ExpectedLaunches, model: AppModel,
        habits: DayProfiles
    ) -> [WakeReason] {
        let span = Self.servedSpan(
            at: index, servedBefore: servedBefore, minutes: expected.usual.count, configuration)
        let parts = (usual: Self.sum(expected.usual, over: span), returning: Self.sum(expected.returning, over: span))
        return peakReasons(at: index, habits: habits)
            + partReasons(parts, at: index, lastLaunch: model.lastLaunch)
            + fetchReasons(at: index, newContentChance: newContentChance, model: model)
    }

    /// The minutes whose launches a wake at `index` serves, as the sweep counts them: from its
    /// lead, or after `servedBefore` (the last minute the app's wake before serves), to the end of
    /// its window, within the `minutes` a plan's rates reach; `nil` when there are none.
    static func servedSpan(
        at index: Int, servedBefore: Int, minutes: Int, _ configuration: PredictorConfiguration
    ) -> ClosedRange<Int>? {
        let first = max(index + configuration.leadMinutes, servedBefore + 1)
        let last = min(index + configuration.windowMinutes, minutes - 1)
        return first <= last ? first...last : nil
    }

    /// The sum of per-minute values over a span of minutes (those it has).
    static func sum(_ values: [Double], over span: ClosedRange<Int>?) -> Double {
        guard let span else { return 0 }
        var sum = 0.0
        for minute in span where minute < values.count { sum += values[minute] }
        return sum
    }

    /// The reasons that name a wake's expected launches: the return after the last launch, then
    /// use at this time of day, each when it expects any.
    func partReasons(_ parts: (usual: Double, returning: Double), at index: Int, lastLaunch: Milliseconds?)
        -> [WakeReason]
    {
        var reasons: [WakeReason] = []
        if let lastLaunch, parts.returning > 0 {
            reasons.append(
                .returning(
                    minutesSinceLastLaunch: clock.time(index).minutes(since: lastLaunch),
                    expectedLaunches: parts.returning))
        }
        if parts.usual > 0 { reasons.append(.usualTime(expectedLaunches: parts.usual)) }
        return reasons
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
