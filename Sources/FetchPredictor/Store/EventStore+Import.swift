import Foundation
import GRDB

extension EventStore {
    /// Imports one log file in one transaction.
    ///
    /// By default a file with any invalid row is refused whole and nothing of it is stored; with
    /// ``ImportOptions/skipInvalid`` the valid rows are stored and every invalid one is reported.
    /// The same event imported twice is stored once: importing a file again reports all of it as
    /// duplicates.
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
    ///   ``ImportOptions/skipInvalid``) has invalid rows; ``StoreError`` when the store fails.
    /// - Complexity: O(n log m) in the file's rows and the stored events; memory stays flat
    ///   except for ActivityWatch exports, which keep about 40 bytes per window event.
    public func importFile(
        _ path: String, options: ImportOptions, now: Date,
        progress: ((Int64, Int64) -> Void)? = nil,
        onReject: ((Rejection) -> Void)? = nil
    ) throws -> ImportReport {
        let format = try options.format ?? FormatDetector.detect(path)
        let file = try FileReader(path: path, progress: progress)
        if file.size == 0 { throw ImportError.empty(file: path) }
        return try write { db in
            let deviceZone = try Self.timeZone(db, device: options.device)
            let newDeviceZone = options.timeZone ?? options.defaultTimeZone
            let writer = try EventWriter(db, newDeviceTimeZone: newDeviceZone.identifier)
            let session = ImportSession(
                file: path, skipInvalid: options.skipInvalid, rejectionsKept: options.rejectionsKept,
                onReject: onReject
            ) { event in
                try writer.insert(event, device: options.device)
            }
            switch format {
            case .csv:
                try CSVEventParser().parse(file, into: session)
            case .jsonl:
                try JSONLinesParser().parse(file, into: session)
            case .activitywatch:
                try ActivityWatchParser(extraIgnoredPackages: options.extraIgnoredPackages).parse(file, into: session)
            case .appUsage:
                let zone = options.timeZone ?? deviceZone ?? options.defaultTimeZone
                try AppUsageParser(timeZone: zone, dateOrder: options.dateOrder).parse(file, into: session)
            }
            if session.rejected > 0 && !options.skipInvalid {
                throw ImportError.invalidRows(file: path, rejected: session.rejected, first: session.firstRejections)
            }
            if session.rowsRead == 0 { throw ImportError.empty(file: path) }
            try writer.invalidateLearnedModels()
            try file.finishHashing()
            let report = ImportReport(
                file: path, format: format, formatDetected: options.format == nil, sha256: file.digest(),
                device: options.device, rowsRead: session.rowsRead, events: session.events, stored: session.stored,
                duplicates: session.duplicates, rejected: session.rejected, rejections: session.firstRejections)
            try db.execute(
                sql: """
                    INSERT INTO importLog
                        (path, sha256, format, device, rowsRead, stored, duplicates, rejected, importedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    path, report.sha256, format.rawValue, options.device, report.rowsRead, report.stored,
                    report.duplicates, report.rejected, now.milliseconds,
                ])
            return report
        }
    }
}
