/// What the predictor cannot answer, and why.
///
/// A device's habits are local times: learning and planning need its time zone, and the
/// predictor never assumes one.
public enum PredictorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device has no time zone yet (``Predictor/setTimeZone(_:device:)`` or
    /// ``Predictor/setModel(_:device:)`` gives it one), and its events' local days or the local
    /// times of its wakes were asked for.
    case noTimeZone(device: String)

    /// The error as one plain sentence.
    public var description: String {
        switch self {
        case .noTimeZone(let device):
            "Device \(device) has no time zone, and daily habits are local times; none is assumed."
        }
    }
}
