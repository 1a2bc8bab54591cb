/// Why a file was not imported. Nothing of the file was stored.
public enum ImportError: Error, Sendable, CustomStringConvertible {
    /// The file is missing, not a regular file, or cannot be read.
    case unreadable(file: String, reason: String)
    /// The file holds no events.
    case empty(file: String)
    /// The file is not text (and not a knowledgeC.db): a NUL byte on the line.
    case notText(file: String, line: Int)
    /// A line is longer than any line-based format writes.
    case lineTooLong(file: String, line: Int, limit: Int)
    /// The file fits no format; why each one tried refused it.
    case unknownFormat(file: String, tried: [String])
    /// The file fits more than one format.
    case ambiguousFormat(file: String, candidates: [ImportFormat])
    /// The file's dates read as day/month and as month/day alike, and no order was given; the
    /// order its rows suggest, when they do.
    case ambiguousDates(file: String, example: String, line: Int, suggested: DateOrder? = nil)
    /// Rows that are not events, and invalid rows were not to be skipped; the first of them.
    case invalidRows(file: String, rejected: Int, first: [Rejection])
    /// The file as a whole does not read in its format from the line on.
    case malformed(file: String, line: Int, reason: String)
    /// The order of day and month given for the file's dates is not the one its dates are in.
    case dateOrderContradicted(file: String, line: Int, given: DateOrder, read: DateOrder)
    /// Read in the order given, the file's dates jump by weeks from row to row, and read in the
    /// other they follow one another: the days jumped in all, each way.
    case dateOrderUnlikely(
        file: String, line: Int, given: DateOrder, suggested: DateOrder, jumped: Int, jumpedSuggested: Int)
    /// The file could not be read in the format given, and reads as another.
    indirect case otherFormat(file: String, given: ImportFormat, detected: ImportFormat, error: ImportError)
    /// The format writes local times with no zone, and no zone was named for them.
    case needsTimeZone(file: String, format: ImportFormat)

    /// A sentence for people, in the library's terms: what is wrong with the file, and that
    /// nothing of it was stored. How to mend it is for the program that shows it to say, in its
    /// own terms: the cases carry what it needs.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "Cannot read \(file): \(reason)."
        case .empty(let file):
            return "\(file) holds no events (it is empty, or a header alone): there is nothing to import."
        case .notText(let file, let line):
            return "\(file):\(line): the file is not text (it holds a NUL byte), nor a knowledgeC.db."
        case .lineTooLong(let file, let line, let limit):
            return
                "\(file):\(line): the line is longer than \(limit / 1024) KiB, which no line-based format (csv, jsonl, App Usage, dumpsys) writes; check that this is the right file."
        case .unknownFormat(let file, let tried):
            return "\(file) is in no format FetchPredictor knows; tried \(tried.joined(separator: "; "))."
        case .ambiguousFormat(let file, let candidates):
            return "\(file) could be read as \(candidates.map(\.rawValue).joined(separator: " or "))."
        case .ambiguousDates(let file, let example, let line, let suggested):
            let hint = suggested.map {
                " (read as \($0.rawValue), they follow one another from row to row; read the other way, they jump by weeks)"
            }
            return
                "\(file): the dates (such as '\(example)' on line \(line)) read as day/month or month/day alike\(hint ?? "")."
        case .invalidRows(let file, let rejected, let first):
            return
                "\(file) was not imported: \(rejected) invalid row\(rejected == 1 ? "" : "s"), the first: \(first.prefix(1).map(\.description).joined())."
        case .malformed(let file, let line, let reason):
            return "\(file):\(line): \(reason); nothing of the file was stored."
        case .dateOrderContradicted(let file, let line, let given, let read):
            return
                "\(file):\(line): the date order \(given.rawValue) contradicts the file's dates, which are \(read.rawValue); nothing of the file was stored."
        case .dateOrderUnlikely(let file, let line, let given, let suggested, let jumped, let jumpedSuggested):
            return
                "\(file):\(line): read as \(given.rawValue), the dates jump \(jumped) days from row to row in all; read as \(suggested.rawValue), \(jumpedSuggested): the file looks \(suggested.rawValue), not \(given.rawValue) as given; nothing of the file was stored."
        case .otherFormat(let file, let given, let detected, let error):
            return
                "\(file) is not \(given.rawValue) as given: it reads as \(detected.rawValue). Read as \(given.rawValue): \(error)"
        case .needsTimeZone(let file, let format):
            return
                "\(file) (\(format.rawValue)) writes local times with no time zone, and its device has none; nothing was stored."
        }
    }
}

extension ImportError {
    /// Why a header or first line does not fit a format, for detection and its messages.
    struct HeaderProblem: Error {
        var reason: String
    }
}
