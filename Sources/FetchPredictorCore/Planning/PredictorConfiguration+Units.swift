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
    var windowMilliseconds: Milliseconds { Milliseconds(freshnessWindow * 1000) }
    /// The lead in milliseconds.
    var leadMilliseconds: Milliseconds { Milliseconds(lead * 1000) }
    /// The cold-launch gap in milliseconds.
    var coldLaunchGapMilliseconds: Milliseconds { Milliseconds(coldLaunchGap * 1000) }
    /// The coalescing window in milliseconds.
    var coalescingMilliseconds: Milliseconds { Milliseconds(coalescingWindow * 1000) }
    /// The floor of the `minimum` interval in milliseconds.
    var minimumIntervalMilliseconds: Milliseconds { Milliseconds(minimumIntervalFloor * 1000) }
}
