import Foundation

/// One import in the store's import log: what it read, how, and what of it the store still holds.
public struct ImportSummary: Sendable, Hashable, Codable {
    /// The import's id: what its events keep, and what `prune(importID:dryRun:)` takes.
    public var id: Int64
    /// The file, as it was named.
    public var file: String
    /// The SHA-256 of the file's bytes, in hexadecimal.
    public var sha256: String
    /// The format it was read as.
    public var format: String
    /// The device its events were stored for, unless a row named another.
    public var device: String
    /// The zone its local times were read in; `nil` for formats that write instants, and for
    /// imports made before the store kept it.
    public var timeZone: String?
    /// The order of day and month its dates were read in, where the format has one.
    public var dateOrder: String?
    /// Rows read.
    public var rowsRead: Int
    /// Events stored.
    public var stored: Int
    /// Events that were in the store already.
    public var duplicates: Int
    /// Rows refused.
    public var rejected: Int
    /// Events it stored that the store still holds (a prune by date removes some).
    public var eventsKept: Int
    /// When it ran.
    public var importedAt: Date

    /// Creates a value with every field given.
    public init(
        id: Int64, file: String, sha256: String, format: String, device: String, timeZone: String?,
        dateOrder: String?, rowsRead: Int, stored: Int, duplicates: Int, rejected: Int, eventsKept: Int,
        importedAt: Date
    ) {
        self.id = id
        self.file = file
        self.sha256 = sha256
        self.format = format
        self.device = device
        self.timeZone = timeZone
        self.dateOrder = dateOrder
        self.rowsRead = rowsRead
        self.stored = stored
        self.duplicates = duplicates
        self.rejected = rejected
        self.eventsKept = eventsKept
        self.importedAt = importedAt
    }
}
