import FetchPredictor
import Foundation

/// The evaluation: its figures in words, the frontier, the forecasts' reliability and each app's
/// fresh cold launches.
extension HTMLReport {
    static func evaluationSection(_ report: BacktestReport, settings: BacktestSettings) -> Node {
        var parts = [Node("h2", ["Evaluation"]), frontierChart(report), figuresText(report, settings)]
        let budget = BudgetLevels.describe(settings.reportedBudget)
        if let predictor = report.reported, !predictor.reliability.isEmpty {
            let about =
                "The wakes of the predictor at budget \(budget), in groups of like forecasts. Across: the fresh cold "
                + "launches a wake was forecast to serve, on average over the group; up: those it served. A forecast "
                + "that came true lies on the diagonal."
            parts += [
                Node("h3", ["Forecast against what the wakes served (budget \(budget))"]),
                Node("p", ["class": "muted"], [.text(about)]), reliabilityChart(predictor.reliability),
            ]
        }
        let scope =
            settings.apps == nil
            ? "The apps in scope: those with at least \(settings.minimumColdLaunches) cold launches in the log."
            : "The apps in scope: those the settings file names."
        parts += [
            Node("h3", ["Fresh cold launches of each app (budget \(budget))"]),
            Node("p", ["class": "muted"], [.text(scope)]), freshChart(report.launches),
        ]
        return Node("section", ["id": "evaluation"], parts)
    }

    /// fresh@4 and wakes@50 in plain sentences, and what their terms mean, as the backtest
    /// protocol defines them (`../shared/docs/backtest-protocol.md`, docs/evaluation.md).
    static func figuresText(_ report: BacktestReport, _ settings: BacktestSettings) -> Node {
        let predictor = report.overall.filter(\.strategy.isPredictor)
        guard !predictor.isEmpty, predictor.contains(where: { $0.coldLaunches > 0 }) else {
            let none =
                "No day was scored yet, so fresh@4 and wakes@50 cannot be read: the first "
                + "\(Output.count(settings.warmupDays, "day")) of each device are learned from, not scored."
            return Node("p", ["id": "fresh-at-4"], [.text(none)])
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
        return .group([
            Node("p", ["id": "fresh-at-4", "data-value": report.freshAt4.map(Value.datum) ?? ""], [.text(fresh)]),
            Node("p", ["id": "wakes-at-50", "data-value": report.wakesAt50.map(Value.datum) ?? ""], [.text(half)]),
            Node("p", ["id": "figure-terms", "class": "muted"], [.text(terms)]),
        ])
    }

    /// A duration of the protocol in words: "30 minutes", "1 minute", "90 seconds".
    static func duration(_ seconds: Double) -> String {
        seconds.truncatingRemainder(dividingBy: 60) == 0
            ? Output.count(Int(seconds / 60), "minute") : Output.count(Int(seconds), "second")
    }

    /// Fresh cold launches against wakes per app-day: the predictor's curve, periodic fetching,
    /// the oracle; the lines where fresh@4 and wakes@50 are read marked; a legend of each.
    static func frontierChart(_ report: BacktestReport) -> Node {
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
            chart.yTick(tick, label: .text(String(format: "%.0f%%", tick * 100)), value: .datum(tick), grid: tick > 0)
        }
        for tick in stride(from: 0.0, through: maxWakes, by: 2) {
            let label: Value = tick < maxWakes ? .coordinate(tick) : .list([.coordinate(tick), "or more"])
            chart.xTick(tick / maxWakes, label: label, value: .datum(tick))
        }
        chart.xTitle("wakes per app-day: fetches of each app a day")
        chart.yTitle("cold launches fresh")
        chart.add(chart.line(from: (x(4), chart.top), to: (x(4), y(0)), ["class": "mark", "data-series": "mark"]))
        chart.add(
            chart.line(from: (chart.left, y(0.5)), to: (chart.x(1), y(0.5)), ["class": "mark", "data-series": "mark"]))
        let predictor = report.overall.filter(\.strategy.isPredictor).sorted { $0.wakesPerAppDay < $1.wakesPerAppDay }
        chart.add(
            Node(
                "polyline",
                [
                    "points": .points(predictor.map { (x: x($0.wakesPerAppDay), y: y($0.freshRate)) }),
                    "class": "predictor", "data-series": "predictor",
                ]))
        for figures in report.overall {
            let (name, series, label): (String, String, String)
            switch figures.strategy {
            case .predictor(let budget):
                let level = "predictor at budget \(budget)" + (figures.isDefault ? " (the default)" : "")
                (name, series, label) = ("point", "predictor", level)
            case .oracle: (name, series, label) = ("oracle", "oracle", figures.strategy.name)
            case .periodic: (name, series, label) = ("periodic", "periodic", figures.strategy.name)
            // Weighed in the device state's table, not on the frontier of fresh against wakes.
            case .ignoringState, .observed: continue
            }
            let (px, py) = (x(figures.wakesPerAppDay), y(figures.freshRate))
            let data: [(StaticString, Value)] = [
                ("class", .text(name)), ("data-series", .text(series)), ("data-strategy", .text(figures.strategy.name)),
                ("data-budget", figures.budget.map(Value.datum) ?? ""), ("data-fresh", .datum(figures.freshRate)),
                ("data-wakes", .datum(figures.wakesPerAppDay)),
            ]
            let title = Node(
                "title",
                [
                    .text(
                        String(
                            format: "%@: %.1f%% fresh, %.2f wakes per app-day", label, figures.freshRate * 100,
                            figures.wakesPerAppDay))
                ])
            chart.add(
                name == "periodic"
                    ? Node(
                        "rect",
                        attributes: [
                            ("x", .coordinate(px - 4)), ("y", .coordinate(py - 4)), ("width", 8), ("height", 8),
                        ] + data, [title])
                    : Node(
                        "circle",
                        attributes: [("cx", .coordinate(px)), ("cy", .coordinate(py)), ("r", name == "oracle" ? 6 : 4)]
                            + data, [title]))
            // A period's name right of its square, below the predictor's line; left of it and
            // above near the right edge, where there is no room.
            if case .periodic(let period) = figures.strategy {
                let right = px < chart.x(0.8)
                chart.label(
                    "every \(period) min", x: px + (right ? 8 : -6), y: py + (right ? 4 : -7),
                    anchor: right ? "start" : "end")
            }
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            [
                "data-chart": "frontier", "data-fresh-at-4": report.freshAt4.map(Value.datum) ?? "",
                "data-wakes-at-50": report.wakesAt50.map(Value.datum) ?? "",
            ],
            title:
                "The frontier: share of cold launches finding fresh content against wakes per app-day (line: the predictor; squares: periodic fetching; green: the oracle)"
        )
    }

