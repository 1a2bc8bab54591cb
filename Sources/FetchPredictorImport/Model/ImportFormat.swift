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
}
