import FetchPredictorCore

/// Foreground windows of apps, gathered in any order, made into launches: consecutive windows of
/// one app are one visit, whose launch is its first window, with the visit's total duration.
/// Windows that are not apps (launchers, the system UI, a screen turned off) end a visit but are
/// not launches.
///
/// ActivityWatch exports (JSON and CSV) and Android's usage events list windows newest first or
/// in sections, so they are kept, compactly (about 40 bytes each), and sorted at the end.
struct VisitBuilder {
    private struct Window {
        var time: Milliseconds
        var duration: Double
        var app: Int32
        var ignored: Bool
        var line: Int32
        var utcOffset: Int32?
    }

    private var windows: [Window] = []
    private var names: [String] = []
    private var index: [String: Int32] = [:]

    /// Adds a window of an app (or of what is not one, when `ignored`).
    mutating func add(
        app: String, time: Milliseconds, duration: Double, ignored: Bool, line: Int, utcOffset: Int? = nil
    ) {
        let known: Int32
        if let found = index[app] {
            known = found
        } else {
            known = Int32(names.count)
            names.append(app)
            index[app] = known
        }
        windows.append(
            Window(
                time: time, duration: duration.isFinite ? max(0, duration) : 0, app: known, ignored: ignored,
                line: Int32(clamping: line), utcOffset: utcOffset.map { Int32(clamping: $0) }))
    }

    /// Adds a moment that ends any visit: the screen turned off, the device shut down.
    mutating func addBreak(at time: Milliseconds, line: Int) {
        add(app: "", time: time, duration: 0, ignored: true, line: line)
    }

    /// Hands each visit's launch to the sink, oldest first, with the line of its first window.
    func emit(into sink: ImportSink, appField: String) throws {
        // Stable: windows at the same instant keep the order they were read in.
        let sorted = windows.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        var visit: Window?
        var visitDuration = 0.0
        func finish() throws {
            guard let open = visit else { return }
            visit = nil
            let event = Event(
                kind: .launch, app: names[Int(open.app)], time: open.time, utcOffset: open.utcOffset.map(Int.init),
                duration: min(visitDuration, EventLimits.maximumDuration))
            try sink.emit(event, line: Int(open.line), timeField: "timestamp", appField: appField)
        }
        for (_, window) in sorted {
            if window.ignored {
                try finish()
                continue
            }
            if let open = visit, open.app == window.app {
                visitDuration += window.duration
                continue
            }
            try finish()
            visit = window
            visitDuration = window.duration
        }
        try finish()
    }
}