    /// Wakes grouped by their forecast: the mean forecast against the mean served, per group,
    /// on like scales with round ticks.
    static func reliabilityChart(_ bins: [ReliabilityBin]) -> Node {
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
            chart.xTick(tick / top, label: .datum(tick), value: .datum(tick), grid: tick > 0)
            chart.yTick(tick / top, label: .datum(tick), value: .datum(tick), grid: tick > 0)
        }
        chart.xTitle("forecast per wake")
        chart.yTitle("served per wake")
        chart.add(
            chart.line(
                from: (chart.x(0), chart.y(0)), to: (chart.x(1), chart.y(1)),
                ["class": "diagonal", "data-series": "diagonal"]))
        for (bin, forecast, served) in drawn {
            let title = String(
                format: "%d wakes forecast %.2f, served %.2f cold launches each", bin.wakes, forecast, served)
            chart.add(
                Node(
                    "circle",
                    [
                        "cx": .coordinate(chart.x(forecast / top)), "cy": .coordinate(chart.y(served / top)),
                        "r": .coordinate(min(10, 3 + log2(Double(bin.wakes)))), "class": "point",
                        "data-series": "groups",
                        "data-forecast": .datum(forecast), "data-served": .datum(served),
                        "data-wakes": .integer(bin.wakes),
                    ], [Node("title", [.text(title)])]))
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            ["data-chart": "reliability"],
            title:
                "Reliability: each group of wakes at its mean forecast against the cold launches it served; the diagonal is a perfect forecast"
        )
    }

    /// The share of each app's scored cold launches that found fresh content, with its counts.
    static func freshChart(_ launches: [ScoredLaunch]) -> Node {
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
            chart.xTick(tick, label: .text(String(format: "%.0f%%", tick * 100)), value: .datum(tick), grid: tick > 0)
        }
        chart.axes()
        chart.xTitle("fresh cold launches, of the app's scored")
        for (index, (app, counts)) in apps.enumerated() {
            let rate = Double(counts.fresh) / Double(counts.all)
            let y = chart.top + Double(index) * 16
            chart.rowLabel(app, y: y + 11)
            let title = String(
                format: "%@: %d of %d cold launches fresh (%.0f%%)", app, counts.fresh, counts.all, rate * 100)
            chart.add(
                Node(
                    "rect",
                    [
                        "x": .coordinate(chart.left), "y": .coordinate(y + 2),
                        "width": .coordinate(chart.plotWidth * rate),
                        "height": 11, "class": "bar", "data-series": "fresh", "data-app": .text(app),
                        "data-fresh": .integer(counts.fresh), "data-launches": .integer(counts.all),
                    ], [Node("title", [.text(title)])]))
            chart.label("\(counts.fresh) of \(counts.all)", x: chart.x(1) + 6, y: y + 11, anchor: "start")
        }
        chart.legend(legend, y: chart.y(0) + 48)
        return chart.svg(
            ["data-chart": "fresh"], title: "Share of each app's scored cold launches that found fresh content")
    }
}
