import Foundation

/// Turns a ``Persona`` into a usage log: launches, and the results of fetches made every few
/// hours by a plain periodic scheduler, as a phone would have logged them.
///
/// The same persona, start, days, zone and seed always give the same log.
public struct SyntheticLog: Sendable {
    /// The user the log is of.
    public var persona: Persona
    /// The first local day of the log.
    public var start: DateFields
    /// How many days the log covers.
    public var days: Int
    /// The time zone of the persona's wall clock.
    public var timeZone: TimeZone
    /// The seed of the random draws.
    public var seed: UInt64
    /// The period of the logged fetches, in minutes; 0 logs no fetches.
    public var fetchPeriodMinutes: Int
    /// Whether the log holds the device's state (``DeviceRoutine``): power, network, battery,
    /// Low Power Mode.
    public var deviceState: Bool

    /// Creates a value with every field given.
    public init(
        persona: Persona, start: DateFields = DateFields(year: 2024, month: 1, day: 1), days: Int,
        timeZone: TimeZone, seed: UInt64, fetchPeriodMinutes: Int = 180, deviceState: Bool = false
    ) {
        self.deviceState = deviceState
        self.persona = persona
        self.start = start
        self.days = days
        self.timeZone = timeZone
        self.seed = seed
        self.fetchPeriodMinutes = fetchPeriodMinutes
    }

    /// The instant of a wall-clock minute counted from the first day's midnight.
    func instant(dayIndex: Int, minute: Double) -> Milliseconds {
        let firstDay = CivilDate.daysSince1970(year: start.year, month: start.month, day: start.day)
        let wholeMinute = Int(minute.rounded(.down))
        let dayShift = Int((Double(wholeMinute) / 1440).rounded(.down))
        let minuteOfDay = wholeMinute - dayShift * 1440
        let (year, month, day) = CivilDate.fromDays(firstDay + dayIndex + dayShift)
        let seconds = (minute - Double(wholeMinute)) * 60
        let fields = DateFields(
            year: year, month: month, day: day, hour: minuteOfDay / 60, minute: minuteOfDay % 60,
            second: Int(seconds), millisecond: Int((seconds - Double(Int(seconds))) * 1000))
        return fields.instant(in: timeZone).0
    }

    /// The instants at which an app's content changes over the whole log, sorted.
    func publications(_ content: ContentProcess, random: inout SeededGenerator) -> [Milliseconds] {
        var times: [Milliseconds] = []
        switch content {
        case .fixed(let minutes):
            for day in -1...days {
                for minute in minutes { times.append(instant(dayIndex: day, minute: minute)) }
            }
        case .poisson(let perHour):
            return publications(.poissonHourly(Array(repeating: perHour, count: 24)), random: &random)
        case .poissonHourly(let rates):
            for day in -1...days {
                for hour in 0..<24 where rates[hour % rates.count] > 0 {
                    var minute = random.exponential(rate: rates[hour % rates.count] / 60)
                    while minute < 60 {
                        times.append(instant(dayIndex: day, minute: Double(hour * 60) + minute))
                        minute += random.exponential(rate: rates[hour % rates.count] / 60)
                    }
                }
            }
        }
        return times.sorted()
    }

    /// The log's events, sorted by time; timestamps carry the zone's UTC offset.
    public func events() -> [Event] {
        var random = SeededGenerator(seed: seed)
        var events: [Event] = []
        for app in persona.apps {
            // The draws in the order the log has always made them: launches, their durations, fetches.
            let launches = launchTimes(of: app, random: &random)
            for time in launches {
                events.append(
                    Event(kind: .launch, app: app.name, time: time, duration: Double(20 + Int(random.unit() * 280))))
            }
            guard fetchPeriodMinutes > 0 else { continue }
            events += fetches(of: app, launches: launches, random: &random)
        }
        if deviceState { events += stateEvents() }
        events.sort { ($0.time, $0.kind.rawValue, $0.app) < ($1.time, $1.kind.rawValue, $1.app) }
        for index in events.indices {
            events[index].utcOffset = timeZone.secondsFromGMT(for: Date(milliseconds: events[index].time))
        }
        return events
    }

    /// An app's launches over the log, sorted: its habits on the days they hold, now and then a
    /// second look, and its launches at random through the waking hours.
    func launchTimes(of app: Persona.App, random: inout SeededGenerator) -> [Milliseconds] {
        let firstDay = CivilDate.daysSince1970(year: start.year, month: start.month, day: start.day)
        var launches: [Milliseconds] = []
        for day in 0..<days {
            let weekday = CivilDate.weekday(days: firstDay + day)
            let isWeekend = weekday == 1 || weekday == 7
            for habit in app.habits where day >= habit.fromDay && day < habit.untilDay {
                switch habit.days {
                case .weekdays where isWeekend, .weekends where !isWeekend: continue
                default: break
                }
                guard random.unit() < habit.probability else { continue }
                let minute = random.normal(mean: habit.minute, deviation: habit.spread)
                launches.append(instant(dayIndex: day, minute: minute))
                // Now and then a second look a few minutes later, as people do.
                if random.unit() < 0.2 {
                    launches.append(launches.last! + Milliseconds(60_000 + random.unit() * 600_000))
                }
            }
            var extra = random.exponential(rate: 1)
            while extra < app.randomLaunchesPerDay {
                launches.append(instant(dayIndex: day, minute: 8 * 60 + random.unit() * 15 * 60))
                extra += random.exponential(rate: 1)
            }
        }
        return launches.sorted()
    }

    /// The fetches of a plain periodic scheduler for an app, each with the result its content
    /// gives: new data when something was published since the app's last refresh (a launch or
    /// a fetch that did not fail).
    func fetches(of app: Persona.App, launches: [Milliseconds], random: inout SeededGenerator) -> [Event] {
        let published = publications(app.content, random: &random)
        let period = Milliseconds.minutes(fetchPeriodMinutes)
        let begin = instant(dayIndex: 0, minute: 0) + Milliseconds(random.unit() * Double(period))
        let end = instant(dayIndex: days, minute: 0)
        var lastRefresh = begin - period
        var launchIndex = 0
        var fetch = begin
        var events: [Event] = []
        while fetch < end {
            while launchIndex < launches.count, launches[launchIndex] <= fetch {
                lastRefresh = max(lastRefresh, launches[launchIndex])
                launchIndex += 1
            }
            let result: FetchResult
            if random.unit() < app.failureRate {
                result = .failed
            } else {
                result = Self.anyPublished(published, after: lastRefresh, upTo: fetch) ? .newData : .noData
                lastRefresh = fetch
            }
            events.append(
                Event(
                    kind: .fetch, app: app.name, time: fetch, result: result,
                    duration: 1 + (random.unit() * 90).rounded() / 10))
            fetch += period
        }
        return events
    }

    /// Whether any of the sorted instants falls in (after, upTo].
    static func anyPublished(_ sorted: [Milliseconds], after: Milliseconds, upTo: Milliseconds) -> Bool {
        let next = sorted.partitioningIndex { $0 > after }
        return next < sorted.count && sorted[next] <= upTo
    }
}
