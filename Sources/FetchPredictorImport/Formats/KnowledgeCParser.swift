import FetchPredictorCore
import Foundation
import GRDBSQLite

/// Reads Apple's knowledgeC.db (macOS `~/Library/Application Support/Knowledge/knowledgeC.db`,
/// and the same database taken from an iPhone) through SQLite, never changing it.
///
/// Rows of table `ZOBJECT`:
/// - `ZSTREAMNAME = '/app/inFocus'` (on an iPhone, `/app/usage`): an app (`ZVALUESTRING`, its
///   bundle id) in front from `ZSTARTDATE` to `ZENDDATE`, seconds since 2001-01-01 UTC, with the
///   local offset `ZSECONDSFROMGMT`. Consecutive intervals of one app are one visit, whose launch
///   is its first; SpringBoard, the Dock and the login window end a visit and are not launches.
///   When both streams are there, `/app/inFocus` is read.
/// - `ZSTREAMNAME = '/device/isLocked'`: intervals of a lock state; one whose `ZVALUEINTEGER` is 0
///   (unlocked) starts at an unlock, one that is 1 (locked) at a lock; both end any visit.
/// - The device's state: `/device/isPluggedIn` and `/device/lowPowerMode`, intervals of a state
///   whose `ZVALUEINTEGER` is 1 (plugged in, Low Power Mode on) or 0: a 1 is `powerConnected` or
///   `lowPowerOn` at its start and `powerDisconnected` or `lowPowerOff` at its end (when it has
///   one), a 0 the latter at its start. `/device/batteryPercentage`: the level in `ZVALUEDOUBLE`
///   at `ZSTARTDATE`, a `battery` event rounded to a whole percent; a database whose levels are
///   all 1 or less writes them as fractions of 1, and they are read so.
///
/// The file is opened read-only and immutable, so that neither it nor a `-shm` beside it is ever
/// written; when a `-wal` beside it holds changes not yet in the file, the file and its `-wal` are
/// copied into a private temporary folder and the copy is read (and removed).
struct KnowledgeCParser: LogParser {
    /// Apps that are the system rather than something the user opens.
    static let ignoredBundles: Set<String> = [
        "com.apple.springboard", "com.apple.dock", "com.apple.loginwindow", "com.apple.ScreenSaver.Engine",
        "com.apple.SecurityAgent", "com.apple.UserNotificationCenter",
    ]

    /// The streams of a state that is on (1) or off (0), and their events.
    static let stateStreams: [String: (on: EventKind, off: EventKind)] = [
        "/device/isPluggedIn": (.powerConnected, .powerDisconnected),
        "/device/lowPowerMode": (.lowPowerOn, .lowPowerOff),
    ]

    /// Seconds from 1970-01-01 to 2001-01-01, Apple's reference date.
    static let referenceDate: Double = 978_307_200

