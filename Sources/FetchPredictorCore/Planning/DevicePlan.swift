import Foundation

/// A device's plan in force: its wakes from the instant it was made to its end, coalesced and
/// within the push budget, and its apps in cold start. The schedules and wakes asked of a device
/// until its next change are read from it (``Predictor/planInForce(asOf:device:)``), and a store
/// keeps it, so that a new process answers from it without learning the device again.
public struct DevicePlan: Sendable, Hashable, Codable {
    /// When the plan was made: the device's last launch, fetch or state event, or a whole number
    /// of days after it (a daily re-plan).
    public var plannedAt: Milliseconds
    /// How far it reaches.
    public var end: Milliseconds
    /// Its wakes, in order of time.
    public var wakes: [DeviceWake]
    /// Its apps in cold start.
    public var coldStart: [String]

    /// Creates a value with every field given.
    public init(plannedAt: Milliseconds, end: Milliseconds, wakes: [DeviceWake], coldStart: [String]) {
        self.plannedAt = plannedAt
        self.end = end
        self.wakes = wakes
        self.coldStart = coldStart
    }

    /// The next plan is made a day after this one, unless an event comes first.
    public var replan: Milliseconds { plannedAt + .seconds(Predictor.lookAhead) }

    /// The first wake strictly after `time`: what ``Predictor/plannedWake(asOf:device:)`` gives
    /// while this plan is in force, whether it stages its planning or not.
    public func firstWake(after time: Date) -> DeviceWake? {
        wakes.first { $0.time > time }
    }

    /// The first wake strictly after `time` and within a day that fetches for `app`, with that
    /// app alone in its apps.
    public func firstWake(after time: Date, app: String) -> DeviceWake? {
        let end = time.addingTimeInterval(Predictor.lookAhead)
        for wake in wakes where wake.time > time {
            guard wake.time < end else { return nil }
            let asks = wake.apps.filter { $0.app == app }
            if !asks.isEmpty { return DeviceWake(device: wake.device, time: wake.time, apps: asks) }
        }
        return nil
    }
}
