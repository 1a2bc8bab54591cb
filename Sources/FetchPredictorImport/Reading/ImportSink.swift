import FetchPredictorCore

/// Where a ``LogParser`` hands what it finds: each event, checked against ``EventLimits`` and
/// passed on to be stored, and each refused row; it keeps the counts of the import report.
///
/// Once a row has been refused and invalid rows are not skipped, the file will be refused whole,
/// so later events are only checked, not passed on.
public final class ImportSink {
    /// The file, as messages name it.
    public let file: String
    /// Whether the valid rows of a file with invalid ones are passed on.
    public let skipInvalid: Bool
    private let rejectionsKept: Int
    private let onReject: ((Rejection) -> Void)?
    private let store: (Event) throws -> Bool

    /// Data rows (or JSON events) read.
    public private(set) var rowsRead = 0
    /// Valid events found.
    public private(set) var events = 0
    /// Events stored for the first time.
    public private(set) var stored = 0
    /// Events that were stored already.
    public private(set) var duplicates = 0
    /// Rows refused.
    public private(set) var rejected = 0
    /// The first rows refused, up to the number kept.
    public private(set) var firstRejections: [Rejection] = []
    /// The order of day and month the file's dates were read in, for formats that have one.
    public var dateOrder: DateOrder?

    /// - Parameters:
    ///   - file: the file, as messages name it.
    ///   - skipInvalid: whether to pass on the valid rows of a file with invalid ones.
    ///   - rejectionsKept: how many refused rows ``firstRejections`` keeps.
    ///   - onReject: called with every refused row.
    ///   - store: stores an event; returns whether it was new.
    public init(
        file: String, skipInvalid: Bool, rejectionsKept: Int, onReject: ((Rejection) -> Void)?,
        store: @escaping (Event) throws -> Bool
    ) {
        self.file = file
        self.skipInvalid = skipInvalid
        self.rejectionsKept = rejectionsKept
        self.onReject = onReject
        self.store = store
    }

    /// Counts a data row read from the file.
    @inline(__always) public func countRow() { rowsRead += 1 }

    /// Checks an event against ``EventLimits`` and passes it on, or refuses its row.
    public func emit(_ event: Event, line: Int, timeField: String = "timestamp", appField: String = "app") throws {
        if let (field, reason) = EventLimits.problem(with: event, timeField: timeField, appField: appField) {
            return reject(line: line, field: field, reason: reason)
        }
        events += 1
        guard rejected == 0 || skipInvalid else { return }
        if try store(event) { stored += 1 } else { duplicates += 1 }
    }

    /// Refuses one row.
    public func reject(line: Int, field: String, reason: String) {
        rejected += 1
        let rejection = Rejection(file: file, line: line, field: field, reason: reason)
        if firstRejections.count < rejectionsKept { firstRejections.append(rejection) }
        onReject?(rejection)
    }
}
