import Foundation
import GRDB

extension EventStore {
    /// Imports one log file in one transaction.
    ///
    /// By default a file with any invalid row is refused whole and nothing of it is stored; with
    /// ``ImportOptions/skipInvalid`` the valid rows are stored and every invalid one is reported.
    /// The same event imported twice is stored once: importing a file again reports all of it as
    /// duplicates. Reading the file is ``LogReader``'s work; the store runs the transaction.
    ///
    /// ```swift
    /// let report = try store.importFile("usage.csv", options: ImportOptions(device: "phone"))
    /// print(report.stored, report.duplicates)
    /// ```
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - options: format, device, time zone, and what to do with invalid rows.
    ///   - now: the time written in the import log.
    ///   - progress: called as the file is read, with the bytes read and the file's size.
    ///   - onReject: called with every refused row.
    /// - Returns: what was read, stored, duplicate and refused.
    /// - Throws: ``ImportError`` when the file cannot be read, fits no format, or (without
    ///   ``ImportOptions/skipInvalid``) has invalid rows; ``StoreError`` when the store fails, or
    ///   when ``ImportOptions/timeZone`` contradicts the device's zone.
    /// - Complexity: O(n log m) in the file's rows and the stored events; memory stays flat
    ///   except for ActivityWatch exports, which keep about 40 bytes per window event.
    public func importFile(
        _ path: String, options: ImportOptions, now: Date,
        progress: ((Int64, Int64) -> Void)? = nil,
        onReject: ((Rejection) -> Void)? = nil
    ) throws -> ImportReport {
        try write { db in
            let deviceZone = try Self.timeZone(db, device: options.device, path: path)
            // Local times read in another zone than the device's would be stored shifted.
            if let given = options.timeZone, let deviceZone, given.identifier != deviceZone.identifier {
                throw StoreError.timeZoneConflict(
                    device: options.device, stored: deviceZone.identifier, given: given.identifier)
            }
            let writer = try EventWriter(
                db, newDeviceTimeZone: (options.timeZone ?? options.defaultTimeZone).identifier)
            let report = try LogReader(options: options).read(
                path, timeZone: options.timeZone ?? deviceZone ?? options.defaultTimeZone, progress: progress,
                onReject: onReject
            ) { event in
                try writer.insert(event, device: options.device)
            }
            try writer.invalidateLearnedModels()
            var log = ImportLogRecord(report, importedAt: now)
            try log.insert(db)
            return report
        }
    }
}
