import Foundation
import GRDB

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
