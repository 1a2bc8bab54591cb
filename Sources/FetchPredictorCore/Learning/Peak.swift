import Foundation

/// A time of day around which an app's cold launches gather.
public struct Peak: Sendable, Hashable, Codable {
    /// The peak's local time, in minutes after midnight.
    public var minute: Int
    /// How widely launches spread around it: a standard deviation, in minutes.
    public var spreadMinutes: Double
    /// Cold launches expected around it per day.
    public var launchesPerDay: Double
    /// From 0 to 1: how sure the predictor is that the peak is real, from how much history
    /// supports it.
    public var confidence: Double

    /// `HH:MM`.
    public var timeText: String { String(format: "%02d:%02d", minute / 60, minute % 60) }
}
