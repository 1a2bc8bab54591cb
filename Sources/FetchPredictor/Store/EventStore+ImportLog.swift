import Foundation
import GRDB

extension EventStore {
    /// Imports one log file in one transaction.
    ///
    /// By default a file with any invalid row is refused whole and nothing of it is stored; with
    /// `ImportOptions/skipInvalid` the valid rows are stored and every invalid one is reported.
    /// The same event imported twice is stored once: importing a file again reports all of it as
    /// duplicates. The same file (by SHA-256) read another way (format, device, zone, date order)
    /// is refused, as its events would be stored twice. Every event stored keeps the id of its
    /// import. Local times are read in `ImportOptions/timeZone`, else the device's zone, and are
    /// refused when neither is known. Reading the file is `LogReader`'s work; the store runs the
    /// transaction.
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
    /// - Throws: `ImportError` when the file cannot be read, fits no format, or (without
    ///   `ImportOptions/skipInvalid`) has invalid rows, or writes local times in no known zone;
    ///   ``StoreError`` when the store fails, when `ImportOptions/timeZone` contradicts the
    ///   device's zone, or when the file was imported before and read otherwise.
    /// - Complexity: O(n log m) in the file's rows and the stored events; memory stays flat
    ///   except for ActivityWatch exports, which keep about 40 bytes per window event.
    public func importFile(
        _ path: String, options: ImportOptions, now: Date,
        progress: ((Int64, Int64) -> Void)? = nil,
        onReject: ((Rejection) -> Void)? = nil
    ) throws -> ImportReport {
        try write { db in try importFile(path, options: options, now: now, progress: progress, onReject: onReject, db) }
    }

    /// ``importFile(_:options:now:progress:onReject:)`` in a transaction of the caller's.
    func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: ((Int64, Int64) -> Void)?,
        onReject: ((Rejection) -> Void)?, _ db: Database
    ) throws -> ImportReport {
        let deviceZone = try Self.timeZone(db, device: options.device, path: path)
        try StoreRules.checkZone(options.timeZone, of: options.device, against: deviceZone)
        // A device with no zone takes the one the import names, as a new one does.
        if let given = options.timeZone, deviceZone == nil {
            try db.execute(
                sql: "UPDATE device SET timeZone = ? WHERE name = ? AND timeZone IS NULL",
                arguments: [given.identifier, options.device])
        }
        var log = ImportLogRecord(starting: path, device: options.device, importedAt: now)
        log.options = options.readingKey
        log.id = try StoreSettingRecord.nextImportID(db)
        try log.insert(db)
        let writer = try EventWriter(
            db, newDeviceTimeZone: options.timeZone.map { (options.device, $0.identifier) }, importID: log.id)
        // Local times are read in the device's zone when the import names none.
        var reading = options
        reading.timeZone = options.timeZone ?? deviceZone
        var report = try LogReader(options: reading).read(path, progress: progress, onReject: onReject) { event in
            try writer.insert(event, device: options.device)
        }
        try ImportReading.refuseOtherReadings(
            of: report, options: options,
            earlier: try ImportLogRecord.importsHoldingEvents(ofSHA256: report.sha256, before: log.id!, db).map(
                \.reading))
        try writer.invalidateLearnedModels()
        log.finish(report)
        try log.update(db)
        report.timeZone = try Self.timeZone(db, device: options.device, path: path)?.identifier
        return report
    }
}

extension EventStore {
    /// The import log, oldest first, with how many of each import's events the store still holds.
    ///
    /// - Complexity: O(n) in the stored events, counted by import.
    public func imports() throws -> [ImportSummary] {
        try read { db in
            var kept: [Int64: Int] = [:]
            for table in ["launch", "fetch", "notification", "deviceEvent"] {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT importId, count(*) FROM \(table) WHERE importId IS NOT NULL GROUP BY importId")
                for row in rows { kept[row[0], default: 0] += row[1] as Int }
            }
            return try ImportLogRecord.fetchAll(db, sql: "SELECT * FROM importLog ORDER BY id").map { log in
                ImportSummary(
                    id: log.id!, file: log.path, sha256: log.sha256, format: log.format, device: log.device,
                    timeZone: log.timeZone, dateOrder: log.dateOrder, rowsRead: log.rowsRead, stored: log.stored,
                    duplicates: log.duplicates, rejected: log.rejected, eventsKept: kept[log.id!] ?? 0,
                    importedAt: Date(milliseconds: log.importedAt))
            }
        }
    }
}

extension EventStore {
    public func reread(device: String, in zone: TimeZone, now: Date) throws -> [ImportReport] {
        let reports = try write { db -> [ImportReport] in
            guard let record = try DeviceRecord.named(device, db), let id = record.id else {
                throw StoreError.unknownDevice(device)
            }
            let logs = try ImportLogRecord.fetchAll(
                db, sql: "SELECT * FROM importLog WHERE device = ? AND timeZone IS NOT NULL ORDER BY id",
                arguments: [device])
            for log in logs { _ = try prune(importID: log.id!, db) }
            try Self.move(deviceID: id, to: zone, db)
            return try logs.map { log in
                let report = try importFile(
                    log.path, options: log.reading.options(in: zone, skipInvalid: log.rejected > 0), now: now,
                    progress: nil, onReject: nil, db)
                guard report.sha256 == log.sha256 else {
                    throw StoreError.importedFileChanged(path: log.path, importID: log.id!)
                }
                return report
            }
        }
        try compact()
        return reports
    }
}
