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
