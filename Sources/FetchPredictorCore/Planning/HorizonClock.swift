import Foundation

/// The local calendar of a planning horizon, minute by minute, shared by every app of a device:
/// each minute's local time from the zone's offset, which changes at its exact transitions.
struct HorizonClock {
    /// The first minute of the horizon.
    let start: Milliseconds
    /// Minutes in the horizon.
    let count: Int
    /// For each minute: its minute of the local day, and whether its local day is a weekend.
    let minuteOfDay: [Int16]
    let weekend: [Bool]
    let localDay: [Int32]
    /// For each minute: the zone's offset from UTC, in seconds.
    let utcOffset: [Int32]

    init(start: Milliseconds, minutes: Int, zone: TimeZone) {
        self.start = start
        count = minutes
        var minuteOfDay = [Int16](repeating: 0, count: minutes)
        var weekend = [Bool](repeating: false, count: minutes)
        var localDay = [Int32](repeating: 0, count: minutes)
        var utcOffset = [Int32](repeating: 0, count: minutes)
        // The offset changes only at the zone's transitions: take each at its exact instant.
        var offset = zone.secondsFromGMT(for: Date(milliseconds: start))
        var change = zone.nextDaylightSavingTimeTransition(after: Date(milliseconds: start))?.milliseconds
        for index in 0..<minutes {
            let time = start + .minutes(index)
            while let next = change, time >= next {
                offset = zone.secondsFromGMT(for: Date(milliseconds: next))
                change = zone.nextDaylightSavingTimeTransition(after: Date(milliseconds: next))?.milliseconds
            }
            let (day, millisecond) = CivilDate.split(localMilliseconds: time + .seconds(offset))
            minuteOfDay[index] = Int16(millisecond / Int(Milliseconds.perMinute))
            weekend[index] = DeviceModel.isWeekend(day: day)
            localDay[index] = Int32(day)
            utcOffset[index] = Int32(offset)
        }
        self.minuteOfDay = minuteOfDay
        self.weekend = weekend
        self.localDay = localDay
        self.utcOffset = utcOffset
    }

    @inline(__always) func time(_ index: Int) -> Milliseconds { start + .minutes(index) }
}

extension HorizonClock {
    /// The minutes a clock runs past the minutes planned on it: the freshness window that the
    /// last wakes' rates read, and two more.
    static func margin(_ configuration: PredictorConfiguration) -> Int {
        configuration.windowMinutes + 2
    }

    /// The clock of a plan of `minutes` minutes from `start`, in a device's zone, with the
    /// margin past them that planning reads: the one way every plan's horizon is laid.
    static func forPlanning(
        from start: Milliseconds, minutes: Int, configuration: PredictorConfiguration, zone: TimeZone
    ) -> HorizonClock {
        HorizonClock(start: start, minutes: minutes + margin(configuration), zone: zone)
    }

    /// The minutes planned on a clock laid by ``forPlanning(from:minutes:configuration:zone:)``.
    func planMinutes(_ configuration: PredictorConfiguration) -> Int {
        count - Self.margin(configuration)
    }
}
