import Foundation
import Testing

@testable import FetchPredictorCore

/// The planner's local clock follows the zone's exact transitions, so that the minutes right
/// after a change carry the new offset.
struct DaylightSavingTests {
    /// Spring-forward and fall-back instants in two zones.
    static let changes: [(zone: String, change: Milliseconds)] = [
        ("Europe/Warsaw", 1_711_846_800_000),  // 2024-03-31T01:00:00Z, 02:00 becomes 03:00
        ("Europe/Warsaw", 1_729_990_800_000),  // 2024-10-27T01:00:00Z, 03:00 becomes 02:00
        ("America/New_York", 1_710_054_000_000),  // 2024-03-10T07:00:00Z, 02:00 becomes 03:00
        ("America/New_York", 1_730_613_600_000),  // 2024-11-03T06:00:00Z, 02:00 becomes 01:00
    ]

    /// Given a horizon that starts off the quarter hour before a change, every minute's local
    /// time is the zone's own, the minutes right after the change included.
    @Test(arguments: changes, [1, 7, 13] as [Milliseconds])
    func everyMinuteHasTheZonesOwnLocalTime(change: (zone: String, change: Milliseconds), minutesBefore: Milliseconds) {
        let zone = TimeZone(identifier: change.zone)!
        let start = change.change - (3 * 60 + minutesBefore) * 60_000
        let clock = HorizonClock(start: start, minutes: 6 * 60, zone: zone)
        for index in 0..<clock.count {
            let time = clock.time(index)
            let offset = Milliseconds(zone.secondsFromGMT(for: Date(milliseconds: time))) * 1000
            let (_, millisecond) = CivilDate.split(localMilliseconds: time + offset)
            #expect(
                Int(clock.minuteOfDay[index]) == millisecond / 60_000,
                "\(change.zone) at \(TimestampFormatter.iso(time))")
        }
    }

    /// Given a daily habit in the hour after the change, the day's plan serves it at its local time.
    @Test(arguments: changes)
    func aHabitInTheHourAfterAChangeIsServed(change: (zone: String, change: Milliseconds)) throws {
        let zone = TimeZone(identifier: change.zone)!
        // The local time half an hour after the change, as the habit's time.
        let after = change.change + 30 * 60_000
        let local = after + Milliseconds(zone.secondsFromGMT(for: Date(milliseconds: after))) * 1000
        let minute = Int(CivilDate.split(localMilliseconds: local).millisecond / 60_000)
        let habit = Persona.Habit(
            String(format: "%02d:%02d", minute / 60, minute % 60), spread: 4, probability: 1)
        let persona = Persona(
            name: "early", summary: "",
            apps: [Persona.App("com.example.news", habits: [habit], randomLaunchesPerDay: 0)])
        let day = CivilDate.fromDays(CivilDate.split(localMilliseconds: local).day - 21)
        let predictor = try Learned.predictor(
            persona, days: 21, zone: zone, seed: 1, start: DateFields(year: day.year, month: day.month, day: day.day))
        let from = Date(milliseconds: change.change - (3 * 60 + 7) * 60_000)
        let schedule = try predictor.schedule(from: from, to: from.addingTimeInterval(6 * 3600), device: "phone")
        let served = schedule.wakes.contains { wake in
            let gap = after - wake.time.milliseconds
            return gap >= 60_000 && gap <= 30 * 60_000
        }
        #expect(served, "\(change.zone): wakes \(schedule.wakes.map { TimestampFormatter.iso($0.time.milliseconds) })")
    }
}

/// The importers' fast path from local times to instants agrees with the zone's own answer at
/// every minute around its changes, half-hour changes included.
struct LocalInstantCacheTests {
    @Test(arguments: [
        ("Europe/Warsaw", 2024, 3, 31), ("Europe/Warsaw", 2024, 10, 27), ("Australia/Lord_Howe", 2024, 4, 7),
        ("Australia/Lord_Howe", 2024, 10, 6), ("America/St_Johns", 2024, 3, 10),
    ])
    func everyMinuteResolvesAsTheZoneDoes(zone name: String, year: Int, month: Int, day: Int) throws {
        let zone = try #require(TimeZone(identifier: name))
        var cache = LocalInstantCache(zone: zone)
        let start = CivilDate.daysSince1970(year: year, month: month, day: day) - 1
        for minute in 0..<(3 * 1440) {
            let (y, m, d) = CivilDate.fromDays(start + minute / 1440)
            let fields = DateFields(
                year: y, month: m, day: d, hour: minute % 1440 / 60, minute: minute % 60, second: 17)
            #expect(cache.instant(fields) == fields.instant(in: zone).0, "\(name) \(fields)")
        }
    }

    /// A timer's wall-clock times of a day (the periodic baselines'), read fast on a day with no
    /// change of offset, are the times each one resolves to alone, on every day of 2011 and 2024
    /// in zones with a change of an hour, of half an hour (Lord Howe), none (Kathmandu), a change
    /// of the standard offset (Volgograd, 2020) and a day skipped whole (Apia, 2011-12-30).
    @Test(arguments: [
        "Europe/Warsaw", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
        "Europe/Volgograd", "Pacific/Apia",
    ])
    func aTimersTimesOfADayAreEachTimesOwnInstant(name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let days = [
            CivilDate.daysSince1970(year: 2011, month: 1, day: 1),
            CivilDate.daysSince1970(year: 2020, month: 1, day: 1),
            CivilDate.daysSince1970(year: 2024, month: 1, day: 1),
        ].flatMap { $0..<($0 + 366) }
        for day in days {
            for every in [30, 60, 120] {
                let (y, m, d) = CivilDate.fromDays(day)
                let alone = stride(from: 0, to: 1440, by: every).compactMap { minute -> Milliseconds? in
                    let (time, resolution) = DateFields(
                        year: y, month: m, day: d, hour: minute / 60, minute: minute % 60
                    )
                    .instant(in: zone)
                    return resolution == .skipped ? nil : time
                }
                #expect(DateFields.instants(ofDay: day, every: every, in: zone) == alone, "\(name) \(y)-\(m)-\(d)")
            }
        }
    }
}
