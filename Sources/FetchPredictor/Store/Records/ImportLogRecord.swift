import Foundation
import GRDB

/// A row of the `importLog` table: what one import read and stored, and when.
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

    init(_ report: ImportReport, importedAt: Date) {
        path = report.file
        sha256 = report.sha256
        format = report.format.rawValue
        device = report.device
        rowsRead = report.rowsRead
        stored = report.stored
        duplicates = report.duplicates
        rejected = report.rejected
        self.importedAt = importedAt.milliseconds
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
