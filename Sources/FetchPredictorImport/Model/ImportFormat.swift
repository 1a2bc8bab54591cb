/// The log formats FetchPredictor imports.
public enum ImportFormat: String, Sendable, Codable, CaseIterable {
    /// `timestamp,app,event[,result,duration,device]`.
    case csv
    /// One JSON object a line, with the fields of ``csv``.
    case jsonl
    /// An ActivityWatch "export all buckets" JSON file.
    case activitywatch
    /// A CSV export of the Android app "App Usage".
    case appUsage = "app-usage"
    /// The CSV ActivityWatch's web UI exports for one bucket.
    case activitywatchCSV = "activitywatch-csv"
    /// Android's own usage events: `adb shell dumpsys usagestats`.
    case usageStatsDump = "dumpsys"
    /// Apple's knowledgeC.db (macOS, and iPhone extractions), an SQLite database.
    case knowledgeC = "knowledgec"

    /// Whether the format writes local times with no zone, which only a named zone can place.
    public var writesLocalTimes: Bool {
        self == .appUsage || self == .usageStatsDump
    }

    /// The format the start of a file fits, as an import without one detects it.
    ///
    /// - Throws: an ``ImportError`` when the file is empty, not text, or fits no format or more than one.
    public static func detect(inFileAt path: String) throws -> ImportFormat {
        try FormatDetector.detect(path)
    }

    /// The kind of source a file of this format comes from: the generic event files (`csv`,
    /// `jsonl`, which `export` writes), ActivityWatch (its export and a bucket's CSV), App
    /// Usage, Android's usage dump, or knowledgeC.db. One phone's logs are mostly of one kind.
    public var source: String {
        switch self {
        case .csv, .jsonl: "event files"
        case .activitywatch, .activitywatchCSV: "ActivityWatch"
        case .appUsage: "App Usage"
        case .usageStatsDump: "Android's usage dump"
        case .knowledgeC: "knowledgeC.db"
        }
    }
}
