/// Collects what the parsers of one file find: events to store and rows to refuse, with the
/// counts of the import report.
final class ImportSession {
    let file: String
    let skipInvalid: Bool
    private let rejectionsKept: Int
    private let onReject: ((Rejection) -> Void)?
    private let store: (Event) throws -> Bool

    private(set) var rowsRead = 0
    private(set) var events = 0
    private(set) var stored = 0
    private(set) var duplicates = 0
    private(set) var rejected = 0
    private(set) var firstRejections: [Rejection] = []

    /// - Parameters:
    ///   - store: stores an event; returns whether it was new.
    init(
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
    @inline(__always) func countRow() { rowsRead += 1 }

    /// Checks an event against ``EventLimits`` and stores it, or refuses its row.
    ///
    /// Once a row has been refused and invalid rows are not skipped, the file will be rolled back,
    /// so later events are only checked, not stored.
    func emit(_ event: Event, line: Int, timeField: String = "timestamp", appField: String = "app") throws {
        if !event.kind.isDeviceEvent, let problem = EventLimits.problem(withAppName: event.app) {
            return reject(line: line, field: appField, reason: problem)
        }
        if let problem = EventLimits.problem(withTime: event.time) {
            return reject(line: line, field: timeField, reason: problem)
        }
        if let duration = event.duration, let problem = EventLimits.problem(withDuration: duration) {
            return reject(line: line, field: "duration", reason: problem)
        }
        events += 1
        guard rejected == 0 || skipInvalid else { return }
        if try store(event) { stored += 1 } else { duplicates += 1 }
    }

    /// Refuses one row.
    func reject(line: Int, field: String, reason: String) {
        rejected += 1
        let rejection = Rejection(file: file, line: line, field: field, reason: reason)
        if firstRejections.count < rejectionsKept { firstRejections.append(rejection) }
        onReject?(rejection)
    }
}
