import Foundation

/// What the device's state must be for an app to be woken, as `BGProcessingTask` and Android's
/// WorkManager let an app ask: on external power, on an unmetered network, with a battery that
/// is not low. An app with none is woken as ever.
public struct AppConstraints: Sendable, Hashable, Codable {
    /// Woken only on external power (`requiresExternalPower`, `setRequiresCharging`).
    public var requiresPower: Bool
    /// Woken only on an unmetered network (`setRequiredNetworkType(UNMETERED)`).
    public var requiresUnmetered: Bool
    /// Woken only when the battery is not low: at ``lowBattery`` percent or more, or charging
    /// (`setRequiresBatteryNotLow`).
    public var requiresBatteryNotLow: Bool

    /// Creates a value with every field given; by default, no constraint.
    public init(requiresPower: Bool = false, requiresUnmetered: Bool = false, requiresBatteryNotLow: Bool = false) {
        self.requiresPower = requiresPower
        self.requiresUnmetered = requiresUnmetered
        self.requiresBatteryNotLow = requiresBatteryNotLow
    }

    /// Whether the app asks for nothing.
    public var isEmpty: Bool { !requiresPower && !requiresUnmetered && !requiresBatteryNotLow }

    /// The constraints' names, as the service's app route, the settings file of `evaluate` and
    /// the JSON of `apps` give them: the names of the fields.
    public static let names = ["requiresPower", "requiresUnmetered", "requiresBatteryNotLow"]

    /// Sets the constraint named `name` (one of ``names``); `false`, and nothing set, for a name
    /// that is none.
    @discardableResult
    public mutating func set(_ name: String, to value: Bool) -> Bool {
        switch name {
        case "requiresPower": requiresPower = value
        case "requiresUnmetered": requiresUnmetered = value
        case "requiresBatteryNotLow": requiresBatteryNotLow = value
        default: return false
        }
        return true
    }

    /// The battery level, in percent, under which a battery not charging is low.
    public static let lowBattery = 20

    /// Whether a battery at `percent` is low: under ``lowBattery`` and not known to be on power
    /// (`onPower` `nil` where the power was never told).
    public static func isLow(batteryPercent percent: Int, onPower: Bool?) -> Bool {
        percent < lowBattery && onPower != true
    }
}

/// How likely a constrained app's requirements are met at a minute: each required one's chance
/// (`nil` for one not required, or never known), and all of them together.
struct ConstraintChances: Sendable, Hashable {
    var power: Double?
    var unmetered: Double?
    var batteryNotLow: Double?

    /// The chance that every required state holds, taking them apart; 1 when none is known.
    var all: Double { (power ?? 1) * (unmetered ?? 1) * (batteryNotLow ?? 1) }
}

extension Planner {
    /// How long after the plan's start the state the last events left is taken as the state,
    /// rather than what the time of day usually brings.
    static let currentStateMinutes = 30

    /// The least chance at which a constrained app may be woken: below it the device is more
    /// likely than not to break a requirement.
    static let leastConstraintChance = 0.5

    /// What a wake is worth, against its worth on a battery not low, while the battery is low
    /// and not charging: a wake then costs the person more, as a slow fetch does.
    static let lowBatteryWorth = 0.5

    /// The worth of a wake at each minute from `startIndex` against its worth on a battery not
    /// low: ``lowBatteryWorth`` for the first ``currentStateMinutes`` when the last events left the
    /// battery low and not charging; `nil` when they did not (every minute full worth).
    func batteryWorth(from startIndex: Int, to endIndex: Int) -> [Double]? {
        let habits = device.stateHabits
        guard habits.batteryIsLow, let battery = habits.battery, battery.at <= clock.time(startIndex) else {
            return nil
        }
        var worth = [Double](repeating: 1, count: clock.count)
        for index in startIndex..<min(endIndex, startIndex + Self.currentStateMinutes, clock.count) {
            worth[index] = Self.lowBatteryWorth
        }
        return worth
    }

    /// The chances that an app's requirements are met at each minute of the horizon from
    /// `startIndex`; `nil` for an app with none. For the first ``currentStateMinutes`` the state
    /// the last events left (on power or not, the network, a low battery not charging) stands for
    /// certain; after, the share of the known time the device spent so at that time of day on
    /// that kind of day (``StateHabits``). A state never known is no obstacle: a device that
    /// never told its state plans as one with no constraint.
    func constraintChances(_ constraints: AppConstraints, from startIndex: Int, to endIndex: Int)
        -> [ConstraintChances]?
    {
        guard !constraints.isEmpty else { return nil }
        let habits = device.stateHabits
        let weekday = (power: habits.powerChances(weekend: false), unmetered: habits.unmeteredChances(weekend: false))
        let weekend = (power: habits.powerChances(weekend: true), unmetered: habits.unmeteredChances(weekend: true))
        let start = clock.time(startIndex)
        var chances = [ConstraintChances](repeating: ConstraintChances(), count: clock.count)
        for index in startIndex..<min(endIndex, clock.count) {
            let now = index - startIndex < Self.currentStateMinutes
            let bin = Int(clock.minuteOfDay[index]) / StateHabits.binMinutes
            let days = DeviceModel.isWeekend(day: Int(clock.localDay[index])) ? weekend : weekday
            var power: Double?
            if let known = habits.power, now, known.since <= start {
                power = known.isOn ? 1 : 0
            } else {
                power = days.power[bin]
            }
            var chance = ConstraintChances()
            if constraints.requiresPower { chance.power = power }
            if constraints.requiresUnmetered {
                if let known = habits.network, now, known.since <= start {
                    chance.unmetered = known.state == .unmetered ? 1 : 0
                } else {
                    chance.unmetered = days.unmetered[bin]
                }
            }
            if constraints.requiresBatteryNotLow, now, let battery = habits.battery, battery.at <= start,
                battery.percent < AppConstraints.lowBattery
            {
                // Low now: only charging lifts it.
                chance.batteryNotLow = power ?? 0
            }
            chances[index] = chance
        }
        return chances
    }
}
