import FetchPredictorCore
import Foundation

/// Reads the CSV exports of the Android app "App Usage".
///
/// Two conventions exist: `"App name","Date","Time","Duration"` quoted, dates `dd/mm/yy`, 12-hour
/// times, newest first, with a footer; and `App,Date,Time,Duration` unquoted, dates `M/D/YYYY`,
/// 24-hour times, oldest first. Times are local, with no zone: the import's time zone resolves
/// them. When the whole file cannot tell day/month from month/day, the import stops and asks for
/// a ``DateOrder`` rather than guess.
///
/// An app's rows are its windows in front, made into visits by ``VisitBuilder`` as every format
/// that lists windows is: a launch is the first row of a visit, and an app's rows more than five
/// minutes apart are two visits. Rows for the screen and the device (`Screen on (unlocked)`,
/// `Screen off`, `Device boot`, ...) end a visit and become device events; rows of App Usage
/// itself end a visit and are not launches.
struct AppUsageParser: LogParser {
    /// The zone of the file's local times; `nil` refuses the file, as no zone is ever assumed.
    let timeZone: TimeZone?
    let dateOrder: DateOrder?

    /// Labels of other pseudo-rows than the known ones, from ``ImportOptions/rowLabels``.
    let extraLabels: [String: RowLabel]

    init(timeZone: TimeZone?, dateOrder: DateOrder?, extraLabels: [String: RowLabel] = [:]) {
        self.timeZone = timeZone
        self.dateOrder = dateOrder
        self.extraLabels = extraLabels
    }

    /// Pseudo-rows for the screen, the device and notifications, lower-cased, in the languages
    /// known: a notification's label is followed by the app in brackets.
    static let knownLabels: [String: RowLabel] = [
        "screen on (unlocked)": .unlock,
        "screen on (locked)": .screenOn,
        "screen on": .screenOn,
        "screen off (locked)": .screenOff,
        "screen off": .screenOff,
        "screen off (unlocked)": .screenOff,
        "device boot": .boot,
        "device shutdown": .shutdown,
        "notification posted": .notification,
        // App Usage writes them in the phone's language: Polish ...
        "ekran włączony (odblokowany)": .unlock,
        "ekran włączony (zablokowany)": .screenOn,
        "ekran włączony": .screenOn,
        "ekran wyłączony (zablokowany)": .screenOff,
        "ekran wyłączony": .screenOff,
        // ... and French.
        "écran allumé (déverrouillé)": .unlock,
        "écran allumé (verrouillé)": .screenOn,
        "écran allumé": .screenOn,
        "écran éteint (verrouillé)": .screenOff,
        "écran éteint": .screenOff,
        "notifications envoyées": .notification,
        "notification envoyée": .notification,
    ]

    /// What a row's name stands for when it is a pseudo-row: a device row, or a notification of
    /// the app in its brackets; `nil` for an app's row.
    static func pseudoRow(_ name: String, labels: [String: RowLabel]) -> (meaning: RowLabel, app: String?)? {
        let folded = name.lowercased()
        if let meaning = labels[folded], meaning != .notification { return (meaning, nil) }
        // "Notification posted (Messenger)": the label, a space, the app in brackets.
        guard name.hasSuffix(")"), let open = folded.range(of: " (") else { return nil }
        guard labels[String(folded[..<open.lowerBound])] == .notification else { return nil }
        let offset = folded.distance(from: folded.startIndex, to: open.upperBound)
        let app = String(name.dropFirst(offset).dropLast())
        return app.isEmpty ? nil : (.notification, app)
    }

    /// Rows of the logging app itself, and its notes about its own history ("Activity history
    /// enabled", written when history is switched on), which end a run but are not launches.
    static let selfNames: Set<String> = [
        "app usage", "activity history enabled", "activity history disabled", "notification history enabled",
        "notification history disabled",
    ]

    struct Columns {
        var app = -1, date = -1, time = -1, duration = -1
        var count = 0
    }

    static func columns(ofHeader line: UnsafeBufferPointer<UInt8>) -> Result<Columns, ImportError.HeaderProblem> {
        CSVTable.names(ofHeader: line).flatMap { names in
            var columns = Columns()
            columns.count = names.count
            for (index, name) in names.enumerated() {
                switch name {
                case "app name", "app": columns.app = index
                case "date": columns.date = index
                case "time": columns.time = index
                case "duration": columns.duration = index
                default: break
                }
            }
            let required = [("App name", columns.app), ("Date", columns.date), ("Time", columns.time)]
            if let problem = CSVTable.missing(required) { return .failure(problem) }
            return .success(columns)
        }
    }

    /// A numeric date split in three, before its order is known.
    struct RawDate {
        var first: Int, second: Int, third: Int
        var firstIsYear: Bool

