import Foundation
import Testing

@testable import FetchPredictorCore

/// The habits `peaks` reports are the habits in the data: checked on synthetic users whose
/// habits are known, random ones included, over seeds and zones.
struct HabitTests {
    static let zones = ["UTC", "Europe/Warsaw", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]

    /// A user of three apps, each with one to three habits at least three hours apart, spreads
    /// of 4 to 20 minutes, probabilities of 0.7 to 1, every day or weekdays only, and a few
    /// launches at random besides.
    static func randomPersona(seed: UInt64) -> Persona {
        var random = SeededGenerator(seed: seed &* 7919 &+ 13)
        let apps = (0..<3).map { index -> Persona.App in
            let count = 1 + Int(random.next() % 3)
            var minutes: [Double] = []
            while minutes.count < count {
                let minute = 360 + random.unit() * 1020  // 06:00 to 23:00
                if minutes.allSatisfy({ abs($0 - minute) >= 180 }) { minutes.append(minute) }
            }
            let days: Persona.Days = random.unit() < 0.5 ? .all : .weekdays
            let habits = minutes.map { minute in
                var habit = Persona.Habit(
                    "00:00", spread: 4 + random.unit() * 16, probability: 0.7 + random.unit() * 0.3, days: days)
                habit.minute = minute.rounded()
                return habit
            }
            return Persona.App("com.example.app\(index)", habits: habits, randomLaunchesPerDay: 0.3)
        }
        return Persona(name: "random-\(seed)", summary: "random habits", apps: apps)
    }

    /// What the data hold of one habit: its cold launches within 15 minutes or 2.5 spreads of
    /// its time, on the days of the profile's kind, weighted as the habits' decay weighs them,
    /// over the days counted since the app's first day.
    static func launchesPerDayInTheData(
        _ events: [Event], app: String, habit: Persona.Habit, kind: DayKind, zone: TimeZone,
        decay: Double = PredictorConfiguration().habitDecay
    ) -> Double {
        let model = DeviceModel(timeZone: zone)
        let launches = events.filter { $0.kind == .launch && $0.app == app }
        let lastDay = model.local(events.last!.time, utcOffset: nil).day
        let firstDay = model.local(launches.first!.time, utcOffset: nil).day
        func counted(_ day: Int) -> Bool {
            kind == .all || (kind == .weekend) == DeviceModel.isWeekend(day: day)
        }
        var weight = 0.0
        var previous: Milliseconds?
        for launch in launches {
            defer { previous = launch.time }
            guard previous.map({ launch.time - $0 >= 30 * 60_000 }) ?? true else { continue }
            let (day, minute) = model.local(launch.time, utcOffset: nil)
            guard counted(day),
                DayMinute.distance(minute, Int(habit.minute)) <= max(15, Int(2.5 * habit.spread))
            else { continue }
            weight += pow(decay, Double(lastDay - day))
        }
        let days = (firstDay...lastDay).filter(counted).reduce(0) { $0 + pow(decay, Double(lastDay - $1)) }
        return weight / days
    }

    /// The habits that apply to a profile of a kind of day.
    static func habits(_ app: Persona.App, for kind: DayKind) -> [Persona.Habit] {
        app.habits.filter { habit in
            switch (kind, habit.days) {
            case (.all, _), (.weekday, .all), (.weekday, .weekdays), (.weekend, .all), (.weekend, .weekends): true
            default: false
            }
        }
    }

