import Foundation

/// The planned wakes of a device over a span of time, in time order.
public struct Schedule: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// The start of the span planned.
    public var from: Date
    /// The end of the span planned.
    public var to: Date
    /// The device wakes, in time order.
    public var wakes: [DeviceWake]
    /// Apps with too little history to learn from yet.
    public var coldStartApps: [String]

    /// Creates a value with every field given.
    public init(device: String, from: Date, to: Date, wakes: [DeviceWake], coldStartApps: [String]) {
        self.device = device
        self.from = from
        self.to = to
        self.wakes = wakes
        self.coldStartApps = coldStartApps
    }

    /// The number of app fetches in the schedule.
    public var appWakeCount: Int { wakes.reduce(0) { $0 + $1.apps.count } }
}
