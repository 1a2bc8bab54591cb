import Foundation

/// The device's Low Power Mode as its last `lowPowerOn` or `lowPowerOff` event left it. While it
/// is on, no app is woken, as iOS turns Background App Refresh off until it ends; the event that
/// turns it off brings the plans back.
public struct LowPowerMode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whether it is on.
    public var isOn: Bool
    /// When it was last turned on or off: the time of that event.
    public var since: Date

    /// Creates a value with every field given.
    public init(isOn: Bool, since: Date) {
        self.isOn = isOn
        self.since = since
    }

    /// A sentence for people: since when, and what brings the wakes back.
    public var description: String {
        isOn
            ? "Low Power Mode is on since \(TimestampFormatter.iso(since.milliseconds)): no app is woken until an "
                + "event turns it off"
            : "Low Power Mode is off since \(TimestampFormatter.iso(since.milliseconds))"
    }
}

extension DeviceModel {
    /// Low Power Mode when it is on at `time` (turned on at or before it, and not off since);
    /// `nil` when it is off, or was never told.
    public func lowPowerMode(at time: Date) -> LowPowerMode? {
        guard let mode = lowPowerMode, mode.isOn, mode.since <= time else { return nil }
        return mode
    }
}
