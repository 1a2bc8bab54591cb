import Foundation
import GRDB

/// A row of the `importLog` table: what one import read and stored, how it read the file, and
/// when. Its `id` is what each event it stored keeps as its `importId`.
struct ImportLogRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "importLog"

    var id: Int64?
    var path: String
    var sha256: String
    var format: String
    var device: String
    var rowsRead: Int
    var stored: Int
    var duplicates: Int
    var rejected: Int
    /// When the import ran, in milliseconds since 1970.
    var importedAt: Milliseconds
    /// The zone the file's local times were read in; `nil` for formats that write instants.
    var timeZone: String?
    /// The order of day and month the file's dates were read in; `nil` for formats without one.
    var dateOrder: String?
    /// The other settings that change how a file reads: labels of pseudo-rows, packages that
    /// are no launches (`ImportOptions/readingKey`).
    var options: String?

    /// A row for an import that is starting: its counts are filled in by ``finish(_:)``.
    init(starting path: String, device: String, importedAt: Date) {
        self.path = path
        sha256 = ""
        format = ""
        self.device = device
        rowsRead = 0
        stored = 0
        duplicates = 0
        rejected = 0
        self.importedAt = importedAt.milliseconds
    }

    /// Takes what the import read and stored.
    mutating func finish(_ report: ImportReport) {
        sha256 = report.sha256
        format = report.format.rawValue
        rowsRead = report.rowsRead
        stored = report.stored
        duplicates = report.duplicates
        rejected = report.rejected
        timeZone = report.timeZone
        dateOrder = report.dateOrder?.rawValue
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// How this import read its file.
    var reading: ImportReading {
        ImportReading(
            id: id ?? 0, path: path, format: format, device: device, timeZone: timeZone, dateOrder: dateOrder,
            options: options)
    }

    /// The earlier imports of the file with that SHA-256 whose events the store still holds,
    /// oldest first: an import whose events are all gone (or that found them all stored) cannot
    /// have its events stored twice.
    static func importsHoldingEvents(
        ofSHA256 sha256: String, before id: Int64, _ db: Database
    ) throws -> [ImportLogRecord] {
        try fetchAll(
            db,
            sql: """
                SELECT * FROM importLog WHERE sha256 = ?1 AND id < ?2
                AND (EXISTS (SELECT 1 FROM launch WHERE importId = importLog.id)
                    OR EXISTS (SELECT 1 FROM fetch WHERE importId = importLog.id)
                    OR EXISTS (SELECT 1 FROM notification WHERE importId = importLog.id)
                    OR EXISTS (SELECT 1 FROM deviceEvent WHERE importId = importLog.id))
                ORDER BY id
                """, arguments: [sha256, id])
    }
}
