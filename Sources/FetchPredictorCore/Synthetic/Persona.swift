/// A synthetic user: the apps they open, around which times, on which days, and how each app's
/// content changes. The generator turns a persona into a usage log.
///
/// The built-in personas (``all``) cover the habits a predictor must handle: regular weekday
/// peaks, late nights, no pattern at all, and a habit that moves.
public struct Persona: Sendable, Hashable {
    /// A time of day around which an app gets opened.
    public struct Habit: Sendable, Hashable {
        /// Minutes after local midnight.
        public var minute: Double
        /// Standard deviation of the launch time, in minutes.
        public var spread: Double
        /// Probability that the launch happens on a day the habit applies to.
        public var probability: Double
        /// Which days the habit applies to.
        public var days: Days
        /// The habit holds from this day of the log (counting from 0) ...
        public var fromDay: Int
        /// ... up to, not including, this day.
        public var untilDay: Int

        /// Creates a value with every field given.
        public init(
            _ time: String, spread: Double = 10, probability: Double = 0.9, days: Days = .all,
            fromDay: Int = 0, untilDay: Int = .max
        ) {
            let parts = time.split(separator: ":").compactMap { Double($0) }
            minute = parts[0] * 60 + (parts.count > 1 ? parts[1] : 0)
            self.spread = spread
            self.probability = probability
            self.days = days
            self.fromDay = fromDay
            self.untilDay = untilDay
        }
    }

    /// Days of the week a habit applies to.
    public enum Days: String, Sendable, Hashable {
        case all, weekdays, weekends
    }

    /// One app of the persona.
    public struct App: Sendable, Hashable {
        /// The app's name, as logs write it.
        public var name: String
        /// The times of day the app gets opened.
        public var habits: [Habit]
        /// Extra launches at random waking hours, per day.
        public var randomLaunchesPerDay: Double
        /// How the app's content changes, which decides its fetch results.
        public var content: ContentProcess
        /// Probability that a fetch fails.
        public var failureRate: Double

        /// Creates a value with every field given.
        public init(
            _ name: String, habits: [Habit], randomLaunchesPerDay: Double = 0.3,
            content: ContentProcess = .poisson(perHour: 1), failureRate: Double = 0.02
        ) {
            self.name = name
            self.habits = habits
            self.randomLaunchesPerDay = randomLaunchesPerDay
            self.content = content
            self.failureRate = failureRate
        }
    }

    /// The persona's name, as ``Persona/named(_:)`` takes it.
    public var name: String
    /// One line on the persona's habits.
    public var summary: String
    /// The persona's apps.
    public var apps: [App]
    /// How the persona's phone lives through the day: its charger, networks and battery.
    public var routine: DeviceRoutine

    /// Creates a value with every field given.
    public init(name: String, summary: String, apps: [App], routine: DeviceRoutine = .office) {
        self.name = name
        self.summary = summary
        self.apps = apps
        self.routine = routine
    }

    /// The personas `fetchpredict generate` knows, by name.
    public static let all: [Persona] = [.commuter, .nightOwl, .irregular, .shifting]

    /// The persona with that name, if any.
    public static func named(_ name: String) -> Persona? {
        all.first { $0.name == name }
    }

