import FetchPredictor
import Foundation

/// The report as one self-contained HTML file: no network at all, charts as inline SVG, styles
/// for light and dark screens and for print. Every chart carries its data in `data-` attributes,
/// which the tests read back.
enum HTMLReport {
    /// The whole page of a device, with its evaluation when there is one.
    static func page(_ data: ReportData) -> String {
        // What a reader opens it for first: the device, its plan and how well it does; then the
        // state, each app, and the table of every app's counts last (77 rows on a real log).
        var sections = [deviceSection(data), timelineSection(data)]
        if let evaluation = data.evaluation {
            sections.append(evaluationSection(evaluation, settings: data.backtestSettings))
        }
        if !data.state.isEmpty { sections.append(stateSection(data)) }
        sections += [appsSection(data), appTableSection(data)]
        return document(title: "FetchPredictor report: \(data.device)", sections: sections)
    }

    /// A page of an evaluation alone, as `evaluate --report` writes it.
    static func page(evaluation: BacktestReport, settings: BacktestSettings) -> String {
        document(title: "FetchPredictor evaluation", sections: [evaluationSection(evaluation, settings: settings)])
    }

    static func document(title: String, sections: [String]) -> String {
        """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(Markup.escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <h1>\(Markup.escape(title))</h1>
        \(sections.joined(separator: "\n"))
        <footer>Written by fetchpredict \(FetchPredict.version). Charts are drawn from the data they name; hover a mark for its details.</footer>
        </body>
        </html>

        """
    }

