import Foundation

/// What a device's state events say: its power, network and battery as the last events left
/// them, and, by five minutes of the local day (weekdays and weekends apart), how often it was
/// on external power and on an unmetered network while its state was known.
///
/// The state between two events of a kind is the first's: a `powerConnected` at 23:10 and a
/// `powerDisconnected` at 07:05 count the night as on power. A span longer than
/// ``longestSpan`` counts only its first ``longestSpan``: a device that stopped telling is not
/// taken to stay as it was for weeks. The span since the last event is not counted until the
/// next event closes it, so that what was learned as of a time holds only what was known then.
public struct StateHabits: Sendable, Hashable, Codable {
    /// The minutes of one bin of the day.
    public static let binMinutes = 5
    /// Bins in a day.
    public static let binsPerDay = 1440 / binMinutes
    /// The longest span between two events of a kind that is counted.
    public static let longestSpan: Milliseconds = 2 * 86_400_000

    /// The device's power as its last `powerConnected` or `powerDisconnected` left it.
    public var power: (isOn: Bool, since: Milliseconds)? { powerState.map { ($0.isOn, $0.since) } }
    /// The network as the last `network` event left it.
    public var network: (state: NetworkState, since: Milliseconds)? { networkState.map { ($0.state, $0.since) } }
    /// The last battery level, a whole percent, and when it was read.
    public var battery: (percent: Int, at: Milliseconds)? { batteryState.map { ($0.percent, $0.at) } }

    struct KnownPower: Sendable, Hashable, Codable {
        var isOn: Bool
        var since: Milliseconds
    }

    struct KnownNetwork: Sendable, Hashable, Codable {
        var state: NetworkState
        var since: Milliseconds
    }

    struct KnownBattery: Sendable, Hashable, Codable {
        var percent: Int
        var at: Milliseconds
    }

    /// Moves on with every event learned: plans of constrained apps made before it are made again.
    public internal(set) var version = 0
    var powerState: KnownPower?
    var networkState: KnownNetwork?
    var batteryState: KnownBattery?
    /// Minutes on power, and minutes the power was known, per bin: weekdays then weekends.
    var powerMinutes: [Double] = []
    var powerKnown: [Double] = []
    /// Minutes on an unmetered network, and minutes the network was known, per bin.
    var unmeteredMinutes: [Double] = []
    var networkKnown: [Double] = []

    /// Nothing known.
    public init() {}

    /// Whether the last battery level was low (under ``AppConstraints/lowBattery`` percent) with
    /// the device not known to be on power since.
    public var batteryIsLow: Bool {
        guard let battery = batteryState else { return false }
        return AppConstraints.isLow(batteryPercent: battery.percent, onPower: powerState?.isOn)
    }

    /// When the last event that told the state came: the latest of the power's, the network's
    /// and the battery's. A plan is made again from it (``DeviceModel/lastPlanningTime``).
    public var lastChange: Milliseconds? {
        [powerState?.since, networkState?.since, batteryState?.at].compactMap { $0 }.max()
    }

    /// Whether it has learned anything: a device with no state event has nothing.
    public var isEmpty: Bool { powerState == nil && networkState == nil && batteryState == nil }

    /// Learns one event of the device's state, in the device's zone (or at the event's offset).
    /// Events of other kinds, and one older than the state it would change, leave it as it was.
    mutating func observe(_ event: Event, zone: TimeZone) {
        let before = (powerState, networkState, batteryState)
        defer { if before != (powerState, networkState, batteryState) { version += 1 } }
        switch event.kind {
        case .powerConnected, .powerDisconnected:
            if let known = powerState, known.since <= event.time {
                count(
                    from: known.since, to: event.time, on: known.isOn, offset: event.utcOffset, zone: zone,
                    into: \.powerMinutes, known: \.powerKnown)
            } else if powerState != nil {
                return
            }
            powerState = KnownPower(isOn: event.kind == .powerConnected, since: event.time)
        case .network:
            guard let state = event.networkState else { return }
            if let known = networkState, known.since <= event.time {
                count(
                    from: known.since, to: event.time, on: known.state == .unmetered, offset: event.utcOffset,
                    zone: zone, into: \.unmeteredMinutes, known: \.networkKnown)
            } else if networkState != nil {
                return
            }
            networkState = KnownNetwork(state: state, since: event.time)
        case .battery:
            guard let percent = event.batteryPercent, batteryState.map({ $0.at <= event.time }) ?? true else { return }
            batteryState = KnownBattery(percent: percent, at: event.time)
        default:
            return
        }
    }

    /// Counts the minutes from `start` to `end` (at most ``longestSpan``) into their bins.
    private mutating func count(
        from start: Milliseconds, to end: Milliseconds, on: Bool, offset: Int?, zone: TimeZone,
        into minutes: WritableKeyPath<StateHabits, [Double]>, known: WritableKeyPath<StateHabits, [Double]>
    ) {
        let total = Int(min(end - start, Self.longestSpan) / .perMinute)
        guard total > 0 else { return }
        if self[keyPath: known].isEmpty {
            self[keyPath: known] = Array(repeating: 0, count: 2 * Self.binsPerDay)
            self[keyPath: minutes] = Array(repeating: 0, count: 2 * Self.binsPerDay)
        }
        var (day, minute) = DeviceModel.local(start, utcOffset: offset, zone: zone)
        for _ in 0..<total {
            let index = (DeviceModel.isWeekend(day: day) ? Self.binsPerDay : 0) + minute / Self.binMinutes
            self[keyPath: known][index] += 1
            if on { self[keyPath: minutes][index] += 1 }
            minute += 1
            if minute == 1440 {
                minute = 0
                day += 1
            }
        }
    }

    /// The chance of being on power in each bin of a kind of day (``binsPerDay`` values, from
    /// midnight); `nil` in a bin whose power was never known.
    public func powerChances(weekend: Bool) -> [Double?] {
        Self.chances(powerMinutes, known: powerKnown, weekend: weekend)
    }

    /// The chance of being on an unmetered network in each bin of a kind of day; `nil` in a bin
    /// whose network was never known.
    public func unmeteredChances(weekend: Bool) -> [Double?] {
        Self.chances(unmeteredMinutes, known: networkKnown, weekend: weekend)
    }

    private static func chances(_ minutes: [Double], known: [Double], weekend: Bool) -> [Double?] {
        guard !known.isEmpty else { return Array(repeating: nil, count: binsPerDay) }
        let first = weekend ? binsPerDay : 0
        return (first..<first + binsPerDay).map { known[$0] > 0 ? minutes[$0] / known[$0] : nil }
    }

    /// Days of each kind whose bins were known, at most: the known minutes of the fullest bin over
    /// the bin's length.
    public func daysKnown(weekend: Bool) -> (power: Double, network: Double) {
        let range = weekend ? Self.binsPerDay..<2 * Self.binsPerDay : 0..<Self.binsPerDay
        func days(_ known: [Double]) -> Double {
            known.isEmpty ? 0 : (known[range].max() ?? 0) / Double(Self.binMinutes)
        }
        return (days(powerKnown), days(networkKnown))
    }
}
