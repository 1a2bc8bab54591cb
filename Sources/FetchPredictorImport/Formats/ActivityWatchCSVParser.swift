import FetchPredictorCore

/// Reads the CSV that ActivityWatch's web UI exports for one bucket: a header naming `timestamp`,
/// `duration` and `data/package` (or `data/app`), usually `id,timestamp,duration,data/app,
/// data/classname,data/package`, then one window event a row, newest first, with UTC instants.
///
/// The launch rules are those of the JSON export (``ActivityWatchParser``): consecutive events of
/// one package are one visit; launchers, the system UI and ActivityWatch end a visit and are not
/// launches.
struct ActivityWatchCSVParser: LogParser {
    struct Columns {
        var timestamp = -1, duration = -1, app = -1, package = -1, classname = -1
        var count = 0
    }

    let extraIgnoredPackages: Set<String>

    /// The columns of a header line, or why it is not this format's header.
    static func columns(ofHeader line: UnsafeBufferPointer<UInt8>) -> Result<Columns, ImportError.HeaderProblem> {
        CSVTable.names(ofHeader: line).flatMap { names in
            var columns = Columns()
            columns.count = names.count
            for (index, name) in names.enumerated() {
                switch name {
                case "timestamp": columns.timestamp = index
                case "duration": columns.duration = index
                case "data/app": columns.app = index
                case "data/package": columns.package = index
                case "data/classname": columns.classname = index
                default: break
                }
            }
            guard columns.timestamp >= 0, columns.package >= 0 || columns.app >= 0 else {
                return .failure(.init(reason: "the header has no 'timestamp' and 'data/package' columns"))
            }
            return .success(columns)
        }
    }

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        var windows = VisitBuilder()
        let appColumn = "data/package"
        try CSVTable.read(
            source, into: sink, header: Self.columns(ofHeader:),
            needs: "an ActivityWatch csv starts id,timestamp,duration,data/app,...", columnCount: \.count
        ) { fields, found, number in
            let time: Timestamp
            switch TimestampParser.parse(fields.bytes(found.timestamp)) {
            case .success(let value): time = value
            case .failure(let error):
                let text = fields.string(found.timestamp)
                return sink.reject(line: number, field: "timestamp", reason: "'\(text.prefix(40))' is \(error)")
            }
            let package = found.package >= 0 && !fields.isEmpty(found.package) ? fields.string(found.package) : nil
            let app = found.app >= 0 && !fields.isEmpty(found.app) ? fields.string(found.app) : nil
            guard let name = package ?? app else {
                return sink.reject(line: number, field: appColumn, reason: "the row names no package or app")
            }
            var duration = 0.0
            if found.duration >= 0, !fields.isEmpty(found.duration) {
                let text = fields.string(found.duration)
                guard let value = Double(text), value.isFinite, value >= 0 else {
                    return sink.reject(
                        line: number, field: "duration", reason: "'\(text.prefix(40))' is not a number of seconds")
                }
                duration = value
            }
            let classname = found.classname >= 0 ? fields.string(found.classname) : nil
            try windows.add(
                app: name, time: time.milliseconds, duration: duration,
                ignored: ActivityWatchParser.isIgnored(
                    package: name, classname: classname, extra: extraIgnoredPackages),
                line: number)
        }
        try windows.emit(into: sink, appField: appColumn)
    }
}