        /// The date as exports write it: `d/m/yy` or `m/d/yy` (one or two digits, a year of two
        /// or four), or year first, `yyyy-mm-dd`; anything else (`4//7/24`, `4/7/202`) is none.
        init?(_ text: String) {
            let parts = text.split(
                omittingEmptySubsequences: false, whereSeparator: { $0 == "/" || $0 == "-" || $0 == "." })
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
            else {
                return nil
            }
            firstIsYear = parts[0].count == 4
            if firstIsYear {
                guard (1...2).contains(parts[1].count), (1...2).contains(parts[2].count) else { return nil }
            } else {
                guard (1...2).contains(parts[0].count), (1...2).contains(parts[1].count),
                    parts[2].count == 2 || parts[2].count == 4
                else {
                    return nil
                }
            }
            first = a
            second = b
            third = c
        }

        /// Whether the date is a day of the calendar in neither order, such as `13/13/24`.
        var isNoDate: Bool {
            [DateOrder.dmy, .mdy].allSatisfy { order in
                let (year, month, day) = fields(order)
                return !(1...12).contains(month) || !(1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
            }
        }

        func fields(_ order: DateOrder) -> (year: Int, month: Int, day: Int) {
            if firstIsYear { return (first, second, third) }
            let year = third < 100 ? 2000 + third : third
            return order == .dmy ? (year, second, first) : (year, first, second)
        }
    }

    /// Reads a wall-clock time: `5:29:39 pm`, `17:29:39` or `17:29`.
    static func clock(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        var body = text.lowercased().trimmingCharacters(in: .whitespaces)
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where body.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            body = String(body.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        let parts = body.split(separator: ":")
        guard parts.count == 2 || parts.count == 3, let hour = Int(parts[0]), let minute = Int(parts[1]) else {
            return nil
        }
        let second = parts.count == 3 ? Int(parts[2]) : 0
        guard let second, (0...59).contains(minute), (0...59).contains(second) else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            return (hour % 12 + (meridiem == "p" ? 12 : 0), minute, second)
        }
        guard (0...23).contains(hour) else { return nil }
        return (hour, minute, second)
    }

