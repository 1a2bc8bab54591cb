import Foundation

extension DateFields {
    /// The instant of this wall-clock time in `zone`, and how it was resolved.
    ///
    /// Times in a daylight-saving gap or overlap are resolved as described in
    /// ``LocalTimeResolution``, never refused: a phone's log does hold them.
    public func instant(in zone: TimeZone) -> (Milliseconds, LocalTimeResolution) {
        let local = millisecondsAsIfUTC
        func offset(at instant: Milliseconds) -> Milliseconds {
            .seconds(zone.secondsFromGMT(for: Date(milliseconds: instant)))
        }
        let day = Milliseconds.perDay
        let candidates = Set([offset(at: local - day), offset(at: local + day), offset(at: local)])
        let valid = candidates.map { local - $0 }.filter { offset(at: $0) == local - $0 }.sorted()
        if valid.count == 1 { return (valid[0], .exact) }
        if let first = valid.first { return (first, .repeated) }
        // In a gap: read with the smaller (earlier) offset.
        return (local - candidates.min()!, .skipped)
    }
}

extension DateFields {
    /// The instants of a local day's wall-clock minutes 0, `every`, 2 × `every`... in a zone,
    /// those in a daylight-saving gap left out: when a timer set to those times fires.
    ///
    /// A day whose offset does not change is read by adding minutes to its midnight: one
    /// question of the zone a day, where resolving each time asks it several.
    static func instants(ofDay day: Int, every minutes: Int, in zone: TimeZone) -> [Milliseconds] {
        let (start, resolution) = midnight(ofDay: day, in: zone)
        let (end, _) = midnight(ofDay: day + 1, in: zone)
        let steady =
            resolution == .exact && end - start == Milliseconds.perDay
            && zone.secondsFromGMT(for: Date(milliseconds: start)) == zone.secondsFromGMT(for: Date(milliseconds: end))
            && (zone.nextDaylightSavingTimeTransition(after: Date(milliseconds: start)).map { $0.milliseconds >= end }
                ?? true)
        if steady {
            return stride(from: 0, to: DayMinute.perDay, by: minutes).map { start + .minutes($0) }
        }
        let (year, month, dayOfMonth) = CivilDate.fromDays(day)
        return stride(from: 0, to: DayMinute.perDay, by: minutes).compactMap { minute in
            let fields = DateFields(
                year: year, month: month, day: dayOfMonth, hour: minute / DayMinute.perHour,
                minute: minute % DayMinute.perHour)
            let (time, resolution) = fields.instant(in: zone)
            return resolution == .skipped ? nil : time
        }
    }

    /// The first instant of a local day (days since 1970-01-01) in a zone, and how its 00:00
    /// resolved (``instant(in:)``'s rules).
    static func midnight(ofDay day: Int, in zone: TimeZone) -> (Milliseconds, LocalTimeResolution) {
        let (year, month, dayOfMonth) = CivilDate.fromDays(day)
        return DateFields(year: year, month: month, day: dayOfMonth).instant(in: zone)
    }
}