    /// Weekday peaks around a commute and lunch; later, sparser weekends.
    public static let commuter = Persona(
        name: "commuter",
        summary: "weekday peaks at 07:30, 12:30 and 18:00 around a commute; later, sparser weekends",
        apps: [
            App(
                "com.example.news",
                habits: [
                    Habit("07:30", spread: 8, days: .weekdays),
                    Habit("12:30", spread: 10, probability: 0.7, days: .weekdays),
                    Habit("10:00", spread: 30, probability: 0.7, days: .weekends),
                ], content: .fixed(minutes: [6 * 60, 12 * 60, 18 * 60])),
            App(
                "com.example.mail",
                habits: [
                    Habit("08:45", spread: 10, days: .weekdays),
                    Habit("17:30", spread: 12, probability: 0.8, days: .weekdays),
                ],
                content: .poisson(perHour: 0.5)),
            App(
                "com.example.chat",
                habits: [
                    Habit("07:45", spread: 10, days: .weekdays), Habit("12:40", spread: 10, days: .weekdays),
                    Habit("18:00", spread: 15, days: .weekdays), Habit("21:30", spread: 20),
                    Habit("11:00", spread: 40, days: .weekends),
                ], randomLaunchesPerDay: 1, content: .poisson(perHour: 2)),
            App(
                "com.example.podcasts",
                habits: [
                    Habit("07:35", spread: 6, probability: 0.8, days: .weekdays),
                    Habit("17:40", spread: 8, probability: 0.8, days: .weekdays),
                ],
                randomLaunchesPerDay: 0.1, content: .fixed(minutes: [5 * 60])),
        ])

    /// Late evenings and nights, with peaks that straddle midnight.
    public static let nightOwl = Persona(
        name: "night-owl",
        summary: "late peaks at 22:45, 23:55 and 01:30 that straddle midnight; a lunch check at 13:00",
        apps: [
            App(
                "com.example.social",
                habits: [Habit("22:45", spread: 15), Habit("01:30", spread: 20, probability: 0.8)],
                randomLaunchesPerDay: 0.5, content: .poisson(perHour: 3)),
            App(
                "com.example.video", habits: [Habit("23:55", spread: 12, probability: 0.85)],
                content: .fixed(minutes: [20 * 60])),
            App(
                "com.example.chat", habits: [Habit("13:00", spread: 15), Habit("00:20", spread: 15)],
                randomLaunchesPerDay: 1, content: .poisson(perHour: 1.5)),
        ],
        // On the charger from 02:30 to 10:30, at home; out in the afternoon now and then.
        routine: DeviceRoutine(plugged: 26.5 * 60, unplugged: 10.5 * 60, outing: 15 * 60...19 * 60, outingChance: 0.6))

    /// No pattern: launches at random through the waking day.
    public static let irregular = Persona(
        name: "irregular",
        summary: "no daily pattern: launches at random between 08:00 and 23:00",
        apps: [
            App("com.example.news", habits: [], randomLaunchesPerDay: 3, content: .poisson(perHour: 1)),
            App("com.example.chat", habits: [], randomLaunchesPerDay: 5, content: .poisson(perHour: 2)),
            App("com.example.shop", habits: [], randomLaunchesPerDay: 1, content: .poisson(perHour: 0.2)),
        ],
        // No set hours: on the charger around 00:30 to 08:30, give or take an hour; out at random.
        routine: DeviceRoutine(
            plugged: 24.5 * 60, unplugged: 8.5 * 60, spread: 60, missedNightChance: 0.25,
            outing: 10 * 60...17 * 60, outingChance: 0.7))

    /// A habit that moves after two weeks: the morning check shifts from 07:00 to 09:30, the
    /// evening one from 21:00 to 23:00.
    public static let shifting = Persona(
        name: "shifting",
        summary: "habits that move after two weeks: 07:00 becomes 09:30 and 21:00 becomes 23:00",
        apps: [
            App(
                "com.example.news",
                habits: [Habit("07:00", spread: 8, untilDay: 14), Habit("09:30", spread: 8, fromDay: 14)],
                content: .fixed(minutes: [6 * 60, 18 * 60])),
            App(
                "com.example.social",
                habits: [Habit("21:00", spread: 10, untilDay: 14), Habit("23:00", spread: 10, fromDay: 14)],
                randomLaunchesPerDay: 0.5, content: .poisson(perHour: 2)),
        ])
}

/// How an app's content changes over a day, in the device's local time.
public enum ContentProcess: Sendable, Hashable {
    /// New content at fixed times of day, in minutes after midnight.
    case fixed(minutes: [Double])
    /// New content at random, at this rate per hour all day.
    case poisson(perHour: Double)
    /// New content at random, at a rate per hour for each of the 24 hours.
    case poissonHourly([Double])
}
