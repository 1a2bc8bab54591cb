import FetchPredictor
import Foundation

/// Each app's card and the device's state.
extension HTMLReport {
    /// Apps with fewer cold launches than this in their history get no card: they are named on
    /// one line, with their counts. A handful of launches draws no profile worth reading.
    static let coldLaunchesForACard = 5

    /// A card for each app opened often enough, then one line naming the others.
    static func appsSection(_ data: ReportData) -> Node {
        let charted = data.apps.filter { $0.coldLaunchCount >= coldLaunchesForACard }
        let folded = data.apps.filter { $0.coldLaunchCount < coldLaunchesForACard }
            .sorted { ($1.coldLaunchCount, $0.summary.app) < ($0.coldLaunchCount, $1.summary.app) }
        let cards = charted.map { app in
            let state = app.coldStart ? "cold start: " + app.stateText : app.stateText
            return Node(
                "div", ["class": "app", "data-app": .text(app.summary.app)],
                [
                    Node("h3", [.text(app.summary.app)]), Node("p", ["class": "muted"], [.text(state)]),
                    profileChart(app), histogram(app), fetchChart(app),
                ])
        }
        var parts = [Node("h2", ["Each app"])]
        if !charted.isEmpty {
            let legend =
                "Top: expected cold launches a day in each half hour, weekdays solid blue, weekends dashed orange "
                + "(one line when they do not differ), each habit at its time with its spread shaded. Middle: the "
                + "cold launches they were learned from, by half hour. Bottom: fetch results by hour, newData green, "
                + "noData grey, failed red."
            parts.append(Node("p", ["class": "muted"], [.text(legend)]))
        }
        parts.append(Node("div", ["class": "apps"], cards))
        if !folded.isEmpty {
            var names: [Node] = []
            for (index, app) in folded.enumerated() {
                if index > 0 { names.append(", ") }
                names += [
                    Node("span", ["class": "folded", "data-app": .text(app.summary.app)], [.text(app.summary.app)]),
                    " (\(app.coldLaunchCount))",
                ]
            }
            let subject = folded.count == 1 ? "1 app has" : "\(folded.count) apps have"
            let lead =
                "\(subject) fewer than \(coldLaunchesForACard) cold launches, too few to chart; their cold launches "
                + "in brackets: "
            parts.append(Node("p", ["id": "few-launches"], [.text(lead)] + names + ["."]))
        }
        return Node("section", ["id": "apps"], parts)
    }

    /// The learned daily profiles (weekday solid, weekend dashed) with each peak at its time and
    /// its spread as a band.
    static func profileChart(_ app: ReportData.App) -> Node {
        var chart = SVGChart(width: 340, height: 120)
        let series = app.profiles.map { AppHabits.halfHourly($0) }
        let top = max(series.flatMap { $0 }.max() ?? 0, 0.05)
        chart.hourAxis(every: 6)
        chart.label(.text(String(format: "%.2f", top)), x: chart.left - 4, y: chart.top + 8, anchor: "end")
        var peaks: [String] = []
        for (profile, values) in zip(app.profiles, series) {
            for peak in profile.peaks {
                let center = Double(peak.minute) / 1440
                let spread = peak.spreadMinutes / 1440
                chart.add(
                    Node(
                        "rect",
                        [
                            "x": .coordinate(chart.x(max(0, center - spread))), "y": .coordinate(chart.top),
                            "width": .coordinate(chart.plotWidth * min(2 * spread, 1)),
                            "height": .coordinate(chart.plotHeight), "class": "spread",
                        ]))
                let title =
                    "\(profile.days.rawValue) habit at \(peak.timeText), ±\(Int(peak.spreadMinutes.rounded())) min, "
                    + "\(String(format: "%.1f", peak.launchesPerDay)) a day, confidence "
                    + "\(Int((peak.confidence * 100).rounded()))%"
                chart.add(
                    Node(
                        "line",
                        [
                            "x1": .coordinate(chart.x(center)), "y1": .coordinate(chart.top),
                            "x2": .coordinate(chart.x(center)), "y2": .coordinate(chart.y(0)), "class": "peak",
                            "data-days": .text(profile.days.rawValue), "data-minute": .integer(peak.minute),
                            "data-spread": .datum(peak.spreadMinutes),
                        ], [Node("title", [.text(title)])]))
                peaks.append("\(profile.days.rawValue):\(peak.minute)")
            }
            let points = values.enumerated().map {
                (x: chart.x((Double($0.offset) + 0.5) / 48), y: chart.y($0.element / top))
            }
            chart.add(
                Node(
                    "polyline",
                    [
                        "points": .points(points), "class": profile.days == .weekend ? "weekend" : "weekday",
                        "data-days": .text(profile.days.rawValue), "data-values": .list(values.map(Value.datum)),
                    ]))
        }
        let title =
            "Expected cold launches a day in each half hour of \(app.summary.app) (weekdays solid, weekends dashed), with its habits"
        return chart.svg(["data-chart": "profile", "data-peaks": .text(peaks.joined(separator: " "))], title: title)
    }

