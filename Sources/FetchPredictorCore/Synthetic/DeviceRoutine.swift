import Foundation

/// How a synthetic user's phone lives through the day: on its charger at night (some nights
/// forgotten), on Wi-Fi at home and at work and on the cellular network between, its battery
/// draining while unplugged, and Low Power Mode on some evenings. ``SyntheticLog`` turns it into
/// the device's state events when asked for them.
public struct DeviceRoutine: Sendable, Hashable {
    /// Minutes after local midnight at which the phone goes on its charger at night (past
    /// midnight is more than 1440)...
    public var plugged: Double
    /// ...and comes off it in the morning.
    public var unplugged: Double
    /// The standard deviation of both, in minutes.
    public var spread: Double
    /// The chance that a night's charge is forgotten: the phone is charged an hour the next
    /// morning instead.
    public var missedNightChance: Double
    /// On weekdays, the minutes the person leaves home and comes back; `nil` for one who stays
    /// home. The way there and back (45 minutes each) is on the cellular network.
    public var work: ClosedRange<Double>?
    /// Whether the workplace has Wi-Fi the phone uses.
    public var workWiFi: Bool
    /// On days at home, an outing on the cellular network, in minutes after midnight.
    public var outing: ClosedRange<Double>
    /// The chance of an outing on a day at home.
    public var outingChance: Double
    /// Percent of the battery an hour off the charger, on average.
    public var drainPerHour: Double
    /// The chance that the person turns Low Power Mode on in an evening (from 20:00) whatever
    /// the battery; under 20% it is turned on with twice that chance.
    public var lowPowerEveningChance: Double

    /// Creates a value with every field given.
    public init(
        plugged: Double, unplugged: Double, spread: Double = 20, missedNightChance: Double = 0.15,
        work: ClosedRange<Double>? = nil, workWiFi: Bool = true, outing: ClosedRange<Double> = 14 * 60...16 * 60,
        outingChance: Double = 0.5, drainPerHour: Double = 4, lowPowerEveningChance: Double = 0.15
    ) {
        self.plugged = plugged
        self.unplugged = unplugged
        self.spread = spread
        self.missedNightChance = missedNightChance
        self.work = work
        self.workWiFi = workWiFi
        self.outing = outing
        self.outingChance = outingChance
        self.drainPerHour = drainPerHour
        self.lowPowerEveningChance = lowPowerEveningChance
    }

    /// A day in an office: on the charger from 23:00 to 07:00, out from 08:00 to 18:00.
    public static let office = DeviceRoutine(plugged: 23 * 60, unplugged: 7 * 60, work: 8 * 60...18 * 60)
}

extension SyntheticLog {
    /// The device's state events over the log, from the persona's ``DeviceRoutine``: power
    /// connected and disconnected, the network, the battery level every hour off the charger and
    /// at each change of power, and Low Power Mode on and off. Drawn from their own seed, so
    /// that the launches of a log with state are those of the log without.
    func stateEvents() -> [Event] {
        var diary = StateDiary(log: self, random: SeededGenerator(seed: seed ^ 0x5354_4154_4520_4556))  // "STATE EV"
        let firstDay = CivilDate.daysSince1970(year: start.year, month: start.month, day: start.day)
        var unplugAt = diary.routine.unplugged + diary.random.normal(deviation: diary.routine.spread / 2)
        diary.append(.network(.unmetered, at: 0), day: 0, minute: 0)
        diary.append(.state(.powerConnected, at: 0), day: 0, minute: 0)
        for day in 0..<days {
            let weekday = CivilDate.weekday(days: firstDay + day)
            // Off the charger in the morning, full unless the night was missed.
            diary.append(.state(.powerDisconnected, at: 0), day: day, minute: unplugAt)
            diary.battery(unplugAt + 0.5, day: day)
            diary.goOut(day: day, isWeekend: weekday == 1 || weekday == 7)
            unplugAt = diary.night(day: day, offFrom: unplugAt)
        }
        let end = instant(dayIndex: days, minute: 0)
        return diary.events.filter { $0.time < end }
    }
}

