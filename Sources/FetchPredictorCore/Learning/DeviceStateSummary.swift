import Foundation

/// What a device's state events say as of a time: Low Power Mode, power, network and battery as
/// the last events left them, and how often the device is on power and on an unmetered network at
/// each five minutes of the local day (``StateHabits``), weekdays and weekends apart. What
/// `fetchpredict state` and the report show.
public struct DeviceStateSummary: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// The time it is as of.
    public var now: Date
    /// Low Power Mode as the last event of it left it.
    public var lowPowerMode: LowPowerMode?
    /// On external power or not, and since when.
    public var power: Power?
    /// The network, and since when.
    public var network: Network?
    /// The last battery level, and when it was read.
    public var battery: Battery?
    /// The chances by five minutes of the day, on weekdays.
    public var weekday: Chances
    /// The chances by five minutes of the day, on weekends.
    public var weekend: Chances

    /// On external power or not, since a time.
    public struct Power: Sendable, Hashable, Codable {
        public var isOn: Bool
        public var since: Date
    }

    /// A network, since a time.
    public struct Network: Sendable, Hashable, Codable {
        public var state: NetworkState
        public var since: Date
    }

    /// A battery level in whole percent, read at a time.
    public struct Battery: Sendable, Hashable, Codable {
        public var percent: Int
        public var at: Date
    }

    /// The chance of being on power and of being on an unmetered network in each five minutes of
    /// a kind of day, from midnight (``StateHabits/binsPerDay`` values each; `nil` where never
    /// known), and the days those chances stand on at most.
    public struct Chances: Sendable, Hashable, Codable {
        public var onPower: [Double?]
        public var unmetered: [Double?]
        public var powerDays: Double
        public var networkDays: Double
    }

    /// Whether the device ever told its state.
    public var isEmpty: Bool { lowPowerMode == nil && power == nil && network == nil && battery == nil }
}

extension DeviceModel {
    /// The summary of the device's state as of `now` (the model learned up to it).
    public func stateSummary(device: String, now: Date) -> DeviceStateSummary {
        DeviceStateSummary(device: device, now: now, lowPowerMode: lowPowerMode, habits: stateHabits)
    }
}

extension DeviceStateSummary {
    /// The summary of what a device's state events said: Low Power Mode as they left it, and its
    /// habits. Reads no time zone: the chances are by local time already.
    init(device: String, now: Date, lowPowerMode: LowPowerMode?, habits: StateHabits) {
        func chances(weekend: Bool) -> DeviceStateSummary.Chances {
            let days = habits.daysKnown(weekend: weekend)
            return DeviceStateSummary.Chances(
                onPower: habits.powerChances(weekend: weekend), unmetered: habits.unmeteredChances(weekend: weekend),
                powerDays: days.power, networkDays: days.network)
        }
        self.init(
            device: device, now: now, lowPowerMode: lowPowerMode,
            power: habits.power.map { .init(isOn: $0.isOn, since: Date(milliseconds: $0.since)) },
            network: habits.network.map { .init(state: $0.state, since: Date(milliseconds: $0.since)) },
            battery: habits.battery.map { .init(percent: $0.percent, at: Date(milliseconds: $0.at)) },
            weekday: chances(weekend: false), weekend: chances(weekend: true))
    }
}

extension Predictor {
    /// What the device's state events say as of `now`: ``DeviceStateSummary``; an empty one for
    /// a device the predictor has no model of.
    public func stateSummary(device: String, now: Date) -> DeviceStateSummary {
        devices[device]?.stateSummary(device: device, now: now)
            ?? DeviceStateSummary(device: device, now: now, lowPowerMode: nil, habits: StateHabits())
    }
}
