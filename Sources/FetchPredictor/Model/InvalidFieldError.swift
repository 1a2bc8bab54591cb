/// Why an event or a setting was refused: the field at fault, and why it cannot be stored.
///
/// Not GRDB's `RecordError`, which is about database records; this one is about what a caller
/// gave.
public enum InvalidFieldError: Error, Sendable, CustomStringConvertible {
    /// A field of the event or setting, and why it cannot be stored.
    case invalid(field: String, reason: String)
    /// The event at `index` of a batch (counting from 0), whose `field` cannot be stored; nothing
    /// of the batch was stored.
    case invalidInBatch(index: Int, field: String, reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalid(let field, let reason): "The \(field) was refused: \(reason)."
        case .invalidInBatch(let index, let field, let reason):
            "Event \(index)'s \(field) was refused: \(reason); nothing of the batch was stored."
        }
    }
}
