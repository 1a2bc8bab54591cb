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
}
