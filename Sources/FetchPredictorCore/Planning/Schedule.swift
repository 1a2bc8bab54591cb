import Foundation

/// Why a wake was planned, or how it was shaped.
public enum WakeReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// It comes shortly before a learned peak: its local time (minutes after midnight), the
    /// expected cold launches it serves, and the peak's confidence from 0 to 1.
    case peak(minute: Int, expectedLaunches: Double, confidence: Double)
    /// The app has too little history; this is the conservative cold-start plan.
    case coldStart
    /// The app's interval held the wake back until this time.
    case intervalHeldBack(until: Date, interval: FetchInterval)
    /// Failures made the app back off until this time.
    case backoff(failures: Int, until: Date)
    /// It shares a device wake with these apps.
    case coalesced(with: [String])
    /// It was moved earlier by this many seconds to share a device wake.
    case movedEarlier(seconds: Double)
    /// The chance (0 to 1), learned from fetch results, that new content is there to fetch.
    case fetchResults(newDataRate: Double)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .peak(let minute, let expected, let confidence):
            return String(
                format: "serves the %02d:%02d peak (%.2f expected cold launches, confidence %.0f%%)", minute / 60,
                minute % 60, expected, confidence * 100)
        case .coldStart:
            return "cold start: too little history, conservative plan"
        case .intervalHeldBack(let until, let interval):
            return "held back by the \(interval) interval until \(TimestampFormatter.iso(until.milliseconds))"
        case .backoff(let failures, let until):
            return "backing off after \(failures) failed fetches until \(TimestampFormatter.iso(until.milliseconds))"
        case .coalesced(let apps):
            return "coalesced with \(apps.joined(separator: ", "))"
        case .movedEarlier(let seconds):
            return "moved \(Int(seconds / 60)) min earlier to share a device wake"
        case .fetchResults(let rate):
            return String(format: "%.0f%% chance of new content by then, from past fetch results", rate * 100)
        }
    }
}

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
