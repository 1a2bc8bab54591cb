import FetchPredictorCore
import Foundation

/// Reads usage-log files into events, with no store: detects each file's format, parses it, and
/// checks every event, handing the valid ones to the caller.
///
/// The event store runs it inside one transaction; other programs can use it on its own:
///
/// ```swift
/// var events: [Event] = []
/// let report = try LogReader(options: ImportOptions(timeZone: zone)).read("usage.csv") { event in
///     events.append(event)
///     return true
/// }
/// ```
public struct LogReader: Sendable {
    /// The settings of the import: format, date order, what to do with invalid rows.
    public var options: ImportOptions

    /// Creates a value with every field given.
    public init(options: ImportOptions) {
        self.options = options
    }

    /// Reads one file to its end.
    ///
    /// Without ``ImportOptions/skipInvalid``, a file with any invalid row throws
    /// ``ImportError/invalidRows(file:rejected:first:)`` after the events before that row have
    /// been handed over: the caller discards them, as the store does by rolling back.
    ///
    /// - Parameters:
    ///   - path: the file. Local times in formats that write no offset (App Usage) are read in
    ///     ``ImportOptions/timeZone``; with none, such a format is refused.
    ///   - progress: called as the file is read, with the bytes read and the file's size.
    ///   - onReject: called with every refused row.
    ///   - store: takes a valid event; returns whether it was new (for the report's counts).
    /// - Returns: what was read, stored, duplicate and refused, and the file's SHA-256.
    /// - Throws: ``ImportError`` when the file cannot be read, fits no format, writes local times
    ///   and ``ImportOptions/timeZone`` is `nil`, or (without
    ///   ``ImportOptions/skipInvalid``) has invalid rows; whatever `store` throws.
    /// - Complexity: O(n) in the file's bytes; memory stays flat except for ActivityWatch
    ///   exports, which keep about 40 bytes per window event.
    public func read(
        _ path: String, progress: ((Int64, Int64) -> Void)? = nil,
        onReject: ((Rejection) -> Void)? = nil, store: @escaping (Event) throws -> Bool
    ) throws -> ImportReport {
        let format = try options.format ?? FormatDetector.detect(path)
        let file = try FileReader(path: path, progress: progress)
        if file.size == 0 { throw ImportError.empty(file: path) }
        let sink = ImportSink(
            file: path, skipInvalid: options.skipInvalid, rejectionsKept: options.rejectionsKept, onReject: onReject,
            store: store)
        do {
            try format.parser(options: options).parse(file, into: sink)
            if sink.rejected > 0 && !options.skipInvalid {
                throw ImportError.invalidRows(file: path, rejected: sink.rejected, first: sink.firstRejections)
            }
        } catch let error as ImportError {
            // A format given that the file is not in: say which it is in, if detection knows.
            if options.format != nil, let detected = try? FormatDetector.detect(path), detected != format {
                throw ImportError.otherFormat(file: path, given: format, detected: detected, error: error)
            }
            throw error
        }
        if sink.rowsRead == 0 { throw ImportError.empty(file: path) }
        try file.finishHashing()
        return ImportReport(
            file: path, format: format, formatDetected: options.format == nil, sha256: file.digest(),
            device: options.device, rowsRead: sink.rowsRead, events: sink.events, stored: sink.stored,
            duplicates: sink.duplicates, rejected: sink.rejected, rejections: sink.firstRejections,
            timeZone: format.writesLocalTimes ? options.timeZone?.identifier : nil, dateOrder: sink.dateOrder)
    }
}
