import Foundation

/// An instant, in whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Events are stored and compared at millisecond precision: two events of the same kind, app and
/// device at the same millisecond are the same event.
public typealias Milliseconds = Int64

extension Date {
    /// The date at a number of milliseconds since 1970.
    public init(milliseconds: Milliseconds) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date in whole milliseconds since 1970, rounded to the nearest.
    public var milliseconds: Milliseconds {
        Milliseconds((timeIntervalSince1970 * 1000).rounded())
    }

    /// The newest millisecond whose events an answer as of this date knows: every one strictly
    /// before it. An event at the instant itself is not known yet, so that an answer as of T is
    /// the one a log cut at T (`time < T`) gives, and one event more never changes it.
    public var knownThrough: Milliseconds {
        Milliseconds((timeIntervalSince1970 * 1000).rounded(.up)) - 1
    }
}

/// The core's two units of time and the one place they meet: instants and spans of instants are
/// ``Milliseconds``; the planner's clock and the day's profiles step in whole minutes (`Int`).
/// Every conversion between them, and from the seconds people configure, is one of these.
extension Milliseconds {
    /// Milliseconds in a second.
    static let perSecond: Milliseconds = 1000
    /// Milliseconds in a minute.
    static let perMinute: Milliseconds = 60_000
    /// Milliseconds in an hour.
    static let perHour: Milliseconds = 3_600_000
    /// Milliseconds in a day of 24 hours.
    static let perDay: Milliseconds = 86_400_000

    /// A number of whole minutes, in milliseconds.
    @inline(__always) static func minutes(_ count: Int) -> Milliseconds { Milliseconds(count) * perMinute }

    /// A number of seconds, in milliseconds, the fraction of a millisecond dropped.
    @inline(__always) static func seconds(_ seconds: Double) -> Milliseconds { Milliseconds(seconds * 1000) }

    /// A number of whole seconds, in milliseconds.
    @inline(__always) static func seconds(_ seconds: Int) -> Milliseconds { Milliseconds(seconds) * perSecond }

    /// The whole minutes from an earlier instant to this one (toward zero, as integer division).
    @inline(__always) func minutes(since earlier: Milliseconds) -> Int { Int((self - earlier) / Self.perMinute) }

    /// The minutes from an earlier instant to this one, with their fraction.
    @inline(__always) func fractionalMinutes(since earlier: Milliseconds) -> Double {
        Double(self - earlier) / Double(Self.perMinute)
    }

    /// The minutes from an earlier instant to this one, a started minute counted whole.
    @inline(__always) func minutesRoundedUp(since earlier: Milliseconds) -> Int {
        Int((self - earlier + Self.perMinute - 1) / Self.perMinute)
    }

    /// The first whole minute after this instant (a whole minute's next one).
    var nextWholeMinute: Milliseconds { (self / Self.perMinute + 1) * Self.perMinute }
}
