import FetchPredictor
import Foundation

/// Did the wakes pay? The device's fresh cold launches day by day, from the fetch results it
/// sent, against fetching on a timer: what `fetchpredict freshness` counts.
extension HTMLReport {
    /// The series of the chart: what happened, then each periodic baseline.
    static let freshnessSeries: [(strategy: String, className: String, label: String)] = [
        ("observed", "observed", "the fetches sent"), ("periodic-30", "every30", "a fetch every 30 minutes"),
        ("periodic-60", "every60", "every 60 minutes"), ("periodic-120", "every120", "every 120 minutes"),
    ]

    static func freshnessSection(_ data: ReportData) -> Node {
        var parts = [Node("h2", ["Did the wakes pay?"])]
        let days = data.freshness.filter { $0.report.observed.coldLaunches > 0 || $0.report.observed.fetches > 0 }
        guard let first = days.first, days.contains(where: { $0.report.observed.fetches > 0 }) else {
            let none =
                "No fetch result is stored for this device yet: record what each background fetch brought "
                + "(fetchpredict record fetch, or POST /v1/devices/{device}/events), and this section "
                + "shows how many cold launches found fresh content."
            parts.append(Node("p", [.text(none)]))
            return Node("section", ["id": "freshness"], parts)
        }
        var total = first.report.observed, baselines = first.report.baselines
        for (_, report) in days.dropFirst() {
            total = total.adding(report.observed)
            baselines = zip(baselines, report.baselines).map { $0.adding($1) }
        }
        let hourly = baselines.first { $0.strategy == "periodic-60" }
        var text = String(
            format: "Over %d days, %d of %d cold launches found fresh content (%.1f%%), at %.2f fetches per app-day.",
            days.count, total.freshColdLaunches, total.coldLaunches, total.freshRate * 100, total.fetchesPerAppDay)
        if let hourly {
            text += String(
                format: " A fetch of every app every 60 minutes would have served %.1f%% at %.2f.",
                hourly.freshRate * 100, hourly.fetchesPerAppDay)
        }
        let about =
            "A cold launch (none of the app in the 30 minutes before) finds fresh content when a fetch of the app "
            + "that did not fail began between 30 minutes and 1 minute before it. Each day counts the apps launched "
            + "or fetched on it; the oracle (a fetch just before each cold launch) would serve every one."
        parts += [
            Node("p", [.text(text)]), Node("p", ["class": "muted"], [.text(about)]),
            freshnessChart(days, zone: data.zone),
        ]
        return Node("section", ["id": "freshness"], parts)
    }

    /// The fresh rate of each day, a line a series, days across.
    static func freshnessChart(_ days: [(day: Int, report: FreshnessReport)], zone: TimeZone) -> Node {
        let legend = freshnessSeries.map {
            SVGChart.LegendEntry(
                series: $0.className, label: $0.label, swatch: .lineAndPoint($0.className, $0.className))
        }
        let legendHeight = SVGChart.legendHeight(legend, width: 720)
        var chart = SVGChart(
            width: 720, height: 240 + legendHeight, left: 60, right: 24, top: 12, bottom: 40 + legendHeight)
        let span = max(1, days.last!.day - days.first!.day)
        func x(_ day: Int) -> Double { chart.x(Double(day - days.first!.day) / Double(span)) }
        chart.axes()
        for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
            chart.yTick(tick, label: .text(String(format: "%.0f%%", tick * 100)), value: .datum(tick), grid: tick > 0)
        }
        // A date every so many days, about eight across.
        let every = max(1, (span + 7) / 8)
        for day in stride(from: days.first!.day, through: days.last!.day, by: every) {
            let (_, month, dayOfMonth) = CivilDate.fromDays(day)
            chart.xTick(
                Double(day - days.first!.day) / Double(span), label: .text(String(format: "%d/%d", dayOfMonth, month)),
                value: .datum(Double(day)))
        }
        chart.xTitle("day (the device's local date, day/month)")
        chart.yTitle("cold launches fresh")
        for series in freshnessSeries {
            let points = days.compactMap { day -> (day: Int, figures: FreshnessFigures)? in
                let figures = ([day.report.observed] + day.report.baselines).first { $0.strategy == series.strategy }
                return figures.flatMap { $0.coldLaunches > 0 ? (day.day, $0) : nil }
            }
            chart.add(
                Node(
                    "polyline",
                    [
                        "points": .points(points.map { (x: x($0.day), y: chart.y($0.figures.freshRate)) }),
                        "class": .text(series.className), "fill": "none", "data-series": .text(series.strategy),
                    ]))
            for (day, figures) in points {
                let (year, month, dayOfMonth) = CivilDate.fromDays(day)
                let date = String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
                let title = String(
                    format: "%@, %@: %d of %d cold launches fresh (%.1f%%), %d fetches", date, series.label,
                    figures.freshColdLaunches, figures.coldLaunches, figures.freshRate * 100, figures.fetches)
                chart.add(
                    Node(
                        "circle",
                        [
                            "cx": .coordinate(x(day)), "cy": .coordinate(chart.y(figures.freshRate)), "r": 3,
                            "class": .text(series.className), "data-series": .text(series.strategy),
                            "data-date": .text(date), "data-cold": .datum(Double(figures.coldLaunches)),
                            "data-fresh": .datum(Double(figures.freshColdLaunches)),
                        ], [Node("title", [.text(title)])]))
            }
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            ["data-chart": "freshness", "data-zone": .text(zone.identifier)],
            title: "Each day's share of cold launches finding fresh content: the fetches sent, and periodic fetching")
    }
}

extension FreshnessFigures {
    /// Two days' counts together; the median is not kept.
    func adding(_ other: FreshnessFigures) -> FreshnessFigures {
        FreshnessFigures(strategy: strategy, keptCounts: zip(keptCounts, other.keptCounts).map(+))
    }
}
