import FetchPredictorImport
import Foundation

/// The imports of log files and their log: a file imported whole or not at all, the log of what
/// each import stored, an import's events taken out again, and a device's imports of local times
/// read again in a new zone. One role of ``EventStoring``.
public protocol ImportLogKeeping: AnyObject, Sendable {
    /// Imports one log file in one transaction: all of it or, when it has an invalid row, none
    /// (unless `ImportOptions/skipInvalid`). The same event imported twice is stored once; the
    /// same file (by SHA-256) read another way is refused while an earlier import of it holds
    /// events; every event stored keeps the id of its import. Local times are read in
    /// `ImportOptions/timeZone`, else the device's zone, and are refused when neither is known.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - options: format, device, time zone, and what to do with invalid rows.
    ///   - now: the time written in the import log.
    ///   - progress: called as the file is read, with the bytes read and the file's size, maybe
    ///     on a thread of the store's.
    ///   - onReject: called with every refused row, maybe on a thread of the store's.
    /// - Throws: `ImportError` when the file cannot be read or has invalid rows;
    ///   ``StoreError`` when the store fails, the zone contradicts the device's, or the file was
    ///   imported before and read otherwise.
    func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: (@Sendable (Int64, Int64) -> Void)?,
        onReject: (@Sendable (Rejection) -> Void)?
    ) async throws -> ImportReport

    /// The import log, oldest first, with how many of each import's events the store still holds.
    func imports() async throws -> [ImportSummary]

    /// Deletes for good exactly the events one import stored, and the import from the log, so
    /// that its file can be imported again, read another way. An event a later import (or
    /// `record`) also held stays, passed to the earliest such import, and counts as
    /// ``PruneReport/kept``.
    ///
    /// - Throws: ``StoreError/unknownImport(_:)`` when there is no such import.
    func prune(importID: Int64, dryRun: Bool) async throws -> PruneReport

    /// Moves a device to another zone and reads its imports of local times again in it, in one
    /// transaction: each such import's events are deleted (as ``prune(importID:dryRun:)`` does)
    /// and its file read again, with the same format, date order and settings, as a new import;
    /// events of instants stay. Each file must be where it was imported from, unchanged.
    ///
    /// - Returns: the new imports, in the order of the old.
    /// - Throws: ``StoreError/unknownDevice(_:)``; ``StoreError/importedFileChanged(path:importID:)``
    ///   or the import's own error when a file is gone, changed or now refused; then nothing changes.
    func reread(device: String, in zone: TimeZone, now: Date) async throws -> [ImportReport]
}

extension ImportLogKeeping {
    /// Imports one log file; see `importFile(_:options:now:progress:onReject:)`.
    public func importFile(_ path: String, options: ImportOptions, now: Date) async throws -> ImportReport {
        try await importFile(path, options: options, now: now, progress: nil, onReject: nil)
    }

    /// Deletes for good exactly the events one import stored; see `prune(importID:dryRun:)`.
    public func prune(importID: Int64) async throws -> PruneReport {
        try await prune(importID: importID, dryRun: false)
    }
}
