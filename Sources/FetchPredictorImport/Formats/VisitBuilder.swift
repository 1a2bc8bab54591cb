import FetchPredictorCore

/// Foreground windows of apps made into launches: consecutive windows of one app are one visit,
/// whose launch is its first window, with the visit's total duration. Windows that are not apps
/// (launchers, the system UI, a screen turned off), an unlock or a lock end a visit but are not
/// launches, and so does a gap of more than ``maximumGap`` between the end of one window of the
/// app and the start of the next: the app was not in front meanwhile, whatever the log says.
///
/// ActivityWatch exports (JSON and CSV) and Android's usage dump list windows newest first or in
/// sections, so they are kept, compactly (about 40 bytes each), and sorted at the end. A source
/// that gives them oldest first (knowledgeC.db, read in time order) streams them instead, in flat
/// memory: ``init(streamingInto:appField:)``.
struct VisitBuilder {
    private struct Window {
        var time: Milliseconds
        var duration: Double
        var app: Int32
        var ignored: Bool
        var line: Int32
        var utcOffset: Int32?
    }

    /// The longest gap between two windows of an app that are still one visit: five minutes.
    /// Logs leave short gaps inside one use (a window's end rounded, a notification shade); a
    /// longer one is the app opened again.
    static let maximumGap: Milliseconds = 5 * 60_000

    private var windows: [Window] = []
    private var names: [String] = []
    private var index: [String: Int32] = [:]
    /// Where a streaming builder hands its launches, and the field its messages name.
    private let stream: (sink: ImportSink, appField: String)?
    /// The field of a launch's time that messages name.
    private let timeField: String
    /// Whether windows at the same instant are taken in the direction the file runs (see
    /// ``init(timeField:sameInstantFollowsFile:)``), rather than in the order they were read.
    private let sameInstantFollowsFile: Bool
    /// The visit open, its duration so far, and when its last window ended.
    private var visit: Window?
    private var visitDuration = 0.0
    private var visitEnd: Milliseconds = 0

    /// A builder that keeps windows until ``emit(into:appField:)``; messages name the time as
    /// `timeField`.
    ///
    /// Windows at the same instant are taken in the order they were read, as ActivityWatch lists
    /// them (newest first, but in the order they were recorded within an instant). With
    /// `sameInstantFollowsFile`, they are taken in the direction the file runs, the reverse of
    /// the read order when it lists windows mostly newest first, as a log to the second that was
    /// written oldest first and exported reversed (App Usage) needs.
    init(timeField: String = "timestamp", sameInstantFollowsFile: Bool = false) {
        stream = nil
        self.timeField = timeField
        self.sameInstantFollowsFile = sameInstantFollowsFile
    }

    /// A builder for windows added oldest first: each visit's launch goes to the sink as soon as
    /// the visit ends; ``finish()`` ends the last one.
    init(streamingInto sink: ImportSink, appField: String) {
        stream = (sink, appField)
        timeField = "timestamp"
        sameInstantFollowsFile = false
    }

    /// Adds a window of an app (or of what is not one, when `ignored`).
    mutating func add(
        app: String, time: Milliseconds, duration: Double, ignored: Bool, line: Int, utcOffset: Int? = nil
    ) throws {
        let known: Int32
        if let found = index[app] {
            known = found
        } else {
            known = Int32(names.count)
            names.append(app)
            index[app] = known
        }
        let window = Window(
            time: time, duration: duration.isFinite ? max(0, duration) : 0, app: known, ignored: ignored,
            line: Int32(clamping: line), utcOffset: utcOffset.map { Int32(clamping: $0) })
        if let stream {
            try step(window, into: stream.sink, appField: stream.appField)
        } else {
            windows.append(window)
        }
    }

    /// Adds a moment that ends any visit: the screen turned off, the device shut down.
    mutating func addBreak(at time: Milliseconds, line: Int) throws {
        try add(app: "", time: time, duration: 0, ignored: true, line: line)
    }

    /// Ends the last visit of a streaming builder.
    mutating func finish() throws {
        if let stream { try close(into: stream.sink, appField: stream.appField) }
    }

    /// Hands each visit's launch to the sink, oldest first, with the line of its first window.
    mutating func emit(into sink: ImportSink, appField: String) throws {
        // Windows at the same instant keep their read order, or the file's direction (above).
        // The positions are sorted, not the windows: 4 bytes a window rather than a copy of each.
        let reversed = sameInstantFollowsFile && listsNewestFirst
        let order = windows.withUnsafeBufferPointer { windows in
            (0..<Int32(windows.count)).sorted { a, b in
                let first = windows[Int(a)].time, second = windows[Int(b)].time
                return first != second ? first < second : (reversed ? a > b : a < b)
            }
        }
        for position in order { try step(windows[Int(position)], into: sink, appField: appField) }
        try close(into: sink, appField: appField)
    }

    /// Whether the windows were read mostly newest first: more steps back in time from one
    /// window to the next than forward.
    private var listsNewestFirst: Bool {
        var back = 0, forward = 0
        for (earlier, later) in zip(windows, windows.dropFirst()) where earlier.time != later.time {
            if later.time < earlier.time { back += 1 } else { forward += 1 }
        }
        return back > forward
    }

    private mutating func step(_ window: Window, into sink: ImportSink, appField: String) throws {
        if window.ignored { return try close(into: sink, appField: appField) }
        let end = window.time + Milliseconds((window.duration * 1000).rounded())
        if let open = visit, open.app == window.app, window.time - visitEnd <= Self.maximumGap {
            visitDuration += window.duration
            visitEnd = max(visitEnd, end)
            return
        }
        try close(into: sink, appField: appField)
        visit = window
        visitDuration = window.duration
        visitEnd = end
    }

    private mutating func close(into sink: ImportSink, appField: String) throws {
        guard let open = visit else { return }
        visit = nil
        let event = Event(
            kind: .launch, app: names[Int(open.app)], time: open.time, utcOffset: open.utcOffset.map(Int.init),
            duration: min(visitDuration, EventLimits.maximumDuration))
        try sink.emit(event, line: Int(open.line), timeField: timeField, appField: appField)
    }
}
