import FetchPredictor
import Foundation

/// The report as one self-contained HTML file: no network at all, charts as inline SVG, styles
/// for light and dark screens and for print. Every chart carries its data in `data-` attributes,
/// which the tests read back.
///
/// Each section is a value (``Node``), written once by ``Node/render()``, which escapes every
/// text and formats every number.
enum HTMLReport {
    /// The whole page of a device, with its evaluation when there is one.
    static func page(_ data: ReportData) -> String {
        // What a reader opens it for first: the device, its plan and how well it does; then the
        // state, each app, and the table of every app's counts last (77 rows on a real log).
        var sections = [deviceSection(data), timelineSection(data)]
        if let evaluation = data.evaluation {
            sections.append(evaluationSection(evaluation, settings: data.backtestSettings))
        }
        sections.append(freshnessSection(data))
        if !data.state.isEmpty { sections.append(stateSection(data)) }
        sections += [appsSection(data), appTableSection(data)]
        return document(title: "FetchPredictor report: \(data.device)", sections: sections)
    }

    /// A page of an evaluation alone, as `evaluate --report` writes it.
    static func page(evaluation: BacktestReport, settings: BacktestSettings) -> String {
        document(title: "FetchPredictor evaluation", sections: [evaluationSection(evaluation, settings: settings)])
    }

