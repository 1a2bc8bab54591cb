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

    /// The types, as bytes, with what they mean.
    private static let typeBytes: [([UInt8], Meaning)] = types.map { (Array($0.key.utf8), $0.value) }

    /// Where an event line's time (between the quotes) and its `type`, `package` and `class`
    /// values are, without copying the line; `nil` for a line that is no event line.
    struct Fields {
        var time: Range<Int>
        var type: Range<Int>?
        var package: Range<Int>?
        var classname: Range<Int>?
    }

    static func fields(_ line: UnsafeBufferPointer<UInt8>) -> Fields?? {
        let marker: [UInt8] = Array("time=\"".utf8)
        guard line.count > marker.count,
            let found = (0...(line.count - marker.count)).first(where: { at in
                line[at] == marker[0] && line[at..<(at + marker.count)].elementsEqual(marker)
            })
        else { return nil }
        let start = found + marker.count
        guard let close = line[start...].firstIndex(of: UInt8(ascii: "\"")) else { return .some(nil) }
        var fields = Fields(time: start..<close)
        var index = close + 1
        while index < line.count {
            while index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
            let tokenStart = index
            while index < line.count, line[index] != UInt8(ascii: " ") { index += 1 }
            guard let equals = line[tokenStart..<index].firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = line[tokenStart..<equals]
            let value = (equals + 1)..<index
            if key.elementsEqual("type".utf8) {
                fields.type = value
            } else if key.elementsEqual("package".utf8) {
                fields.package = value
            } else if key.elementsEqual("class".utf8) {
                fields.classname = value
            }
        }
        return .some(fields)
    }

    /// `YYYY-MM-DD HH:MM:SS`, read from bytes.
    static func localTime(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> DateFields? {
        guard bytes.count == 19 else { return nil }
        // Read in place, by offset from the slice's start: this runs for every line of the dump.
        let start = bytes.startIndex
        func byte(_ offset: Int) -> UInt8 { bytes[start + offset] }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for offset in range {
                guard byte(offset) &- 48 < 10 else { return nil }
                value = value * 10 + Int(byte(offset) - 48)
            }
            return value
        }
        guard byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-"), byte(10) == UInt8(ascii: " "),
            byte(13) == UInt8(ascii: ":"), byte(16) == UInt8(ascii: ":"), let year = number(0..<4),
            let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month),
            (1...CivilDate.daysInMonth(year: year, month: month)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        return DateFields(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
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
        var clock = LocalInstantCache(zone: zone)
        var windows = VisitBuilder()
        var seen = Set<Key>()
        var names: [String: Int32] = [:]
        func id(_ text: String) -> Int32 {
            if let known = names[text] { return known }
            names[text] = Int32(names.count)
            return Int32(names.count - 1)
        }
        var sawEvent = false
        try LineSplitter(source).forEachLine { line, number in
            guard let scanned = Self.fields(line) else { return true }
            func text(_ range: Range<Int>?) -> String {
                range.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) } ?? ""
            }
            guard let fields = scanned, let typeRange = fields.type else {
                // A time and no type: not an event line after all, unless the time is unclosed.
                if scanned == nil {
                    sawEvent = true
                    sink.countRow()
                    sink.reject(line: number, field: "time", reason: "the time has no closing quote")
                }
                return true
            }
            sawEvent = true
            sink.countRow()
            guard let local = Self.localTime(line[fields.time]) else {
                sink.reject(
                    line: number, field: "time",
                    reason: "'\(text(fields.time).prefix(40))' is not a time such as 2026-09-26 23:10:03")
                return true
            }
            let type = line[typeRange]
            guard let meaning = Self.typeBytes.first(where: { type.elementsEqual($0.0) })?.1 else { return true }
            let time = clock.instant(local)
            let package = text(fields.package)
            // The same event in another section of the dump.
            let key = Key(time: time, meaning: meaning, package: id(package), classname: id(text(fields.classname)))
            guard seen.insert(key).inserted else { return true }
            switch meaning {
            case .resume, .notification:
                guard !package.isEmpty else {
                    sink.reject(line: number, field: "package", reason: "a \(text(typeRange)) event names no package")
                    return true
                }
                if meaning == .notification {
                    try sink.emit(
                        Event(kind: .notification, app: package, time: time), line: number, timeField: "time",
                        appField: "package")
                } else {
                    let ignored = ActivityWatchParser.isIgnored(
                        package: package, classname: fields.classname.map { text($0) }, extra: extraIgnoredPackages)
                    try windows.add(app: package, time: time, duration: 0, ignored: ignored, line: number)
                }
            case .screenOn:
                try sink.emit(Event(kind: .screenOn, app: "", time: time), line: number, timeField: "time")
            case .screenOff:
                try windows.addBreak(at: time, line: number)
                try sink.emit(Event(kind: .screenOff, app: "", time: time), line: number, timeField: "time")
            case .unlock:
                try sink.emit(Event(kind: .unlock, app: "", time: time), line: number, timeField: "time")
            case .boundary:
                try windows.addBreak(at: time, line: number)
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