    /// Colours as variables, dark when the screen is, plain on paper.
    static let style = """
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
        svg .tick { stroke: var(--muted); } svg .diagonal { stroke: var(--muted); stroke-dasharray: 4 3; }
        svg text.title, svg text.legend { fill: var(--fg); } svg text.date { font-weight: 600; }
        .apps { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 8px 24px; }
        .muted { color: var(--muted); } footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
        """

    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
        let head = header.enumerated().map {
            "<th\(numeric.contains($0.offset) ? " class=\"n\"" : "")>\(Markup.escape($0.element))</th>"
        }
        let body = rows.map { row in
            "<tr>"
                + row.enumerated().map {
                    "<td\(numeric.contains($0.offset) ? " class=\"n\"" : "")>\(Markup.escape($0.element))</td>"
                }.joined() + "</tr>"
        }
        return "<table><thead><tr>\(head.joined())</tr></thead><tbody>\(body.joined())</tbody></table>"
    }

    /// The device: its history, zone, default interval and apps.
    static func deviceSection(_ data: ReportData) -> String {
        """
        <section id="device"><h2>Device \(Markup.escape(data.device))</h2>
        <p>\(data.days) days of history as of \(Markup.escape(Output.local(data.now, data.zone))) \
        (\(Markup.escape(TimeZoneName.name(of: data.zone)))); default interval \(Markup.escape(data.defaultInterval.text)); \
        \(data.apps.count) apps (their counts are in the table at the end).</p></section>
        """
    }

    /// The apps' counts; a count that is zero for every app is left out of the table and named
    /// under it.
    static func appTableSection(_ data: ReportData) -> String {
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
        return """
            <section id="counts"><h2>Every app's counts</h2>
            \(table(
                kept.map { header[$0] }, rows.map { row in kept.map { row[$0] } },
                numeric: Set(kept.indices.filter { counts.contains(kept[$0]) })))
            <p class="muted">* the default interval (the device's own, else the store's).\(Markup.escape(omitted))</p></section>
            """
    }

    /// The next 24 hours: one lane per app that wakes, a mark per wake with its reasons, on an
    /// axis of the local whole hours.
    static func timelineSection(_ data: ReportData) -> String {
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
                hour.timeIntervalSince(from) / 86_400, label: labelled ? String(local.suffix(5)) : "",
                value: TimestampFormatter.iso(hour.milliseconds), grid: labelled)
            // Midnight starts a day: its date goes under its hour, inside the chart at its ends.
            if calendar.component(.hour, from: hour) == 0 {
                let fraction = hour.timeIntervalSince(from) / 86_400
                chart.label(
                    String(local.prefix(10)), x: x(hour), y: chart.y(0) + 28,
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
                    "<circle cx=\"\(Markup.number(x(wake.time)))\" cy=\"\(Markup.number(chart.top + Double(lane) * 18 + 9))\" r=\"5\" class=\"wake\" data-app=\"\(Markup.escape(app.app))\" data-time=\"\(Markup.escape(TimestampFormatter.iso(wake.time.milliseconds)))\" data-expected=\"\(Markup.value(app.expectedLaunches))\"><title>\(Markup.escape("\(when) \(app.app): \(reasons)"))</title></circle>"
                )
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
        let empty =
            rows.isEmpty
            ? "<p class=\"muted\">\(Markup.escape(data.emptyHint ?? "No wake is planned: no launch is expected soon enough to be worth one."))</p>"
            : ""
        // What `schedule` says under its wakes: later hours plan fewer.
        let later = rows.isEmpty ? "" : "<p id=\"later-hours\">\(Markup.escape(WakeText.laterHours))</p>"
        return """
            <section id="timeline"><h2>The next 24 hours</h2>
            <p class="muted">From \(Markup.escape(span)), local time (\(Markup.escape(TimeZoneName.name(of: data.zone)))): a tick at \
            each hour, a mark at each wake of an app.</p>
            \(chart.svg(attributes: "data-chart=\"timeline\" data-wakes=\"\(rows.count)\"", title: title))
            \(empty)\(rows.isEmpty ? "" : table(["Time", "App", "Expected", "Why"], rows, numeric: [2]))\(later)</section>
            """
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

    /// Apps with fewer cold launches than this in their history get no card: they are named on
    /// one line, with their counts. A handful of launches draws no profile worth reading.
    static let coldLaunchesForACard = 5

    /// A card for each app opened often enough, then one line naming the others.
    static func appsSection(_ data: ReportData) -> String {
        let charted = data.apps.filter { $0.coldLaunchCount >= coldLaunchesForACard }
        let folded = data.apps.filter { $0.coldLaunchCount < coldLaunchesForACard }
            .sorted { ($1.coldLaunchCount, $0.summary.app) < ($0.coldLaunchCount, $1.summary.app) }
        let parts = charted.map { app in
            let state = app.coldStart ? "cold start: " + app.stateText : app.stateText
            return """
                <div class="app" data-app="\(Markup.escape(app.summary.app))"><h3>\(Markup.escape(app.summary.app))</h3>
                <p class="muted">\(Markup.escape(state))</p>
                \(profileChart(app))\(histogram(app))\(fetchChart(app))</div>
                """
        }
        let legend =
            charted.isEmpty
            ? ""
            : "<p class=\"muted\">Top: expected cold launches a day in each half hour, weekdays solid blue, weekends dashed orange (one line when they do not differ), each habit at its time with its spread shaded. Middle: the cold launches they were learned from, by half hour. Bottom: fetch results by hour, newData green, noData grey, failed red.</p>"
        var few = ""
        if !folded.isEmpty {
            let names = folded.map {
                "<span class=\"folded\" data-app=\"\(Markup.escape($0.summary.app))\">\(Markup.escape($0.summary.app))</span> (\($0.coldLaunchCount))"
            }
            let subject = folded.count == 1 ? "1 app has" : "\(folded.count) apps have"
            few =
                "<p id=\"few-launches\">\(subject) fewer than \(coldLaunchesForACard) cold launches, too few to chart; "
                + "their cold launches in brackets: \(names.joined(separator: ", ")).</p>"
        }
        return
            "<section id=\"apps\"><h2>Each app</h2>\(legend)<div class=\"apps\">\(parts.joined())</div>\(few)</section>"
    }

    /// The learned daily profiles (weekday solid, weekend dashed) with each peak at its time and
    /// its spread as a band.
    static func profileChart(_ app: ReportData.App) -> String {
        var chart = SVGChart(width: 340, height: 120)
        let series = app.profiles.map { AppHabits.halfHourly($0) }
        let top = max(series.flatMap { $0 }.max() ?? 0, 0.05)
        chart.hourAxis(every: 6)
        chart.label(String(format: "%.2f", top), x: chart.left - 4, y: chart.top + 8, anchor: "end")
        var peaks: [String] = []
        for (profile, values) in zip(app.profiles, series) {
            for peak in profile.peaks {
                let center = Double(peak.minute) / 1440
                let spread = peak.spreadMinutes / 1440
                chart.add(
                    "<rect x=\"\(Markup.number(chart.x(max(0, center - spread))))\" y=\"\(Markup.number(chart.top))\" width=\"\(Markup.number(chart.plotWidth * min(2 * spread, 1)))\" height=\"\(Markup.number(chart.plotHeight))\" class=\"spread\"/>"
                )
                chart.add(
                    "<line x1=\"\(Markup.number(chart.x(center)))\" y1=\"\(Markup.number(chart.top))\" x2=\"\(Markup.number(chart.x(center)))\" y2=\"\(Markup.number(chart.y(0)))\" class=\"peak\" data-days=\"\(profile.days.rawValue)\" data-minute=\"\(peak.minute)\" data-spread=\"\(Markup.value(peak.spreadMinutes))\"><title>\(Markup.escape("\(profile.days.rawValue) habit at \(peak.timeText), ±\(Int(peak.spreadMinutes.rounded())) min, \(String(format: "%.1f", peak.launchesPerDay)) a day, confidence \(Int((peak.confidence * 100).rounded()))%"))</title></line>"
                )
                peaks.append("\(profile.days.rawValue):\(peak.minute)")
            }
            let points = values.enumerated().map {
                "\(Markup.number(chart.x((Double($0.offset) + 0.5) / 48))),\(Markup.number(chart.y($0.element / top)))"
            }
            chart.add(
                "<polyline points=\"\(points.joined(separator: " "))\" class=\"\(profile.days == .weekend ? "weekend" : "weekday")\" data-days=\"\(profile.days.rawValue)\" data-values=\"\(values.map(Markup.value).joined(separator: " "))\"/>"
            )
        }
        let title =
            "Expected cold launches a day in each half hour of \(app.summary.app) (weekdays solid, weekends dashed), with its habits"
        return chart.svg(
            attributes: "data-chart=\"profile\" data-peaks=\"\(peaks.joined(separator: " "))\"", title: title)
    }

    /// The device's state: as its last events left it, and how often it is on power and on an
    /// unmetered network by hour of the day, weekdays and weekends apart.
    static func stateSection(_ data: ReportData) -> String {
        let lines = StateText.describe(data.state, zone: data.zone).split(separator: "\n")
        // The state now: the lines after the first, up to the table.
        let now = lines.dropFirst().prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  HOUR") }
            .map { Markup.escape($0.trimmingCharacters(in: .whitespaces)) }
        let charts = [
            stateChart(
                "on-power", weekday: data.state.weekday.onPower, weekend: data.state.weekend.onPower,
                title: "Chance of being on external power by hour (weekdays solid, weekends dashed)"),
            stateChart(
                "unmetered", weekday: data.state.weekday.unmetered, weekend: data.state.weekend.unmetered,
                title: "Chance of being on an unmetered network by hour (weekdays solid, weekends dashed)"),
        ]
        return """
            <section id="state"><h2>Device state</h2>
            <p>\(now.joined(separator: "; "))</p>
            <div class="apps">\(charts.joined())</div>
            <p class="muted">From the spans between the device's state events, each the state of the event that \
            began it; a span longer than two days counts its first two. Low Power Mode holds every wake while it is on.</p>
            </section>
            """
    }

    /// One chance by hour of the day, weekdays and weekends; hours never known are left out.
    static func stateChart(_ name: String, weekday: [Double?], weekend: [Double?], title: String) -> String {
        var chart = SVGChart(width: 340, height: 120)
        chart.hourAxis(every: 6)
        chart.label("100%", x: chart.left - 4, y: chart.top + 8, anchor: "end")
        for (days, chances) in [("weekday", weekday), ("weekend", weekend)] {
            let hourly = (0..<24).map { StateText.hourly(chances, hour: $0) }
            let points = hourly.enumerated().compactMap { hour, chance in
                chance.map { "\(Markup.number(chart.x((Double(hour) + 0.5) / 24))),\(Markup.number(chart.y($0)))" }
            }
            chart.add(
                "<polyline points=\"\(points.joined(separator: " "))\" class=\"\(days)\" data-days=\"\(days)\" data-values=\"\(hourly.map { $0.map(Markup.value) ?? "-" }.joined(separator: " "))\"/>"
            )
        }
        return chart.svg(attributes: "data-chart=\"state-\(name)\"", title: title)
    }

    /// The cold launches the profile was learned from, by half hour of the day.
    static func histogram(_ app: ReportData.App) -> String {
        var chart = SVGChart(width: 340, height: 90)
        let top = Double(max(app.coldLaunches.max() ?? 0, 1))
        chart.hourAxis(every: 6)
        chart.label(String(Int(top)), x: chart.left - 4, y: chart.top + 8, anchor: "end")
        var path = ""
        let width = chart.plotWidth / 48
        for (bin, count) in app.coldLaunches.enumerated() where count > 0 {
            let height = chart.plotHeight * Double(count) / top
            path +=
                "M\(Markup.number(chart.x(Double(bin) / 48) + 0.5)) \(Markup.number(chart.y(0)))h\(Markup.number(width - 1))v-\(Markup.number(height))h-\(Markup.number(width - 1))z"
        }
        if !path.isEmpty { chart.add("<path d=\"\(path)\" class=\"bar\"/>") }
        let total = app.coldLaunches.reduce(0, +)
        return chart.svg(
            attributes:
                "data-chart=\"histogram\" data-counts=\"\(app.coldLaunches.map(String.init).joined(separator: " "))\"",
            title:
                "\(Output.count(total, "cold launch")) of \(app.summary.app) by half hour, which the profile was learned from"
        )
    }

    /// Fetch results by hour of the day, stacked: newData, noData, failed.
    static func fetchChart(_ app: ReportData.App) -> String {
        let totals = app.fetchesByHour.map { $0.reduce(0, +) }
        guard totals.contains(where: { $0 > 0 }) else { return "" }
        var chart = SVGChart(width: 340, height: 80)
        let top = Double(totals.max() ?? 1)
        chart.hourAxis(every: 6)
        let width = chart.plotWidth / 24
        for (hour, results) in app.fetchesByHour.enumerated() {
            var base = 0.0
            for (column, name) in ["newData", "noData", "failed"].enumerated() where results[column] > 0 {
                let height = chart.plotHeight * Double(results[column]) / top
                chart.add(
                    "<rect x=\"\(Markup.number(chart.x(Double(hour) / 24) + 0.5))\" y=\"\(Markup.number(chart.y(0) - base - height))\" width=\"\(Markup.number(width - 1))\" height=\"\(Markup.number(height))\" class=\"\(name)\" data-hour=\"\(hour)\" data-result=\"\(name)\" data-count=\"\(results[column])\"><title>\(Markup.escape("\(Markup.clock(hour * 60)): \(results[column]) \(name)"))</title></rect>"
                )
                base += height
            }
        }
        return chart.svg(
            attributes: "data-chart=\"fetches\"",
            title: "Fetch results of \(app.summary.app) by hour: newData green, noData grey, failed red")
    }

    static func evaluationSection(_ report: BacktestReport, settings: BacktestSettings) -> String {
        var parts = [
            "<section id=\"evaluation\"><h2>Evaluation</h2>", frontierChart(report), figuresText(report, settings),
        ]
        let budget = BudgetLevels.describe(settings.reportedBudget)
        if let predictor = report.reported, !predictor.reliability.isEmpty {
            parts.append("<h3>Forecast against what the wakes served (budget \(budget))</h3>")
            parts.append(
                "<p class=\"muted\">The wakes of the predictor at budget \(budget), in groups of like forecasts. Across: "
                    + "the fresh cold launches a wake was forecast to serve, on average over the group; up: those it "
                    + "served. A forecast that came true lies on the diagonal.</p>")
            parts.append(reliabilityChart(predictor.reliability))
        }
        parts.append("<h3>Fresh cold launches of each app (budget \(budget))</h3>")
        parts.append(
            "<p class=\"muted\">"
                + Markup.escape(
                    settings.apps == nil
                        ? "The apps in scope: those with at least \(settings.minimumColdLaunches) cold launches in the log."
                        : "The apps in scope: those the settings file names.") + "</p>")
        parts.append(freshChart(report.launches))
        parts.append("</section>")
        return parts.joined(separator: "\n")
    }

    /// fresh@4 and wakes@50 in plain sentences, and what their terms mean, as the backtest
    /// protocol defines them (`../shared/docs/backtest-protocol.md`, docs/evaluation.md).
    static func figuresText(_ report: BacktestReport, _ settings: BacktestSettings) -> String {
        let predictor = report.overall.filter(\.strategy.isPredictor)
        guard !predictor.isEmpty, predictor.contains(where: { $0.coldLaunches > 0 }) else {
            let none =
                "No day was scored yet, so fresh@4 and wakes@50 cannot be read: the first "
                + "\(Output.count(settings.warmupDays, "day")) of each device are learned from, not scored."
            return "<p id=\"fresh-at-4\">\(Markup.escape(none))</p>"
        }
        let fresh: String
        if let value = report.freshAt4 {
            fresh = String(
                format: "fresh@4 is %.3f: when the predictor fetches each app 4 times a day on average "
                    + "(4 wakes per app-day), %.1f%% of the cold launches find fresh content.", value, value * 100)
        } else {
            let wakes = predictor.map(\.wakesPerAppDay)
            fresh = String(
                format: "fresh@4 is not read: the predictor's budget levels span %.2f to %.2f wakes per app-day, "
                    + "which does not take in 4.", wakes.min() ?? 0, wakes.max() ?? 0)
        }
        let half: String
        if let value = report.wakesAt50 {
            half = String(
                format: "wakes@50 is %.2f: the predictor needs %.2f fetches of each app a day on average "
                    + "(wakes per app-day) for half of the cold launches to find fresh content.", value, value)
        } else {
            half = String(
                format: "wakes@50 is not reached: at no budget level do half of the cold launches find fresh content "
                    + "(at most %.1f%%).", (predictor.map(\.freshRate).max() ?? 0) * 100)
        }
        let window = duration(settings.window), lead = duration(settings.lead)
        let freshMeans =
            settings.scenario == nil
            ? "it finds fresh content when a fetch of the app that did not fail started between \(window) and "
                + "\(lead) before it"
            : "it finds fresh content when the content scenario published nothing for the app between its last "
                + "refresh (a launch, or a fetch that did not fail started at least \(lead) before) and \(window) "
                + "before it"
        let scope =
            settings.apps == nil
            ? "the apps with at least \(settings.minimumColdLaunches) cold launches in the log"
            : "the apps the settings file names"
        let terms =
            "How they are counted: the log is replayed in time order, and the predictor plans each wake from the "
            + "events before it. A cold launch is a launch with no launch of the same app in the \(window) before "
            + "it; \(freshMeans). Wakes per app-day are the background fetches of the apps in scope (\(scope)) over "
            + "those apps times the days scored; the first \(Output.count(settings.warmupDays, "day")) of each "
            + "device are learned from, not scored. Both figures are read off the predictor's line, straight between "
            + "the two budget levels around them; the dashed lines mark 4 wakes per app-day and 50% fresh."
        return """
            <p id="fresh-at-4" data-value="\(report.freshAt4.map(Markup.value) ?? "")">\(Markup.escape(fresh))</p>
            <p id="wakes-at-50" data-value="\(report.wakesAt50.map(Markup.value) ?? "")">\(Markup.escape(half))</p>
            <p id="figure-terms" class="muted">\(Markup.escape(terms))</p>
            """
    }

    /// A duration of the protocol in words: "30 minutes", "1 minute", "90 seconds".
    static func duration(_ seconds: Double) -> String {
        seconds.truncatingRemainder(dividingBy: 60) == 0
            ? Output.count(Int(seconds / 60), "minute") : Output.count(Int(seconds), "second")
    }

    /// Fresh cold launches against wakes per app-day: the predictor's curve, periodic fetching,
    /// the oracle; the lines where fresh@4 and wakes@50 are read marked; a legend of each.
    static func frontierChart(_ report: BacktestReport) -> String {
        let legend: [SVGChart.LegendEntry] = [
            .init(
                series: "predictor", label: "the predictor, a point per budget level",
                swatch: .lineAndPoint("predictor", "point")),
            .init(
                series: "periodic", label: "periodic fetching, every N minutes as labelled", swatch: .square("periodic")
            ),
            .init(
                series: "oracle", label: "the oracle: a fetch before each cold launch, knowing the future",
                swatch: .circle("oracle")),
            .init(series: "mark", label: "4 wakes per app-day; 50% fresh", swatch: .line("mark")),
        ]
        let legendHeight = SVGChart.legendHeight(legend, width: 640)
        // The right margin holds the last tick's label, "16 or more", centred on it.
        var chart = SVGChart(
            width: 640, height: 296 + legendHeight, left: 60, right: 40, top: 12, bottom: 40 + legendHeight)
        // Periodic fetching every 30 minutes makes 48 wakes a day: the axis stops at 16, and
        // what lies beyond is drawn at its edge, its title saying where it is.
        var maxWakes = min(16, max(8, (report.overall.map(\.wakesPerAppDay).max() ?? 8).rounded(.up)))
        maxWakes += maxWakes.truncatingRemainder(dividingBy: 2)
        func x(_ wakes: Double) -> Double { chart.x(min(wakes, maxWakes) / maxWakes) }
        func y(_ rate: Double) -> Double { chart.y(rate) }
        chart.axes()
        for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
            chart.yTick(tick, label: String(format: "%.0f%%", tick * 100), value: Markup.value(tick), grid: tick > 0)
        }
        for tick in stride(from: 0.0, through: maxWakes, by: 2) {
            chart.xTick(
                tick / maxWakes, label: tick < maxWakes ? Markup.number(tick) : "\(Markup.number(tick)) or more",
                value: Markup.value(tick))
        }
        chart.xTitle("wakes per app-day: fetches of each app a day")
        chart.yTitle("cold launches fresh")
        chart.add(
            "<line x1=\"\(Markup.number(x(4)))\" y1=\"\(Markup.number(chart.top))\" x2=\"\(Markup.number(x(4)))\" y2=\"\(Markup.number(y(0)))\" class=\"mark\" data-series=\"mark\"/>"
        )
        chart.add(
            "<line x1=\"\(Markup.number(chart.left))\" y1=\"\(Markup.number(y(0.5)))\" x2=\"\(Markup.number(chart.x(1)))\" y2=\"\(Markup.number(y(0.5)))\" class=\"mark\" data-series=\"mark\"/>"
        )
        let predictor = report.overall.filter(\.strategy.isPredictor).sorted {
            $0.wakesPerAppDay < $1.wakesPerAppDay
        }
        chart.add(
            "<polyline points=\"\(predictor.map { "\(Markup.number(x($0.wakesPerAppDay))),\(Markup.number(y($0.freshRate)))" }.joined(separator: " "))\" class=\"predictor\" data-series=\"predictor\"/>"
        )
        for figures in report.overall {
            let (name, series, label): (String, String, String)
            switch figures.strategy {
            case .predictor(let budget):
                let level = "predictor at budget \(budget)" + (figures.isDefault ? " (the default)" : "")
                (name, series, label) = ("point", "predictor", level)
            case .oracle: (name, series, label) = ("oracle", "oracle", figures.strategy.name)
            case .periodic: (name, series, label) = ("periodic", "periodic", figures.strategy.name)
            // Weighed in the device state's table, not on the frontier of fresh against wakes.
            case .ignoringState: continue
            }
            let shape =
                name == "periodic"
                ? "<rect x=\"\(Markup.number(x(figures.wakesPerAppDay) - 4))\" y=\"\(Markup.number(y(figures.freshRate) - 4))\" width=\"8\" height=\"8\""
                : "<circle cx=\"\(Markup.number(x(figures.wakesPerAppDay)))\" cy=\"\(Markup.number(y(figures.freshRate)))\" r=\"\(name == "oracle" ? 6 : 4)\""
            chart.add(
                shape
                    + " class=\"\(name)\" data-series=\"\(series)\" data-strategy=\"\(Markup.escape(figures.strategy.name))\" data-budget=\"\(figures.budget.map(Markup.value) ?? "")\" data-fresh=\"\(Markup.value(figures.freshRate))\" data-wakes=\"\(Markup.value(figures.wakesPerAppDay))\"><title>\(Markup.escape(String(format: "%@: %.1f%% fresh, %.2f wakes per app-day", label, figures.freshRate * 100, figures.wakesPerAppDay)))</title>"
                    + (name == "periodic" ? "</rect>" : "</circle>"))
            // A period's name right of its square, below the predictor's line; left of it and
            // above near the right edge, where there is no room.
            if case .periodic(let period) = figures.strategy {
                let right = x(figures.wakesPerAppDay) < chart.x(0.8)
                chart.label(
                    "every \(period) min", x: x(figures.wakesPerAppDay) + (right ? 8 : -6),
                    y: y(figures.freshRate) + (right ? 4 : -7), anchor: right ? "start" : "end")
            }
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            attributes:
                "data-chart=\"frontier\" data-fresh-at-4=\"\(report.freshAt4.map(Markup.value) ?? "")\" data-wakes-at-50=\"\(report.wakesAt50.map(Markup.value) ?? "")\"",
            title:
                "The frontier: share of cold launches finding fresh content against wakes per app-day (line: the predictor; squares: periodic fetching; green: the oracle)"
        )
    }

    /// Wakes grouped by their forecast: the mean forecast against the mean served, per group,
    /// on like scales with round ticks.
    static func reliabilityChart(_ bins: [ReliabilityBin]) -> String {
        let legend: [SVGChart.LegendEntry] = [
            .init(series: "groups", label: "a group of wakes, larger for more", swatch: .circle("point")),
            .init(series: "diagonal", label: "a forecast that came true", swatch: .line("diagonal")),
        ]
        let legendHeight = SVGChart.legendHeight(legend, width: 360)
        var chart = SVGChart(width: 360, height: 250 + legendHeight, left: 56, top: 12, bottom: 40 + legendHeight)
        // Per wake: a bin's forecast is the sum over its wakes.
        let drawn = bins.filter { $0.wakes > 0 }.map {
            (bin: $0, forecast: $0.forecast / Double($0.wakes), served: Double($0.served) / Double($0.wakes))
        }
        let ticks = SVGChart.ticks(upTo: max(drawn.map { max($0.forecast, $0.served) }.max() ?? 1, 0.1))
        let top = ticks.last ?? 1
        chart.axes()
        for tick in ticks {
            chart.xTick(tick / top, label: Markup.value(tick), value: Markup.value(tick), grid: tick > 0)
            chart.yTick(tick / top, label: Markup.value(tick), value: Markup.value(tick), grid: tick > 0)
        }
        chart.xTitle("forecast per wake")
        chart.yTitle("served per wake")
        chart.add(
            "<line x1=\"\(Markup.number(chart.x(0)))\" y1=\"\(Markup.number(chart.y(0)))\" x2=\"\(Markup.number(chart.x(1)))\" y2=\"\(Markup.number(chart.y(1)))\" class=\"diagonal\" data-series=\"diagonal\"/>"
        )
        for (bin, forecast, served) in drawn {
            chart.add(
                "<circle cx=\"\(Markup.number(chart.x(forecast / top)))\" cy=\"\(Markup.number(chart.y(served / top)))\" r=\"\(Markup.number(min(10, 3 + log2(Double(bin.wakes)))))\" class=\"point\" data-series=\"groups\" data-forecast=\"\(Markup.value(forecast))\" data-served=\"\(Markup.value(served))\" data-wakes=\"\(bin.wakes)\"><title>\(Markup.escape(String(format: "%d wakes forecast %.2f, served %.2f cold launches each", bin.wakes, forecast, served)))</title></circle>"
            )
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            attributes: "data-chart=\"reliability\"",
            title:
                "Reliability: each group of wakes at its mean forecast against the cold launches it served; the diagonal is a perfect forecast"
        )
    }

    /// The share of each app's scored cold launches that found fresh content, with its counts.
    static func freshChart(_ launches: [ScoredLaunch]) -> String {
        var byApp: [String: (fresh: Int, all: Int)] = [:]
        for launch in launches {
            byApp[launch.app, default: (0, 0)].all += 1
            if launch.fresh { byApp[launch.app, default: (0, 0)].fresh += 1 }
        }
        let apps = byApp.sorted { ($1.value.all, $0.key) < ($0.value.all, $1.key) }
        let legend: [SVGChart.LegendEntry] = [
            .init(
                series: "fresh", label: "share of the app's scored cold launches that found fresh content",
                swatch: .bar("bar"))
        ]
        let legendHeight = SVGChart.legendHeight(legend, width: 640)
        var chart = SVGChart(
            width: 640, height: Double(max(apps.count, 1)) * 16 + 50 + legendHeight,
            left: SVGChart.leftMargin(for: apps.map(\.key)), right: 84, top: 4, bottom: 46 + legendHeight)
        for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
            chart.xTick(tick, label: String(format: "%.0f%%", tick * 100), value: Markup.value(tick), grid: tick > 0)
        }
        chart.axes()
        chart.xTitle("fresh cold launches, of the app's scored")
        for (index, (app, counts)) in apps.enumerated() {
            let rate = Double(counts.fresh) / Double(counts.all)
            let y = chart.top + Double(index) * 16
            chart.rowLabel(app, y: y + 11)
            chart.add(
                "<rect x=\"\(Markup.number(chart.left))\" y=\"\(Markup.number(y + 2))\" width=\"\(Markup.number(chart.plotWidth * rate))\" height=\"11\" class=\"bar\" data-series=\"fresh\" data-app=\"\(Markup.escape(app))\" data-fresh=\"\(counts.fresh)\" data-launches=\"\(counts.all)\"><title>\(Markup.escape(String(format: "%@: %d of %d cold launches fresh (%.0f%%)", app, counts.fresh, counts.all, rate * 100)))</title></rect>"
            )
            chart.label("\(counts.fresh) of \(counts.all)", x: chart.x(1) + 6, y: y + 11, anchor: "start")
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            attributes: "data-chart=\"fresh\"",
            title: "Share of each app's scored cold launches that found fresh content")
    }
}
