import FetchPredictorCore

/// Reads an ActivityWatch "export all buckets" JSON file, streaming it.
///
/// - Launches come from `currentwindow` buckets. Their events, sorted by time, are grouped into
///   visits: consecutive events of the same package (or, in desktop exports, the same `app`) are
///   one visit, and its launch is the visit's first event, with the visit's total duration.
///   Launchers, the system UI and ActivityWatch itself (``ActivityWatchParser/isIgnored(package:classname:)``)
///   end a visit but are not launches.
/// - Unlocks come from `os.lockscreen.unlocks` buckets.
/// - Other buckets are skipped.
///
/// The events of a bucket are kept in a ``VisitBuilder`` (about 40 bytes each) to sort them,
/// because exports list them newest first.
struct ActivityWatchParser: LogParser {
    /// Packages that end a visit but are never launches, on the phones of every maker seen so far.
    static let ignoredPackages: Set<String> = [
        "android", "com.android.systemui", "net.activitywatch.android", "com.android.intentresolver",
        "com.android.permissioncontroller", "com.google.android.permissioncontroller",
        "com.android.packageinstaller", "com.google.android.packageinstaller", "com.miui.packageinstaller",
        "com.miui.global.packageinstaller",
        // Launchers.
        "com.miui.home", "com.mi.android.globallauncher", "com.sec.android.app.launcher",
        "com.google.android.apps.nexuslauncher", "com.android.launcher", "com.android.launcher2",
        "com.android.launcher3", "com.huawei.android.launcher", "com.hihonor.android.launcher",
        "com.oppo.launcher", "com.coloros.launcher", "com.bbk.launcher2", "net.oneplus.launcher",
        "com.teslacoilsw.launcher", "com.microsoft.launcher", "com.motorola.launcher3",
        "com.lge.launcher3", "com.sonymobile.home", "com.nothing.launcher", "com.transsion.hilauncher",
        "com.realme.launcher", "bitpit.launcher", "ch.deletescape.lawnchair.plah", "app.lawnchair",
    ]

    /// Whether an activity is a launcher or part of the system rather than an app the user opens.
    ///
    /// Besides ``ignoredPackages`` and the user's own list, a package with a dotted component
    /// that contains `launcher`, or an activity class named `Launcher`, is a launcher.
    static func isIgnored(package: String, classname: String?, extra: Set<String>) -> Bool {
        if ignoredPackages.contains(package) || extra.contains(package) { return true }
        if package.split(separator: ".").contains(where: { $0.lowercased().contains("launcher") }) { return true }
        if let classname, classname.split(separator: ".").last == "Launcher" { return true }
        return false
    }

    let extraIgnoredPackages: Set<String>

    func parse(_ source: any ByteSource, into sink: ImportSink) throws {
        var reader = JSONReader(source)
        guard try reader.peek() != nil else { throw ImportError.empty(file: source.name) }
        try reader.beginObject()
        var sawBuckets = false
        var firstRoot = true
        while let key = try reader.nextKey(first: firstRoot) {
            firstRoot = false
            guard key == "buckets" else {
                try reader.skipValue()
                continue
            }
            sawBuckets = true
            try reader.beginObject()
            var firstBucket = true
            while try reader.nextKey(first: firstBucket) != nil {
                firstBucket = false
                try readBucket(&reader, sink: sink)
            }
        }
        try reader.expectEnd()
        if !sawBuckets {
            throw ImportError.malformed(
                file: source.name, line: 1, reason: "the JSON has no 'buckets': it is not an ActivityWatch export")
        }
    }

    private func readBucket(_ reader: inout JSONReader, sink: ImportSink) throws {
        var type: String?
        var windows = VisitBuilder()
        var unlocks: [(Milliseconds, Int)] = []
        try reader.beginObject()
        var first = true
        while let key = try reader.nextKey(first: first) {
            first = false
            switch key {
            case "type":
                type = try reader.readValue().string
            case "events":
                try reader.beginArray()
                var firstEvent = true
                while try reader.nextElement(first: firstEvent) {
                    firstEvent = false
                    _ = try reader.peek()  // so that the line is the event's own
                    let line = reader.line
                    let event = try reader.readValue()
                    sink.countRow()
                    guard case .object = event else {
                        sink.reject(line: line, field: "events", reason: "an event is not a JSON object")
                        continue
                    }
                    guard let stamp = event["timestamp"]?.string else {
                        sink.reject(line: line, field: "timestamp", reason: "the event has no timestamp")
                        continue
                    }
                    let time: Timestamp
                    switch TimestampParser.parse(stamp) {
                    case .success(let value): time = value
                    case .failure(let error):
                        sink.reject(line: line, field: "timestamp", reason: "'\(stamp.prefix(40))' is \(error)")
                        continue
                    }
                    let data = event["data"]
                    if let name = data?["package"]?.string ?? data?["app"]?.string {
                        let ignored = Self.isIgnored(
                            package: name, classname: data?["classname"]?.string, extra: extraIgnoredPackages)
                        try windows.add(
                            app: name, time: time.milliseconds, duration: event["duration"]?.number ?? 0,
                            ignored: ignored, line: line)
                    } else {
                        unlocks.append((time.milliseconds, line))
                    }
                }
            default:
                try reader.skipValue()
            }
        }
        switch type {
        case "currentwindow":
            // In a window bucket, an event that names no app is a damaged row.
            for (_, line) in unlocks {
                sink.reject(line: line, field: "data.package", reason: "the window event names no package or app")
            }
            try windows.emit(into: sink, appField: "data.package")
        case "os.lockscreen.unlocks":
            for (time, line) in unlocks {
                try sink.emit(Event(kind: .unlock, app: "", time: time), line: line)
            }
        default:
            break
        }
    }
}
