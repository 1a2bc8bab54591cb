import FetchPredictorImport
import Foundation

/// How an earlier import read its file, as every store's import log keeps it: what an import of
/// the same file must read the same way, or its events would be stored twice.
package struct ImportReading: Sendable {
    /// The import's id in the log.
    package var id: Int64
    /// The file as it was named then.
    package var path: String
    package var format: String
    package var device: String
    /// The zone its local times were read in; `nil` for formats that write instants.
    package var timeZone: String?
    package var dateOrder: String?
    /// `ImportOptions/readingKey` of the import: labels of pseudo-rows, ignored packages.
    package var options: String?

    package init(
        id: Int64, path: String, format: String, device: String, timeZone: String?, dateOrder: String?,
        options: String?
    ) {
        self.id = id
        self.path = path
        self.format = format
        self.device = device
        self.timeZone = timeZone
        self.dateOrder = dateOrder
        self.options = options
    }

    /// The options that read the file again as this import read it, but in `zone`: its format,
    /// date order and other settings (its reading key), and `skipInvalid` as it needed.
    package func options(in zone: TimeZone, skipInvalid: Bool) -> ImportOptions {
        var options = ImportOptions(
            format: ImportFormat(rawValue: format), device: device, timeZone: zone,
            dateOrder: dateOrder.flatMap(DateOrder.init(rawValue:)), skipInvalid: skipInvalid)
        options.read(readingKey: self.options)
        return options
    }

    /// How this import read its file differently from `report`'s, one phrase a difference
    /// ("time zone UTC, not Asia/Kolkata"); empty when the readings are the same.
    package func differences(from report: ImportReport, reading: String?) -> [String] {
        var found: [String] = []
        func compare(_ what: String, _ earlier: String?, _ now: String?) {
            if earlier != now { found.append("\(what) \(earlier ?? "none"), not \(now ?? "none")") }
        }
        compare("format", format, report.format.rawValue)
        compare("device", device, report.device)
        compare("time zone", timeZone, report.timeZone)
        compare("date order", dateOrder, report.dateOrder?.rawValue)
        if options != reading {
            found.append("labels and ignored packages \(options ?? "none"), not \(reading ?? "none")")
        }
        return found
    }

    /// Refuses an import that read its file otherwise than an earlier import of the same file
    /// whose events the store still holds.
    ///
    /// - Parameter earlier: the earlier imports of the file (by SHA-256) still holding events,
    ///   oldest first.
    /// - Throws: ``StoreError/importedOtherwise(file:earlier:earlierFile:differences:)`` naming
    ///   the first that read it otherwise.
    package static func refuseOtherReadings(
        of report: ImportReport, options: ImportOptions, earlier: [ImportReading]
    ) throws {
        for earlierImport in earlier {
            let differences = earlierImport.differences(from: report, reading: options.readingKey)
            if !differences.isEmpty {
                throw StoreError.importedOtherwise(
                    file: report.file, earlier: earlierImport.id, earlierFile: earlierImport.path,
                    differences: differences)
            }
        }
    }
}
