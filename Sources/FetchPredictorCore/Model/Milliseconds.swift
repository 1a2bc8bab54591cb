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
}
