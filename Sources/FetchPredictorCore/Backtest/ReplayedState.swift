import Foundation

/// The device's state as its logged events tell it, at any instant of a replay: what the system
/// checks before it runs a fetch. A state the log never told is no obstacle, as in planning.
struct ReplayedState: Sendable {
    /// One kind's changes, in time order: the state at an instant is the last change at or
    /// before it.
    struct Changes<Value: Sendable>: Sendable {
        var times: [Milliseconds] = []
        var values: [Value] = []

        mutating func append(_ time: Milliseconds, _ value: Value) {
            times.append(time)
            values.append(value)
        }

        /// The state at `time`; `nil` before the first change.
        func at(_ time: Milliseconds) -> Value? {
            let after = times.partitioningIndex { $0 > time }
            return after == 0 ? nil : values[after - 1]
        }
    }

    private var power = Changes<Bool>()
    private var network = Changes<NetworkState>()
    private var battery = Changes<Int>()
    private var lowPower = Changes<Bool>()

    /// The state of a device's events, in any order; events of other kinds are left out.
    init(_ events: [Event]) {
        for event in events.sorted(by: { $0.time < $1.time }) {
            switch event.kind {
            case .powerConnected, .powerDisconnected: power.append(event.time, event.kind == .powerConnected)
            case .network: if let state = event.networkState { network.append(event.time, state) }
            case .battery: if let percent = event.batteryPercent { battery.append(event.time, percent) }
            case .lowPowerOn, .lowPowerOff: lowPower.append(event.time, event.kind == .lowPowerOn)
            default: break
            }
        }
    }

    /// Whether the log tells any state.
    var isEmpty: Bool {
        power.times.isEmpty && network.times.isEmpty && battery.times.isEmpty && lowPower.times.isEmpty
    }

    /// Whether Low Power Mode is on at `time`.
    func lowPowerMode(at time: Milliseconds) -> Bool {
        lowPower.at(time) ?? false
    }

    /// Whether the state at `time` is known to break one of `constraints`: off power for an app
    /// that needs it, on another network than an unmetered one, a battery under 20% not
    /// charging.
    func breaks(_ constraints: AppConstraints, at time: Milliseconds) -> Bool {
        guard !constraints.isEmpty else { return false }
        let onPower = power.at(time)
        if constraints.requiresPower, onPower == false { return true }
        if constraints.requiresUnmetered, let state = network.at(time),
            state != .unmetered
        {
            return true
        }
        if constraints.requiresBatteryNotLow, let percent = battery.at(time),
            AppConstraints.isLow(batteryPercent: percent, onPower: onPower)
        {
            return true
        }
        return false
    }

    /// Whether a fetch of an app with `constraints` may run at `time`: Low Power Mode off and
    /// no constraint broken.
    func allows(_ constraints: AppConstraints, at time: Milliseconds) -> Bool {
        !lowPowerMode(at: time) && !breaks(constraints, at: time)
    }
}
