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
        progress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onReject: (@Sendable (Rejection) -> Void)? = nil
    ) throws -> ImportReport {
        try write { db in try importFile(path, options: options, now: now, progress: progress, onReject: onReject, db) }
    }

    /// `importFile(_:options:now:progress:onReject:)` on GRDB's writer, the caller suspended
    /// meanwhile; `progress` and `onReject` are called on the thread that reads the file.
    public func importFile(
        _ path: String, options: ImportOptions, now: Date,
        progress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onReject: (@Sendable (Rejection) -> Void)? = nil
    ) async throws -> ImportReport {
        try await write { db in
            try self.importFile(path, options: options, now: now, progress: progress, onReject: onReject, db)
        }
    }

    /// ``importFile(_:options:now:progress:onReject:)`` in a transaction of the caller's.
    func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: (@Sendable (Int64, Int64) -> Void)?,
        onReject: (@Sendable (Rejection) -> Void)?, _ db: Database
    ) throws -> ImportReport {
        // The steps run here, on GRDB's thread, which the connection is bound to.
        let transaction = SQLiteImport(db: db, path: path)
        return try Blocking.onThisThread {
            try await ImportSteps.run(
                path, options: options, now: now, progress: progress, onReject: onReject, in: transaction)
        }
    }
}

extension EventStore {
    /// The import log, oldest first, with how many of each import's events the store still holds.
    ///
    /// - Complexity: O(n) in the stored events, counted by import.
    public func imports() throws -> [ImportSummary] {
        try read(Self.importLog)
    }

    /// `imports()` on one of GRDB's readers, the caller suspended meanwhile.
    public func imports() async throws -> [ImportSummary] {
        try await read(Self.importLog)
    }

    private static func importLog(_ db: Database) throws -> [ImportSummary] {
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

extension EventStore {
    public func reread(device: String, in zone: TimeZone, now: Date) throws -> [ImportReport] {
        let reports = try write(rereading(device: device, in: zone, now: now))
        try compact()
        return reports
    }

    /// `reread(device:in:now:)` on GRDB's writer, the caller suspended meanwhile.
    public func reread(device: String, in zone: TimeZone, now: Date) async throws -> [ImportReport] {
        let reports = try await write(rereading(device: device, in: zone, now: now))
        try await writer.writeWithoutTransaction(Self.compact)
        return reports
    }

    /// The write of `reread(device:in:now:)`: the device's imports of local times pruned, the
    /// device moved, and the files imported again.
    private func rereading(device: String, in zone: TimeZone, now: Date)
        -> @Sendable (Database) throws -> [ImportReport]
    {
        { db in
            guard let record = try DeviceRecord.named(device, db), let id = record.id else {
                throw StoreError.unknownDevice(device)
            }
            let logs = try ImportLogRecord.fetchAll(
                db, sql: "SELECT * FROM importLog WHERE device = ? AND timeZone IS NOT NULL ORDER BY id",
                arguments: [device])
            for log in logs { _ = try self.prune(importID: log.id!, db) }
            try Self.move(deviceID: id, to: zone, db)
            return try logs.map { log in
                let report = try self.importFile(
                    log.path, options: log.reading.options(in: zone, skipInvalid: log.rejected > 0), now: now,
                    progress: nil, onReject: nil, db)
                guard report.sha256 == log.sha256 else {
                    throw StoreError.importedFileChanged(path: log.path, importID: log.id!)
                }
                return report
            }
        }
    }
}

/// An import's steps on SQLite (``ImportSteps``), in the caller's write transaction, which
/// SQLite holds alone: nothing else writes until it ends.
private struct SQLiteImport: ImportTransaction {
    let db: Database
    /// The file, for the store's errors.
    let path: String

    func zone(ofDevice device: String) throws -> TimeZone? {
        try EventStore.timeZone(db, device: device, path: path)
    }

    func adoptZone(_ zone: TimeZone, device: String) throws {
        try db.execute(
            sql: "UPDATE device SET timeZone = ? WHERE name = ? AND timeZone IS NULL",
            arguments: [zone.identifier, device])
    }

    func beginImport(path: String, device: String, readingKey: String?, at time: Date) throws -> Int64 {
        var log = ImportLogRecord(starting: path, device: device, importedAt: time)
        log.options = readingKey
        let id = try StoreSettingRecord.nextImportID(db)
        log.id = id
        try log.insert(db)
        return id
    }

    func loader(importID id: Int64, newDeviceTimeZone: (device: String, zone: String)?) throws -> Loader {
        Loader(writer: try EventWriter(db, newDeviceTimeZone: newDeviceTimeZone, importID: id))
    }

    func importsHoldingEvents(sha256: String, before id: Int64) throws -> [ImportReading] {
        try ImportLogRecord.importsHoldingEvents(ofSHA256: sha256, before: id, db).map(\.reading)
    }

    func finishImport(id: Int64, report: ImportReport) throws {
        guard var log = try ImportLogRecord.fetchOne(db, key: id) else {
            throw StoreError.damaged(path: path, detail: "the import \(id) begun is not in the log")
        }
        log.finish(report)
        try log.update(db)
    }

    /// Inserts each event as it is read, counting those that were new.
    final class Loader: ImportLoader {
        let writer: EventWriter
        var stored = 0

        init(writer: EventWriter) { self.writer = writer }

        func add(_ events: [Event], device: String) throws {
            for event in events where try writer.insert(event, device: device) { stored += 1 }
        }

        func finish() throws -> Int {
            try writer.invalidateLearnedModels()
            return stored
        }
    }
}
