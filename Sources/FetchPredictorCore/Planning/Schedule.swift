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
    /// The device's silence, when it had gone silent by the span's start: it has no wakes.
    public var silence: Silence?
    /// Apps that may fetch but had gone silent by the span's start, while the device had not:
    /// they have no wakes.
    public var silentApps: [String]
    /// Low Power Mode, when it was on at the span's start: the device has no wakes until an
    /// event turns it off.
    public var lowPowerMode: LowPowerMode?

    /// Creates a value with every field given.
    public init(
        device: String, from: Date, to: Date, wakes: [DeviceWake], coldStartApps: [String], silence: Silence? = nil,
        silentApps: [String] = [], lowPowerMode: LowPowerMode? = nil
    ) {
        self.device = device
        self.from = from
        self.to = to
        self.wakes = wakes
        self.coldStartApps = coldStartApps
        self.silence = silence
        self.silentApps = silentApps
        self.lowPowerMode = lowPowerMode
    }

    /// The number of app fetches in the schedule.
    public var appWakeCount: Int { wakes.reduce(0) { $0 + $1.apps.count } }
}