/// The state events of a synthetic log as they are drawn, day by day, with the battery's level
/// and Low Power Mode between them. The order of the draws is the log's: a change in it changes
/// every log with state.
private struct StateDiary {
    let log: SyntheticLog
    var random: SeededGenerator
    var events: [Event] = []
    var level = 100.0
    var lowPowerOn = false

    var routine: DeviceRoutine { log.persona.routine }

    /// Adds an event at a minute of a day of the log (its own time is replaced).
    mutating func append(_ event: Event, day: Int, minute: Double) {
        var event = event
        event.time = log.instant(dayIndex: day, minute: minute)
        events.append(event)
    }

    /// Reads the battery's level at a minute of a day.
    mutating func battery(_ minute: Double, day: Int) {
        append(.battery(Int(level.rounded()), at: 0), day: day, minute: minute)
    }

    /// Out and back: to work and home on a weekday of a person who works, else now and then an
    /// outing; the network changes on the way.
    mutating func goOut(day: Int, isWeekend: Bool) {
        var changes: [(minute: Double, state: NetworkState)] = []
        if let work = routine.work, !isWeekend {
            let leave = work.lowerBound + random.normal(deviation: 10)
            let back = work.upperBound + random.normal(deviation: 15)
            changes = [
                (leave, .metered), (leave + 45, routine.workWiFi ? .unmetered : .metered),
                (back - 45, .metered), (back, .unmetered),
            ]
        } else if random.unit() < routine.outingChance {
            let from = routine.outing.lowerBound + random.normal(deviation: 30)
            let to = max(from + 30, routine.outing.upperBound + random.normal(deviation: 30))
            changes = [(from, .metered), (to, .unmetered)]
        }
        for change in changes { append(.network(change.state, at: 0), day: day, minute: change.minute) }
    }

    /// On the charger at night, or a night missed and an hour's charge in the morning, after the
    /// phone came off it at `offFrom`. Returns the next unplug, in minutes of the next day.
    mutating func night(day: Int, offFrom: Double) -> Double {
        let plugAt = routine.plugged + random.normal(deviation: routine.spread)
        let nextUnplug = 1440 + routine.unplugged + random.normal(deviation: routine.spread / 2)
        if random.unit() < routine.missedNightChance {
            drain(from: offFrom, to: nextUnplug, day: day)
            charge(at: nextUnplug, day: day)
            level = min(100, level + 50)
            return nextUnplug + 60 - 1440
        }
        drain(from: offFrom, to: plugAt, day: day)
        charge(at: plugAt, day: day)
        level = 100
        return nextUnplug - 1440
    }

    /// On the charger at a minute: the battery read, and Low Power Mode off if it was on.
    mutating func charge(at minute: Double, day: Int) {
        append(.state(.powerConnected, at: 0), day: day, minute: minute)
        battery(minute + 0.5, day: day)
        if lowPowerOn {
            lowPowerOn = false
            append(.state(.lowPowerOff, at: 0), day: day, minute: minute + 1)
        }
    }

    /// Off the charger from `from` to `to` (minutes of day `day`): the battery drains, read every
    /// hour; Low Power Mode may come on in the evening.
    mutating func drain(from: Double, to: Double, day: Int) {
        let drain = routine.drainPerHour * (0.7 + 0.6 * random.unit())
        let eveningChoice = random.unit()
        var minute = from
        while minute < to {
            let next = min(to, (minute / 60).rounded(.down) * 60 + 60)
            level = max(1, level - drain * (next - minute) / 60)
            if next < to { battery(next, day: day) }
            let evening = next >= 20 * 60
            if evening, !lowPowerOn,
                eveningChoice < routine.lowPowerEveningChance * (level < Double(AppConstraints.lowBattery) ? 2 : 1)
            {
                lowPowerOn = true
                append(.state(.lowPowerOn, at: 0), day: day, minute: next + 1)
            }
            minute = next
        }
    }
}