    /// Given four weeks of a user with known habits, each habit is one peak within 10 minutes,
    /// its spread within half to twice the true one, its launches a day within 20% of the data's,
    /// and there is no peak where there is no habit.
    @Test(arguments: zones, [1, 2, 3, 4] as [UInt64])
    func peaksAreTheHabitsInTheData(zoneName: String, seed: UInt64) throws {
        let zone = TimeZone(identifier: zoneName)!
        let persona = Self.randomPersona(seed: seed)
        let log = SyntheticLog(persona: persona, days: 28, timeZone: zone, seed: seed, fetchPeriodMinutes: 0)
        let events = log.events()
        var predictor = Predictor()
        predictor.setTimeZone(zone, device: "phone")
        for event in events { try predictor.observe(event, device: "phone") }
        for app in persona.apps {
            let weekday = predictor.profile(app: app.name, device: "phone", days: .weekday)
            let profiles =
                weekday.days == .all
                ? [weekday] : [weekday, predictor.profile(app: app.name, device: "phone", days: .weekend)]
            for profile in profiles {
                let label = "\(app.name) \(profile.days) \(profile.peaks.map(\.timeText))"
                let habits = Self.habits(app, for: profile.days)
                for habit in habits {
                    let peak = try #require(
                        profile.peaks.min {
                            DayMinute.distance($0.minute, Int(habit.minute))
                                < DayMinute.distance($1.minute, Int(habit.minute))
                        }, "\(label): no peak")
                    #expect(
                        DayMinute.distance(peak.minute, Int(habit.minute)) <= 10,
                        "\(label): habit at \(Int(habit.minute)), peak at \(peak.minute)")
                    #expect(
                        peak.spreadMinutes >= habit.spread / 2 && peak.spreadMinutes <= habit.spread * 2,
                        "\(label): spread \(peak.spreadMinutes) for \(habit.spread)")
                    let truth = Self.launchesPerDayInTheData(
                        events, app: app.name, habit: habit, kind: profile.days, zone: zone)
                    #expect(
                        abs(peak.launchesPerDay - truth) <= 0.2 * truth,
                        "\(label): \(peak.launchesPerDay) a day where the data have \(truth)")
                    #expect(peak.confidence > 0.9, "\(label): confidence \(peak.confidence)")
                }
                for peak in profile.peaks {
                    #expect(
                        habits.contains { DayMinute.distance(peak.minute, Int($0.minute)) <= 30 },
                        "\(label): a peak at \(peak.timeText) where there is no habit")
                }
            }
        }
    }

    /// Given a user with no habit at all, there is no peak.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func noHabitNoPeak(seed: UInt64) throws {
        let predictor = try Learned.predictor(.irregular, days: 28, zone: TimeZone(identifier: "UTC")!, seed: seed)
        for app in Persona.irregular.apps {
            for kind in [DayKind.weekday, .weekend] {
                let peaks = predictor.profile(app: app.name, device: "phone", days: kind).peaks
                #expect(peaks.isEmpty, "\(app.name): \(peaks.map(\.timeText))")
            }
        }
    }

    /// The example of the issue: a news app at 07:40 ±6, 12:20 ±8 and 21:50 ±8 on 90% of
    /// weekdays is three peaks, 2.7 cold launches a weekday, each peak with a spread and a
    /// confidence.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func threeWeekdayHabitsAreThreePeaks(seed: UInt64) throws {
        let news = Persona.App(
            "com.example.news",
            habits: [
                Persona.Habit("07:40", spread: 6, days: .weekdays), Persona.Habit("12:20", spread: 8, days: .weekdays),
                Persona.Habit("21:50", spread: 8, days: .weekdays),
            ], randomLaunchesPerDay: 0)
        let persona = Persona(name: "news", summary: "", apps: [news])
        let predictor = try Learned.predictor(
            persona, days: 28, zone: TimeZone(identifier: "Europe/Warsaw")!, seed: seed)
        let weekday = predictor.profile(app: "com.example.news", device: "phone", days: .weekday)
        #expect(weekday.days == .weekday)
        #expect(weekday.peaks.map(\.timeText).count == 3, "\(weekday.peaks.map(\.timeText))")
        #expect(abs(weekday.launchesPerDay - 2.7) <= 0.4, "\(weekday.launchesPerDay)")
        for peak in weekday.peaks {
            #expect(peak.spreadMinutes >= 3 && peak.spreadMinutes <= 16)
            #expect(peak.confidence > 0.9)
        }
    }

    /// An app launched twice on one day, two years before now, has no usual week: its state says
    /// so rather than "usually 10" (issue 25); an app used for weeks says its usual week.
    @Test func aUsualWeekNeedsAWeekOfUse() throws {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let start = Learned.instant(zone, 2022, 1, 3, 9).milliseconds
        let day: Milliseconds = 86_400_000
        var predictor = Predictor()
        predictor.setTimeZone(zone, device: "phone")
        // Given one app opened twice on one morning and another opened at 09:00 every day for 3 weeks
        try predictor.observe(.launch("once", at: start), device: "phone")
        try predictor.observe(.launch("once", at: start + 3_600_000), device: "phone")
        for offset in 0..<21 {
            try predictor.observe(.launch("daily", at: start + Milliseconds(offset) * day), device: "phone")
        }
        // When their states are read two years later
        let now = Date(milliseconds: start + 730 * day)
        let once = predictor.state(app: "once", device: "phone", now: now)
        let daily = predictor.state(app: "daily", device: "phone", now: now)
        // Then the first has no usual week, and says why; the second has one, 7 launches
        #expect(once.usualLastWeek == nil)
        #expect(once.launchSpanDays == 1)
        let said = once.description(now: now, zone: zone)
        #expect(!said.contains("usually"), "\(said)")
        #expect(said.contains("too few days of use to say what is usual (launched over 1 day)"), "\(said)")
        #expect(daily.launchSpanDays == 21)
        let usual = try #require(daily.usualLastWeek)
        #expect(abs(usual - 7) < 0.5, "\(usual)")
        // An app fetched for ten days and opened on the last: its use spans one day, not eleven.
        predictor.setTimeZone(zone, device: "tablet")
        for offset in 0..<10 {
            try predictor.observe(
                .fetch("fetched", at: start + Milliseconds(offset) * day, result: .newData), device: "tablet")
        }
        try predictor.observe(.launch("fetched", at: start + 10 * day), device: "tablet")
        let fetched = predictor.state(app: "fetched", device: "tablet", now: Date(milliseconds: start + 10 * day))
        #expect(fetched.launchSpanDays == 1)
        #expect(fetched.usualLastWeek == nil)
    }
}
