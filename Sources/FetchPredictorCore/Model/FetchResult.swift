/// How a background fetch ended, as an app reports it to the system.
///
/// The raw values are the names iOS gives the three outcomes of
/// `UIBackgroundFetchResult`, and the names used in every import format and in JSON output.
public enum FetchResult: String, Sendable, Hashable, Codable, CaseIterable {
    /// The fetch brought new content.
    case newData
    /// The fetch worked but there was nothing new.
    case noData
    /// The fetch failed.
    case failed

    /// Reads a result as written in logs, accepting the usual spellings.
    ///
    /// `newData`, `new-data`, `new_data` and `new` (any case) all read as ``newData``;
    /// likewise for the other two.
    /// - Parameter text: the text of the field.
    public init?(parsing text: some StringProtocol) {
        let folded = text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        switch folded {
        case "newdata", "new": self = .newData
        case "nodata", "none", "nonew": self = .noData
        case "failed", "fail", "failure", "error": self = .failed
        default: return nil
        }
    }
}
