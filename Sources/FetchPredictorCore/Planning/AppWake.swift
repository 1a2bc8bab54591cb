import Foundation

/// One app's background fetch, inside a device wake.
public struct AppWake: Sendable, Hashable, Codable {
    /// The app to wake.
    public var app: String
    /// When the planner first placed it, before coalescing.
    public var plannedTime: Date
    /// The cold launches it is expected to find fresh content for.
    public var expectedLaunches: Double
    /// Why it was planned, and how it was shaped.
    public var reasons: [WakeReason]

    /// Creates a value with every field given.
    public init(app: String, plannedTime: Date, expectedLaunches: Double, reasons: [WakeReason]) {
        self.app = app
        self.plannedTime = plannedTime
        self.expectedLaunches = expectedLaunches
        self.reasons = reasons
    }
}
