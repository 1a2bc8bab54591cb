/// The configuration's durations in the core's units. The configuration speaks seconds, as people
/// set them; learning counts instants in milliseconds and planning steps its clock in whole
/// minutes. Each conversion is written here, once.
extension PredictorConfiguration {
    /// The freshness window in whole minutes of the planner's clock.
    var windowMinutes: Int { Int(freshnessWindow / 60) }
    /// The lead in whole minutes, rounded up: a fetch never starts later than the lead allows.
    var leadMinutes: Int { Int((lead / 60).rounded(.up)) }
    /// The cold-launch gap in whole minutes.
    var coldLaunchGapMinutes: Int { Int(coldLaunchGap / 60) }
    /// The freshness window in milliseconds.
    var windowMilliseconds: Milliseconds { .seconds(freshnessWindow) }
    /// The lead in milliseconds.
    var leadMilliseconds: Milliseconds { .seconds(lead) }
    /// The cold-launch gap in milliseconds.
    var coldLaunchGapMilliseconds: Milliseconds { .seconds(coldLaunchGap) }
    /// The coalescing window in milliseconds.
    var coalescingMilliseconds: Milliseconds { .seconds(coalescingWindow) }
    /// The floor of the `minimum` interval in milliseconds.
    var minimumIntervalMilliseconds: Milliseconds { .seconds(minimumIntervalFloor) }
    /// The silence limit in milliseconds; `nil` when devices are woken however long unused.
    var silenceLimitMilliseconds: Milliseconds? { silenceLimit.map { .seconds($0) } }
}
