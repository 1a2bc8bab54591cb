import Foundation

/// A moment the device wakes to run the background fetches of one or more apps.
public struct DeviceWake: Sendable, Hashable, Codable {
    /// The device.
    public var device: String
    /// When it wakes.
    public var time: Date
    /// The apps it fetches for, each with its reasons.
    public var apps: [AppWake]

    /// Creates a value with every field given.
    public init(device: String, time: Date, apps: [AppWake]) {
        self.device = device
        self.time = time
        self.apps = apps
    }
}
