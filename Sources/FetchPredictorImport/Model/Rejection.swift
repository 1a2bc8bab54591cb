/// One row an import could not store, with where it is and why.
public struct Rejection: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// The line, counting from 1.
    public var line: Int
    /// The field at fault, by its name in the format.
    public var field: String
    /// Why the row was refused.
    public var reason: String

    /// Creates a value with every field given.
    public init(file: String, line: Int, field: String, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE: field 'timestamp': REASON`.
    public var description: String { "\(file):\(line): field '\(field)': \(reason)" }
}
