/// Why an event or a setting was refused.
public enum RecordError: Error, Sendable, CustomStringConvertible {
    case invalid(field: String, reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalid(let field, let reason): "The \(field) was refused: \(reason)."
        }
    }
}
