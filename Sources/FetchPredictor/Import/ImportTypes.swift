import Foundation

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

/// How the day and the month are ordered in a numeric date such as `05/06/23`.
public enum DateOrder: String, Sendable, Codable, CaseIterable {
    /// Day, month, year: `31/12/23`.
    case dmy
    /// Month, day, year: `12/31/23`.
    case mdy
}

/// One row an import could not store, with where it is and why.
public struct Rejection: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// The line, counting from 1.
    public var line: Int
    /// The field at fault, by its name in the format.
    public var field: String
    /// Why the row was refused.
    public var reason: String

    /// Creates a value with every field given.
    public init(file: String, line: Int, field: String, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE: field 'timestamp': REASON`.
    public var description: String { "\(file):\(line): field '\(field)': \(reason)" }
}

/// What one import did.
public struct ImportReport: Sendable, Hashable, Codable {
    /// The file, as the user named it.
    public var file: String
    /// The format it was read as.
    public var format: ImportFormat
    /// Whether the format was detected rather than given.
    public var formatDetected: Bool
    /// The SHA-256 of the file's bytes, in hexadecimal.
    public var sha256: String
    /// The device the events were stored for, unless a row named another.
    public var device: String
    /// Data rows (or JSON events) read from the file.
    public var rowsRead: Int
    /// Events the rows made (several rows of one visit make one launch).
    public var events: Int
    /// Events stored for the first time.
    public var stored: Int
    /// Events that were in the store already.
    public var duplicates: Int
    /// Rows refused.
    public var rejected: Int
    /// The first refused rows (all of them went to the rejects handler).
    public var rejections: [Rejection]
}

/// Settings of one import.
public struct ImportOptions: Sendable {
    /// The format, or `nil` to detect it from the content.
    public var format: ImportFormat?
    /// The device the events belong to, unless a row names another.
    public var device: String
    /// The zone of local times in formats without offsets (App Usage); when `nil`, the device's.
    public var timeZone: TimeZone?
    /// The zone given to a device the import creates, when ``timeZone`` is `nil`.
    public var defaultTimeZone: TimeZone
    /// The order of day and month in App Usage dates, when the file cannot tell.
    public var dateOrder: DateOrder?
    /// Store the valid rows of a file with invalid ones, instead of refusing the whole file.
    public var skipInvalid: Bool
    /// Android packages that end a visit but are not launches, besides the built-in list.
    public var extraIgnoredPackages: Set<String>
    /// How many rejections the report keeps (all are passed to the rejects handler).
    public var rejectionsKept: Int

    /// Creates a value with every field given.
    public init(
        format: ImportFormat? = nil, device: String = "default", timeZone: TimeZone? = nil,
        defaultTimeZone: TimeZone = TimeZone(identifier: "UTC")!, dateOrder: DateOrder? = nil,
        skipInvalid: Bool = false, extraIgnoredPackages: Set<String> = [], rejectionsKept: Int = 20
    ) {
        self.format = format
        self.device = device
        self.timeZone = timeZone
        self.defaultTimeZone = defaultTimeZone
        self.dateOrder = dateOrder
        self.skipInvalid = skipInvalid
        self.extraIgnoredPackages = extraIgnoredPackages
        self.rejectionsKept = rejectionsKept
    }
}

/// Why a file was not imported. Nothing of the file was stored.
public enum ImportError: Error, Sendable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case empty(file: String)
    case notText(file: String, line: Int)
    case lineTooLong(file: String, line: Int, limit: Int)
    case unknownFormat(file: String, tried: [String])
    case ambiguousFormat(file: String, candidates: [ImportFormat])
    case ambiguousDates(file: String, example: String, line: Int)
    case invalidRows(file: String, rejected: Int, first: [Rejection])
    case malformed(file: String, line: Int, reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "Cannot read \(file): \(reason)."
        case .empty(let file):
            return "\(file) is empty: there is nothing to import."
        case .notText(let file, let line):
            return "\(file):\(line): the file is not text (it holds a NUL byte); give a csv, jsonl, ActivityWatch or App Usage export."
        case .lineTooLong(let file, let line, let limit):
            return "\(file):\(line): the line is longer than \(limit / 1024) KiB, which no supported format writes; check that this is the right file."
        case .unknownFormat(let file, let tried):
            return "\(file) is in no format FetchPredictor knows; tried \(tried.joined(separator: "; ")). Give --format if you know it."
        case .ambiguousFormat(let file, let candidates):
            return "\(file) could be read as \(candidates.map(\.rawValue).joined(separator: " or ")); give --format to choose."
        case .ambiguousDates(let file, let example, let line):
            return "\(file): the dates (such as '\(example)' on line \(line)) read as day/month or month/day alike; give --date-order dmy or --date-order mdy."
        case .invalidRows(let file, let rejected, let first):
            let shown = first.prefix(1).map(\.description).joined()
            return "\(file) was not imported: \(rejected) invalid row\(rejected == 1 ? "" : "s"), the first: \(shown). Fix the file, or give --skip-invalid to store the valid rows."
        case .malformed(let file, let line, let reason):
            return "\(file):\(line): \(reason); nothing of the file was stored."
        }
    }
}

extension ImportError {
    /// Why a header or first line does not fit a format, for detection and its messages.
    struct HeaderProblem: Error {
        var reason: String
    }
}
