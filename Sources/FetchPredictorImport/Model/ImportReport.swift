/// What one import did.
public struct ImportReport: Sendable, Hashable, Codable {
    /// The file, as the user named it.
    public var file: String
    /// The format it was read as.
    public var format: ImportFormat
    /// Whether the format was detected rather than given.
    public var formatDetected: Bool
    /// The SHA-256 of the file's bytes, in hexadecimal.
    public var sha256: String
    /// The device the events were stored for, unless a row named another.
    public var device: String
    /// Data rows (or JSON events) read from the file.
    public var rowsRead: Int
    /// Events the rows made (several rows of one visit make one launch).
    public var events: Int
    /// Events stored for the first time.
    public var stored: Int
    /// Events that were in the store already.
    public var duplicates: Int
    /// Rows refused.
    public var rejected: Int
    /// The first refused rows (all of them went to the rejects handler).
    public var rejections: [Rejection]
    /// The zone the file's local times were read in, where the format writes them; after an
    /// import into a store, the device's zone (`nil` when it has none).
    public var timeZone: String?
    /// The order of day and month the dates were read in, where the format has one.
    public var dateOrder: DateOrder?
    /// After an import into a store, the devices its events went into, by name in order: the
    /// rows of a file that name their own devices go into theirs, the others into ``device``.
    public var devices: [String] = []
}
