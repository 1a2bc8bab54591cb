/// Why a file was not imported. Nothing of the file was stored.
public enum ImportError: Error, Sendable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case empty(file: String)
    case notText(file: String, line: Int)
    case lineTooLong(file: String, line: Int, limit: Int)
    case unknownFormat(file: String, tried: [String])
    case ambiguousFormat(file: String, candidates: [ImportFormat])
    case ambiguousDates(file: String, example: String, line: Int, suggested: DateOrder? = nil)
    case invalidRows(file: String, rejected: Int, first: [Rejection])
    case malformed(file: String, line: Int, reason: String)
    /// The file could not be read in the format given, and reads as another.
    indirect case otherFormat(file: String, given: ImportFormat, detected: ImportFormat, error: ImportError)
    /// The format writes local times with no zone, and no zone was named for them.
    case needsTimeZone(file: String, format: ImportFormat)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "Cannot read \(file): \(reason)."
        case .empty(let file):
            return "\(file) holds no events (it is empty, or a header alone): there is nothing to import."
        case .notText(let file, let line):
            return
                "\(file):\(line): the file is not text (it holds a NUL byte), nor a knowledgeC.db; give a usage log in one of the formats fetchpredict import --help lists."
        case .lineTooLong(let file, let line, let limit):
            return
                "\(file):\(line): the line is longer than \(limit / 1024) KiB, which no line-based format (csv, jsonl, App Usage, dumpsys) writes; check that this is the right file."
        case .unknownFormat(let file, let tried):
            return
                "\(file) is in no format FetchPredictor knows; tried \(tried.joined(separator: "; ")). Give --format if you know it."
        case .ambiguousFormat(let file, let candidates):
            return
                "\(file) could be read as \(candidates.map(\.rawValue).joined(separator: " or ")); give --format to choose."
        case .ambiguousDates(let file, let example, let line, let suggested):
            let hint = suggested.map {
                " (read as \($0.rawValue), they follow one another from row to row; read the other way, they jump by weeks)"
            }
            return
                "\(file): the dates (such as '\(example)' on line \(line)) read as day/month or month/day alike\(hint ?? ""); give --date-order dmy or --date-order mdy."
        case .invalidRows(let file, let rejected, let first):
            let shown = first.prefix(1).map(\.description).joined()
            return
                "\(file) was not imported: \(rejected) invalid row\(rejected == 1 ? "" : "s"), the first: \(shown). Fix the file, or give --skip-invalid to store the valid rows."
        case .malformed(let file, let line, let reason):
            return "\(file):\(line): \(reason); nothing of the file was stored."
        case .otherFormat(let file, let given, let detected, let error):
            return
                "\(file) is not \(given.rawValue), as --format says: it reads as \(detected.rawValue), so leave out --format or give --format \(detected.rawValue). Read as \(given.rawValue): \(error)"
        case .needsTimeZone(let file, let format):
            return
                "\(file) (\(format.rawValue)) writes local times with no time zone, and its device has none; nothing was stored: give the zone the phone was in, such as --time-zone Europe/Warsaw."
        }
    }
}

extension ImportError {
    /// Why a header or first line does not fit a format, for detection and its messages.
    struct HeaderProblem: Error {
        var reason: String
    }
}