    static func document(title: String, sections: [Node]) -> String {
        let head = Node(
            "head",
            [
                Node("meta", ["charset": "utf-8"]),
                Node("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"]),
                Node("title", [.text(title)]), Node("style", [.styleSheet(style)]),
            ])
        let footer =
            "Written by fetchpredict \(FetchPredict.version). Charts are drawn from the data they name; hover a mark for its details."
        let body = Node("body", [Node("h1", [.text(title)])] + sections + [Node("footer", [.text(footer)])])
        return "<!DOCTYPE html>\n"
            + Node("html", ["xmlns": "http://www.w3.org/1999/xhtml", "lang": "en"], [head, body]).render()
    }

    /// Colours as variables, dark when the screen is, plain on paper.
    static let style: StaticString = """
        :root { --bg: #ffffff; --fg: #1d1d1f; --muted: #6e6e73; --grid: #d2d2d7; --accent: #0a64d6; \
        --weekend: #c2410c; --new: #15803d; --nodata: #8e8e93; --failed: #dc2626; --bar: #93b4e0; }
        @media (prefers-color-scheme: dark) { :root { --bg: #16171a; --fg: #ececf0; --muted: #a1a1aa; \
        --grid: #3a3a40; --accent: #6aa8ff; --weekend: #fb923c; --new: #4ade80; --nodata: #a1a1aa; \
        --failed: #f87171; --bar: #36527a; } }
        @media print { :root { --bg: #ffffff; --fg: #000000; --muted: #444444; --grid: #cccccc; } \
        section { break-inside: avoid; } }
        body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif; margin: 24px; \
        max-width: 1100px; }
        h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; } h3 { font-size: 15px; margin: 18px 0 4px; }
        table { border-collapse: collapse; margin: 8px 0; } td, th { padding: 2px 10px; text-align: left; \
        border-bottom: 1px solid var(--grid); } td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
        svg { display: block; margin: 4px 0; max-width: 100%; height: auto; }
        svg text { fill: var(--muted); font-size: 11px; } svg .frame { stroke: var(--grid); }
        svg .grid { stroke: var(--grid); stroke-dasharray: 2 3; } svg .weekday { stroke: var(--accent); fill: none; \
        stroke-width: 2; } svg .weekend { stroke: var(--weekend); fill: none; stroke-width: 2; stroke-dasharray: 5 3; }
        svg .spread { fill: var(--accent); opacity: 0.15; } svg .peak { stroke: var(--accent); stroke-width: 1.5; }
        svg .bar { fill: var(--bar); } svg .newData { fill: var(--new); } svg .noData { fill: var(--nodata); }
        svg .failed { fill: var(--failed); } svg .wake { fill: var(--accent); } svg .predictor { stroke: var(--accent); \
        fill: none; stroke-width: 2; } svg .point { fill: var(--accent); } svg .periodic { fill: var(--muted); } \
        svg .oracle { fill: var(--new); } svg .mark { stroke: var(--weekend); stroke-dasharray: 4 3; }
        svg .observed { stroke: var(--accent); fill: var(--accent); stroke-width: 2; } \
        svg .every30 { stroke: var(--new); fill: var(--new); stroke-dasharray: 2 3; } \
        svg .every60 { stroke: var(--weekend); fill: var(--weekend); stroke-dasharray: 5 3; } \
        svg .every120 { stroke: var(--muted); fill: var(--muted); stroke-dasharray: 8 3; }
        svg polyline.observed, svg polyline.every30, svg polyline.every60, svg polyline.every120 { fill: none; }
        svg .tick { stroke: var(--muted); } svg .diagonal { stroke: var(--muted); stroke-dasharray: 4 3; }
        svg text.title, svg text.legend { fill: var(--fg); } svg text.date { font-weight: 600; }
        .apps { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 8px 24px; }
        .muted { color: var(--muted); } footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
        """

    /// A table of texts, the columns in `numeric` aligned as numbers.
    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> Node {
        func cell(_ name: StaticString, _ column: Int, _ text: String) -> Node {
            Node(name, attributes: numeric.contains(column) ? [("class", "n")] : [], [.text(text)])
        }
        let head = Node("tr", header.enumerated().map { cell("th", $0.offset, $0.element) })
        let body = rows.map { row in Node("tr", row.enumerated().map { cell("td", $0.offset, $0.element) }) }
        return Node("table", [Node("thead", [head]), Node("tbody", body)])
    }

    /// The device: its history, zone, default interval and apps.
    static func deviceSection(_ data: ReportData) -> Node {
        let text =
            "\(data.days) days of history as of \(Output.local(data.now, data.zone)) "
            + "(\(TimeZoneName.name(of: data.zone))); default interval \(data.defaultInterval.text); "
            + "\(data.apps.count) apps (their counts are in the table at the end)."
        return Node("section", ["id": "device"], [Node("h2", ["Device \(data.device)"]), Node("p", [.text(text)])])
    }

    /// The apps' counts; a count that is zero for every app is left out of the table and named
    /// under it.
    static func appTableSection(_ data: ReportData) -> Node {
        let header = ["App", "Interval", "Fetch", "Launches", "newData", "noData", "failed", "Notified"]
        let rows = data.apps.map { app in
            [
                app.summary.app, app.summary.interval.text + (app.summary.intervalIsDefault ? "*" : ""),
                app.summary.enabled ? "yes" : "no", String(app.summary.launches), String(app.summary.fetchesNewData),
                String(app.summary.fetchesNoData), String(app.summary.fetchesFailed), String(app.summary.notifications),
            ]
        }
        let counts = 3..<header.count
        let zero = rows.isEmpty ? [] : counts.filter { column in rows.allSatisfy { $0[column] == "0" } }
        let kept = header.indices.filter { !zero.contains($0) }
        let omitted =
            zero.isEmpty
            ? "" : " Left out, as they are 0 for every app: \(zero.map { header[$0] }.joined(separator: ", "))."
        return Node(
            "section", ["id": "counts"],
            [
                Node("h2", ["Every app's counts"]),
                table(
                    kept.map { header[$0] }, rows.map { row in kept.map { row[$0] } },
                    numeric: Set(kept.indices.filter { counts.contains(kept[$0]) })),
                Node(
                    "p", ["class": "muted"], ["* the default interval (the device's own, else the store's).\(omitted)"]),
            ])
    }

    /// The next 24 hours: one lane per app that wakes, a mark per wake with its reasons, on an
    /// axis of the local whole hours.
    static func timelineSection(_ data: ReportData) -> Node {
        let lanes = Array(Set(data.schedule.wakes.flatMap { $0.apps.map(\.app) })).sorted()
        var chart = SVGChart(
            width: 1000, height: Double(max(lanes.count, 1)) * 18 + 44, left: SVGChart.leftMargin(for: lanes),
            right: 16, top: 8, bottom: 36)
        let from = data.schedule.from, to = from.addingTimeInterval(86_400)
        func x(_ date: Date) -> Double { chart.x(date.timeIntervalSince(from) / 86_400) }
        chart.axes()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = data.zone
        for hour in wholeHours(from: from, to: to, calendar: calendar) {
            let local = Output.local(hour, data.zone)
            let labelled = calendar.component(.hour, from: hour) % timelineLabelEvery == 0
            chart.xTick(
                hour.timeIntervalSince(from) / 86_400, label: labelled ? .text(String(local.suffix(5))) : "",
                value: .text(TimestampFormatter.iso(hour.milliseconds)), grid: labelled)
            // Midnight starts a day: its date goes under its hour, inside the chart at its ends.
            if calendar.component(.hour, from: hour) == 0 {
                let fraction = hour.timeIntervalSince(from) / 86_400
                chart.label(
                    .text(String(local.prefix(10))), x: x(hour), y: chart.y(0) + 28,
                    anchor: fraction > 0.95 ? "end" : fraction < 0.05 ? "start" : "middle", className: "date")
            }
        }
        for (index, lane) in lanes.enumerated() {
            chart.rowLabel(lane, y: chart.top + Double(index) * 18 + 13)
        }
        var rows: [[String]] = []
        for wake in data.schedule.wakes {
            for app in wake.apps {
                let lane = lanes.firstIndex(of: app.app) ?? 0
                let reasons = app.reasons.map(\.description).joined(separator: "; ")
                let when = Output.local(wake.time, data.zone)
                chart.add(
                    Node(
                        "circle",
                        [
                            "cx": .coordinate(x(wake.time)), "cy": .coordinate(chart.top + Double(lane) * 18 + 9),
                            "r": 5,
                            "class": "wake", "data-app": .text(app.app),
                            "data-time": .text(TimestampFormatter.iso(wake.time.milliseconds)),
                            "data-expected": .datum(app.expectedLaunches),
                        ], [Node("title", ["\(when) \(app.app): \(reasons)"])]))
                // The table names a device wake's apps on their rows: "coalesced with" would
                // name them all again on each.
                let why = app.reasons.filter { if case .coalesced = $0 { false } else { true } }
                rows.append([
                    String(when.suffix(5)), app.app, String(format: "%.2f", app.expectedLaunches),
                    why.map(\.description).joined(separator: "; "),
                ])
            }
        }
        let span = "\(Output.local(from, data.zone)) to \(Output.local(to, data.zone))"
        let title = "Device wakes planned in the 24 hours from \(span)"
        let empty = data.emptyHint ?? "No wake is planned: no launch is expected soon enough to be worth one."
        let below =
            rows.isEmpty
            ? [Node("p", ["class": "muted"], [.text(empty)])]
            : [
                table(["Time", "App", "Expected", "Why"], rows, numeric: [2]),
                // What `schedule` says under its wakes: later hours plan fewer.
                Node("p", ["id": "later-hours"], [.text(WakeText.laterHours)]),
            ]
        let intro =
            "From \(span), local time (\(TimeZoneName.name(of: data.zone))): a tick at each hour, a mark at each "
            + "wake of an app."
        return Node(
            "section", ["id": "timeline"],
            [
                Node("h2", ["The next 24 hours"]), Node("p", ["class": "muted"], [.text(intro)]),
                chart.svg(["data-chart": "timeline", "data-wakes": .integer(rows.count)], title: title),
            ] + below)
    }

    /// The timeline labels the local hours divisible by this.
    static let timelineLabelEvery = 3

    /// The local whole hours from `from` (itself when it is one) to `to`, in the calendar's
    /// zone: in a zone half an hour off UTC they fall on UTC's half hours, and where the clocks
    /// change a local hour is skipped or repeated, the ticks still an hour apart.
    static func wholeHours(from: Date, to: Date, calendar: Calendar) -> [Date] {
        var hours: [Date] = []
        var after = from.addingTimeInterval(-1)
        while let next = calendar.nextDate(
            after: after, matching: DateComponents(minute: 0, second: 0), matchingPolicy: .nextTime),
            next <= to
        {
            if next >= from { hours.append(next) }
            after = next
        }
        return hours
    }
}
