import FetchPredictorCore
import Foundation

/// Reads Android's own usage history, as `adb shell dumpsys usagestats > usage.txt` writes it.
///
/// Event lines look like `time="2026-09-26 23:10:03" type=ACTIVITY_RESUMED package=com.example.chat
/// class=... instanceId=1`; every other line (section titles, statistics) is skipped. Times are
/// local with no zone: the import's zone places them. The same event is listed in several
/// sections (daily, weekly, monthly, yearly, "Last 24 hour events"): each is read once.
///
/// - A launch is a resume (`ACTIVITY_RESUMED`, on older Android `MOVE_TO_FOREGROUND`) of a package
///   other than the one in front; launchers and the system UI end a visit and are not launches
///   (the rules of ``ActivityWatchParser``), and so do the screen turning off and the device
///   starting or shutting down.
/// - `SCREEN_INTERACTIVE`, `SCREEN_NON_INTERACTIVE` and `KEYGUARD_HIDDEN` (an unlock) are device
///   events; `NOTIFICATION_INTERRUPTION` is a notification of its package. Other types are skipped.
struct UsageStatsDumpParser: LogParser {
    let timeZone: TimeZone?
    let extraIgnoredPackages: Set<String>

    /// What an event type means for the import.
    enum Meaning: UInt8 {
        case resume, screenOn, screenOff, unlock, boundary, notification
    }

    static let types: [String: Meaning] = [
        "ACTIVITY_RESUMED": .resume, "MOVE_TO_FOREGROUND": .resume, "SCREEN_INTERACTIVE": .screenOn,
        "SCREEN_NON_INTERACTIVE": .screenOff, "KEYGUARD_HIDDEN": .unlock, "DEVICE_STARTUP": .boundary,
        "DEVICE_SHUTDOWN": .boundary, "NOTIFICATION_INTERRUPTION": .notification,
    ]

    /// Whether a line of the dump is an event line: what detection looks for.
    static func isEventLine(_ line: Substring) -> Bool {
        line.contains("time=\"") && line.contains(" type=")
    }

    /// An event line's time (its text) and its `key=value` fields.
    static func fields(_ line: Substring) -> (time: Substring, values: [Substring: Substring])? {
        guard let start = line.range(of: "time=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        var values: [Substring: Substring] = [:]
        for part in rest[rest.index(after: close)...].split(separator: " ") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            values[part[..<equals]] = part[part.index(after: equals)...]
        }
        return (rest[..<close], values)
    }

    /// One event, compactly, for telling the repeats of the dump's sections apart.
    private struct Key: Hashable {
        var time: Milliseconds
        var meaning: Meaning
        var package: Int32
        var classname: Int32
    }

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        guard let zone = timeZone else { throw ImportError.needsTimeZone(file: sink.file, format: .usageStatsDump) }
        var windows = VisitBuilder()
        var seen = Set<Key>()
        var names: [String: Int32] = [:]
        func id(_ text: Substring?) -> Int32 {
            let key = String(text ?? "")
            if let known = names[key] { return known }
            names[key] = Int32(names.count)
            return Int32(names.count - 1)
        }
        var sawEvent = false
        try LineSplitter(source).forEachLine { bytes, number in
            let text = String(decoding: bytes, as: UTF8.self)
            let line = Substring(text)
            guard Self.isEventLine(line) else { return true }
            sawEvent = true
            sink.countRow()
            guard let (timeText, values) = Self.fields(line) else {
                sink.reject(line: number, field: "time", reason: "the time has no closing quote")
                return true
            }
            guard let local = TimestampParser.parseLocal(String(timeText)) else {
                sink.reject(
                    line: number, field: "time",
                    reason: "'\(timeText.prefix(40))' is not a time such as 2026-09-26 23:10:03")
                return true
            }
            let time = local.instant(in: zone).0
            let type = values["type"] ?? ""
            let package = values["package"] ?? ""
            guard let meaning = Self.types[String(type)] else { return true }
            // The same event in another section of the dump.
            let key = Key(time: time, meaning: meaning, package: id(package), classname: id(values["class"]))
            guard seen.insert(key).inserted else { return true }
            switch meaning {
            case .resume, .notification:
                guard !package.isEmpty else {
                    sink.reject(line: number, field: "package", reason: "a \(type) event names no package")
                    return true
                }
                if meaning == .notification {
                    try sink.emit(
                        Event(kind: .notification, app: String(package), time: time), line: number, timeField: "time",
                        appField: "package")
                } else {
                    let ignored = ActivityWatchParser.isIgnored(
                        package: String(package), classname: values["class"].map(String.init),
                        extra: extraIgnoredPackages)
                    windows.add(app: String(package), time: time, duration: 0, ignored: ignored, line: number)
                }
            case .screenOn:
                try sink.emit(Event(kind: .screenOn, app: "", time: time), line: number, timeField: "time")
            case .screenOff:
                windows.addBreak(at: time, line: number)
                try sink.emit(Event(kind: .screenOff, app: "", time: time), line: number, timeField: "time")
            case .unlock:
                try sink.emit(Event(kind: .unlock, app: "", time: time), line: number, timeField: "time")
            case .boundary:
                windows.addBreak(at: time, line: number)
            }
            return true
        }
        if !sawEvent {
            throw ImportError.malformed(
                file: source.name, line: 1,
                reason: "no event line (time=\"...\" type=...): it is not the output of adb shell dumpsys usagestats")
        }
        try windows.emit(into: sink, appField: "package")
    }
}