    /// Reads a duration: `H:MM:SS`, `MM:SS`, or seconds.
    static func duration(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        if parts.count == 1 { return Double(text) }
        var total = 0.0
        for part in parts {
            guard let value = Double(part), value >= 0 else { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// First pass: the order of day and month that the whole file allows.
    /// The order of day and month the file's dates need: `nil` when every date is year-first
    /// (or there are none) and the order does not matter.
    ///
    /// With an order given, it is checked: one that the dates contradict, or that makes them jump
    /// by weeks from row to row where the other order makes them follow one another, is refused.
    /// Without one, a file whose dates read either way is refused, with the order its rows suggest.
    ///
    /// - Throws: ``ImportError/ambiguousDates(file:example:line:suggested:)``,
    ///   ``ImportError/dateOrderContradicted(file:line:given:read:)``,
    ///   ``ImportError/dateOrderUnlikely(file:line:given:suggested:jumped:jumpedSuggested:)`` or
    ///   ``ImportError/malformed(file:line:reason:)``.
    func checkDateOrder(_ source: any ByteSource, given: DateOrder?) throws -> DateOrder? {
        let splitter = LineSplitter(source)
        var columns: Columns?
        var fields = CSVLine()
        var dayFirst = false, monthFirst = false
        var example: (String, Int)?
        // Days jumped from row to row, read each way, over rows both ways can read.
        var jumps: [DateOrder: Int] = [.dmy: 0, .mdy: 0]
        var previous: [DateOrder: Int] = [:]
        try splitter.forEachLine { line, number in
            guard let found = columns else {
                if case .success(let header) = Self.columns(ofHeader: line) { columns = header }
                return true
            }
            guard fields.split(line) == nil, fields.count > found.date,
                let date = RawDate(fields.string(found.date))
            else { return true }
            if date.firstIsYear { return true }
            // A row whose date reads in neither order is that row's fault, not the file's order.
            if date.isNoDate { return true }
            if date.first > 12 { dayFirst = true }
            if date.second > 12 { monthFirst = true }
            if example == nil { example = (fields.string(found.date), number) }
            for order in [DateOrder.dmy, .mdy] {
                let (year, month, day) = date.fields(order)
                guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
                else { continue }
                let days = CivilDate.daysSince1970(year: year, month: month, day: day)
                if let last = previous[order] { jumps[order, default: 0] += abs(days - last) }
                previous[order] = days
            }
            return true
        }
        if dayFirst && monthFirst {
            throw ImportError.malformed(
                file: source.name, line: example?.1 ?? 1,
                reason: "the dates mix day/month and month/day orders, so none of them can be trusted")
        }
        guard let example else { return nil }  // Every date is year-first: the order does not matter.
        let read: DateOrder? = dayFirst ? .dmy : monthFirst ? .mdy : nil
        // The order the rows suggest: the one whose dates follow one another, when the other
        // jumps by weeks.
        let dmy = jumps[.dmy] ?? 0, mdy = jumps[.mdy] ?? 0
        let suggested: DateOrder? =
            dmy * 8 < mdy && mdy >= 60 ? .dmy : mdy * 8 < dmy && dmy >= 60 ? .mdy : nil
        if let given {
            if let read, read != given {
                throw ImportError.dateOrderContradicted(file: source.name, line: example.1, given: given, read: read)
            }
            if read == nil, let suggested, suggested != given {
                throw ImportError.dateOrderUnlikely(
                    file: source.name, line: example.1, given: given, suggested: suggested,
                    jumped: jumps[given] ?? 0, jumpedSuggested: jumps[suggested] ?? 0)
            }
            return given
        }
        if let read { return read }
        throw ImportError.ambiguousDates(
            file: source.name, example: example.0, line: example.1, suggested: suggested)
    }

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        guard let zone = timeZone else { throw ImportError.needsTimeZone(file: sink.file, format: .appUsage) }
        // Every row's local time is placed in the zone; the zone is asked once a quarter hour.
        var instants = LocalInstantCache(zone: zone)
        let labels = Self.knownLabels.merging(
            extraLabels.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, extra in extra })
        let checked = try checkDateOrder(source, given: dateOrder)
        try source.rewind()
        sink.dateOrder = checked
        let order = checked ?? .dmy
        let splitter = LineSplitter(source)
        var columns: Columns?
        var fields = CSVLine()
        var inFooter = false
        // An app's rows are its windows in front; the screen's and the device's rows end a visit.
        var windows = VisitBuilder(timeField: "Date", sameInstantFollowsFile: true)
        try splitter.forEachLine { line, number in
            guard let found = columns else {
                switch Self.columns(ofHeader: line) {
                case .success(let header): columns = header
                case .failure(let problem):
                    throw ImportError.malformed(
                        file: source.name, line: number,
                        reason: "\(problem.reason); an App Usage export starts with App name,Date,Time,Duration")
                }
                return true
            }
            if let problem = fields.split(line) {
                sink.countRow()
                sink.reject(line: number, field: "(row)", reason: problem)
                return true
            }
            if fields.count <= 1 {
                // A blank row starts the footer; footer rows are a single text field.
                if fields.count == 0 || fields.isEmpty(0) || inFooter {
                    inFooter = true
                    return true
                }
            }
            sink.countRow()
            guard fields.count >= found.count else {
                sink.reject(
                    line: number, field: "(row)",
                    reason: "the row has \(fields.count) fields where the header has \(found.count)")
                return true
            }
            let name = fields.string(found.app)
            let dateText = fields.string(found.date)
            guard let rawDate = RawDate(dateText) else {
                sink.reject(
                    line: number, field: "Date",
                    reason:
                        "'\(dateText.prefix(40))' is not a date as App Usage writes them, such as 31/12/23 or 4/19/24")
                return true
            }
            if rawDate.isNoDate {
                sink.reject(
                    line: number, field: "Date", reason: "'\(dateText)' is a date neither as day/month nor as month/day"
                )
                return true
            }
            let (year, month, day) = rawDate.fields(order)
            guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
                sink.reject(
                    line: number, field: "Date", reason: "'\(dateText)' is not a valid \(order.rawValue) date")
                return true
            }
            let timeText = fields.string(found.time)
            guard let clock = Self.clock(timeText) else {
                sink.reject(
                    line: number, field: "Time",
                    reason: "'\(timeText.prefix(40))' is not a time such as 5:29:39 pm or 17:29:39")
                return true
            }
            var duration = 0.0
            if found.duration >= 0, !fields.isEmpty(found.duration) {
                let text = fields.string(found.duration)
                guard let value = Self.duration(text) else {
                    sink.reject(
                        line: number, field: "Duration",
                        reason: "'\(text.prefix(40))' is not a duration such as 0:01:30")
                    return true
                }
                duration = value
            }
            let local = DateFields(
                year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: clock.second)
            let time = instants.instant(local)
            let folded = name.lowercased()
            if let row = Self.pseudoRow(name, labels: labels) {
                if let app = row.app {
                    // A notification comes while any app may be in front: it does not end a run.
                    try sink.emit(
                        Event(kind: .notification, app: app, time: time), line: number, timeField: "Date",
                        appField: "App name")
                    return true
                }
                try windows.addBreak(at: time, line: number)
                if let kind = row.meaning.deviceEvent {
                    try sink.emit(Event(kind: kind, app: "", time: time), line: number, timeField: "Date")
                }
                return true
            }
            if Self.selfNames.contains(folded) {
                try windows.addBreak(at: time, line: number)
                return true
            }
            try windows.add(app: name, time: time, duration: duration, ignored: false, line: number)
            return true
        }
        try windows.emit(into: sink, appField: "App name")
        if columns == nil { throw ImportError.empty(file: source.name) }
    }
}
