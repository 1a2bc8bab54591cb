import Foundation

/// One import in the store's import log: what it read, how, and what of it the store still holds.
public struct ImportSummary: Sendable, Hashable, Codable {
    /// The import's id: what its events keep, and what ``EventStore/prune(importID:dryRun:)`` takes.
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
}