    /// The device's state: as its last events left it, and how often it is on power and on an
    /// unmetered network by hour of the day, weekdays and weekends apart.
    static func stateSection(_ data: ReportData) -> Node {
        let lines = StateText.describe(data.state, zone: data.zone).split(separator: "\n")
        // The state now: the lines after the first, up to the table.
        let now = lines.dropFirst().prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  HOUR") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let charts = [
            stateChart(
                "on-power", weekday: data.state.weekday.onPower, weekend: data.state.weekend.onPower,
                title: "Chance of being on external power by hour (weekdays solid, weekends dashed)"),
            stateChart(
                "unmetered", weekday: data.state.weekday.unmetered, weekend: data.state.weekend.unmetered,
                title: "Chance of being on an unmetered network by hour (weekdays solid, weekends dashed)"),
        ]
        let note =
            "From the spans between the device's state events, each the state of the event that began it; a span "
            + "longer than two days counts its first two. Low Power Mode holds every wake while it is on."
        return Node(
            "section", ["id": "state"],
            [
                Node("h2", ["Device state"]), Node("p", [.text(now.joined(separator: "; "))]),
                Node("div", ["class": "apps"], charts), Node("p", ["class": "muted"], [.text(note)]),
            ])
    }

    /// One chance by hour of the day, weekdays and weekends; hours never known are left out.
    static func stateChart(_ name: String, weekday: [Double?], weekend: [Double?], title: String) -> Node {
        var chart = SVGChart(width: 340, height: 120)
        chart.hourAxis(every: 6)
        chart.label("100%", x: chart.left - 4, y: chart.top + 8, anchor: "end")
        for (days, chances) in [("weekday", weekday), ("weekend", weekend)] {
            let hourly = (0..<24).map { StateText.hourly(chances, hour: $0) }
            let points = hourly.enumerated().compactMap { hour, chance in
                chance.map { (x: chart.x((Double(hour) + 0.5) / 24), y: chart.y($0)) }
            }
            chart.add(
                Node(
                    "polyline",
                    [
                        "points": .points(points), "class": .text(days), "data-days": .text(days),
                        "data-values": .list(hourly.map { $0.map(Value.datum) ?? "-" }),
                    ]))
        }
        return chart.svg(["data-chart": "state-\(name)"], title: title)
    }

    /// The cold launches the profile was learned from, by half hour of the day.
    static func histogram(_ app: ReportData.App) -> Node {
        var chart = SVGChart(width: 340, height: 90)
        let top = Double(max(app.coldLaunches.max() ?? 0, 1))
        chart.hourAxis(every: 6)
        chart.label(.integer(Int(top)), x: chart.left - 4, y: chart.top + 8, anchor: "end")
        var path: [(command: Character, coordinates: [Double])] = []
        let width = chart.plotWidth / 48
        for (bin, count) in app.coldLaunches.enumerated() where count > 0 {
            let height = chart.plotHeight * Double(count) / top
            path += [
                ("M", [chart.x(Double(bin) / 48) + 0.5, chart.y(0)]), ("h", [width - 1]), ("v", [-height]),
                ("h", [-(width - 1)]), ("z", []),
            ]
        }
        if !path.isEmpty { chart.add(Node("path", ["d": .path(path), "class": "bar"])) }
        let total = app.coldLaunches.reduce(0, +)
        return chart.svg(
            ["data-chart": "histogram", "data-counts": .list(app.coldLaunches.map(Value.integer))],
            title:
                "\(Output.count(total, "cold launch")) of \(app.summary.app) by half hour, which the profile was learned from"
        )
    }

    /// Fetch results by hour of the day, stacked: newData, noData, failed.
    static func fetchChart(_ app: ReportData.App) -> Node {
        let totals = app.fetchesByHour.map { $0.reduce(0, +) }
        guard totals.contains(where: { $0 > 0 }) else { return .empty }
        var chart = SVGChart(width: 340, height: 80)
        let top = Double(totals.max() ?? 1)
        chart.hourAxis(every: 6)
        let width = chart.plotWidth / 24
        for (hour, results) in app.fetchesByHour.enumerated() {
            var base = 0.0
            for (column, name) in ["newData", "noData", "failed"].enumerated() where results[column] > 0 {
                let height = chart.plotHeight * Double(results[column]) / top
                chart.add(
                    Node(
                        "rect",
                        [
                            "x": .coordinate(chart.x(Double(hour) / 24) + 0.5),
                            "y": .coordinate(chart.y(0) - base - height),
                            "width": .coordinate(width - 1), "height": .coordinate(height), "class": .text(name),
                            "data-hour": .integer(hour), "data-result": .text(name),
                            "data-count": .integer(results[column]),
                        ], [Node("title", ["\(Markup.clock(hour * 60)): \(results[column]) \(name)"])]))
                base += height
            }
        }
        return chart.svg(
            ["data-chart": "fetches"],
            title: "Fetch results of \(app.summary.app) by hour: newData green, noData grey, failed red")
    }
}