    /// The first bytes of every SQLite database.
    static let header = Array("SQLite format 3\0".utf8)

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        let path = source.name
        let wal = path + "-wal"
        var copyFolder: URL?
        defer { if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) } }
        var openPath = path
        if let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int, size > 0 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetchpredict-\(UUID())")
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            copyFolder = folder
            openPath = folder.appendingPathComponent("knowledgeC.db").path
            try FileManager.default.copyItem(atPath: path, toPath: openPath)
            try FileManager.default.copyItem(atPath: wal, toPath: openPath + "-wal")
        }
        let database = try Database(path: openPath, immutable: copyFolder == nil, file: path)
        guard try database.hasTable("ZOBJECT") else {
            throw ImportError.malformed(
                file: path, line: 1, reason: "an SQLite database with no ZOBJECT table: it is not a knowledgeC.db")
        }
        let streams = try database.strings("SELECT DISTINCT ZSTREAMNAME FROM ZOBJECT")
        let appStream = streams.contains("/app/inFocus") ? "/app/inFocus" : "/app/usage"
        // A table made by hand may lack the column of levels; knowledgeC's own has it.
        let hasLevels = try database.strings("SELECT name FROM pragma_table_info('ZOBJECT')").contains("ZVALUEDOUBLE")
        let levels = hasLevels ? "ZVALUEDOUBLE" : "NULL"
        var batteryScale = 1.0
        try database.forEachRow(
            "SELECT max(\(levels)) FROM ZOBJECT WHERE ZSTREAMNAME = '/device/batteryPercentage'"
        ) { row in if let highest = row.double(0), highest <= 1 { batteryScale = 100 } }
        // Rows come oldest first: visits stream, in flat memory.
        var windows = VisitBuilder(streamingInto: sink, appField: "ZVALUESTRING")
        try database.forEachRow(
            """
            SELECT Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT, ZVALUEINTEGER,
                \(levels)
            FROM ZOBJECT WHERE ZSTREAMNAME IN ('\(appStream)', '/device/isLocked', '/device/isPluggedIn',
                '/device/lowPowerMode', '/device/batteryPercentage') ORDER BY ZSTARTDATE, Z_PK
            """
        ) { row in
            sink.countRow()
            let number = Int(row.int(0) ?? 0)
            guard let start = row.double(3), start.isFinite, abs(start) < 1e11 else {
                sink.reject(line: number, field: "ZSTARTDATE", reason: "the row has no start date")
                return
            }
            let time = Milliseconds(((start + Self.referenceDate) * 1000).rounded())
            // The local offset then, when it is one a clock can have.
            let offset = row.int(5).flatMap { (-18 * 3600...18 * 3600).contains($0) ? Int($0) : nil }
            if let stream = row.string(1), let kinds = Self.stateStreams[stream] {
                switch row.int(6) {
                case 1:
                    try sink.emit(
                        Event(kind: kinds.on, app: "", time: time, utcOffset: offset), line: number,
                        timeField: "ZSTARTDATE")
                    if let end = row.double(4), end.isFinite, end > start, abs(end) < 1e11 {
                        let endTime = Milliseconds(((end + Self.referenceDate) * 1000).rounded())
                        try sink.emit(
                            Event(kind: kinds.off, app: "", time: endTime, utcOffset: offset), line: number,
                            timeField: "ZENDDATE")
                    }
                case 0:
                    try sink.emit(
                        Event(kind: kinds.off, app: "", time: time, utcOffset: offset), line: number,
                        timeField: "ZSTARTDATE")
                default:
                    sink.reject(line: number, field: "ZVALUEINTEGER", reason: "the state is neither 0 nor 1")
                }
                return
            }
            if row.string(1) == "/device/batteryPercentage" {
                guard let level = row.double(7), level.isFinite, (0...100).contains(level * batteryScale) else {
                    sink.reject(
                        line: number, field: "ZVALUEDOUBLE", reason: "the battery level is not a percent from 0 to 100")
                    return
                }
                try sink.emit(
                    .battery(Int((level * batteryScale).rounded()), at: time), line: number, timeField: "ZSTARTDATE")
                return
            }
            if row.string(1) == "/device/isLocked" {
                switch row.int(6) {
                case 0:
                    // An unlock ends any visit, as a lock does: the app in front after it is opened anew.
                    try windows.addBreak(at: time, line: number)
                    try sink.emit(
                        Event(kind: .unlock, app: "", time: time, utcOffset: offset), line: number,
                        timeField: "ZSTARTDATE")
                case 1: try windows.addBreak(at: time, line: number)
                default:
                    sink.reject(line: number, field: "ZVALUEINTEGER", reason: "a lock state is neither 0 nor 1")
                }
                return
            }
            guard let bundle = row.string(2), !bundle.isEmpty else {
                sink.reject(line: number, field: "ZVALUESTRING", reason: "the app row names no bundle id")
                return
            }
            var duration = 0.0
            if let end = row.double(4), end.isFinite, end >= start { duration = end - start }
            try windows.add(
                app: bundle, time: time, duration: duration, ignored: Self.ignoredBundles.contains(bundle),
                line: number, utcOffset: offset)
        }
        try windows.finish()
    }
}

extension KnowledgeCParser {
    /// A read-only SQLite connection with the few reads the parser makes; SQLite's errors become
    /// ``ImportError/malformed(file:line:reason:)`` naming the user's file.
    final class Database {
        private var handle: OpaquePointer?
        private let file: String

        init(path: String, immutable: Bool, file: String) throws {
            self.file = file
            var components = URLComponents()
            components.scheme = "file"
            components.path = path
            components.queryItems =
                [URLQueryItem(name: "mode", value: "ro")]
                + (immutable ? [URLQueryItem(name: "immutable", value: "1")] : [])
            let uri = components.string ?? "file:\(path)?mode=ro"
            let flags = immutable ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI
            let code = sqlite3_open_v2(immutable ? uri : path, &handle, flags, nil)
            guard code == SQLITE_OK else { throw failure(code) }
        }

        deinit { sqlite3_close(handle) }

        private func failure(_ code: Int32) -> ImportError {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            return .malformed(file: file, line: 1, reason: "SQLite cannot read it (\(message))")
        }

        func hasTable(_ name: String) throws -> Bool {
            var found = false
            try forEachRow("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '\(name)'") { _ in
                found = true
            }
            return found
        }

        func strings(_ sql: String) throws -> [String] {
            var values: [String] = []
            try forEachRow(sql) { row in if let value = row.string(0) { values.append(value) } }
            return values
        }

        /// One row of a statement, read by column.
        struct Row {
            let statement: OpaquePointer

            func int(_ column: Int32) -> Int64? {
                sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
            }

            func double(_ column: Int32) -> Double? {
                sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
            }

            func string(_ column: Int32) -> String? {
                guard let text = sqlite3_column_text(statement, column) else { return nil }
                return String(cString: text)
            }
        }

        func forEachRow(_ sql: String, _ body: (Row) throws -> Void) throws {
            var statement: OpaquePointer?
            let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            guard prepared == SQLITE_OK, let statement else { throw failure(prepared) }
            defer { sqlite3_finalize(statement) }
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw failure(code) }
                try body(Row(statement: statement))
            }
        }
    }
}
