import FetchPredictorCore
import Foundation

/// A reader of one log format: it reads a byte stream to its end and hands every event and
/// every refused row to a sink.
///
/// ```swift
/// let sink = ImportSink(file: "usage.csv", skipInvalid: false, rejectionsKept: 20, onReject: nil) { event in
///     events.append(event)
///     return true
/// }
/// try ImportFormat.csv.parser(options: ImportOptions(timeZone: zone)).parse(source, into: sink)
/// ```
public protocol LogParser {
    /// Reads `source` to its end.
    ///
    /// - Throws: ``ImportError`` when the source as a whole cannot be read in this format (no
    ///   header, broken JSON, a line too long); rows that cannot be read are refused through
    ///   the sink instead.
    func parse(_ source: any ByteSource, into sink: ImportSink) throws
}

extension ImportFormat {
    /// The parser of this format.
    ///
    /// - Parameters:
    ///   - options: the import's settings (packages to ignore, the order of dates, and the zone
    ///     of local times in formats that write no offset: a format that does
    ///     (``writesLocalTimes``) refuses to parse when ``ImportOptions/timeZone`` is `nil`).
    public func parser(options: ImportOptions) -> any LogParser {
        switch self {
        case .csv: CSVEventParser()
        case .jsonl: JSONLinesParser()
        case .activitywatch: ActivityWatchParser(extraIgnoredPackages: options.extraIgnoredPackages)
        case .appUsage:
            AppUsageParser(timeZone: options.timeZone, dateOrder: options.dateOrder, extraLabels: options.rowLabels)
        case .activitywatchCSV: ActivityWatchCSVParser(extraIgnoredPackages: options.extraIgnoredPackages)
        case .usageStatsDump:
            UsageStatsDumpParser(timeZone: options.timeZone, extraIgnoredPackages: options.extraIgnoredPackages)
        case .knowledgeC: KnowledgeCParser()
        }
    }
}
