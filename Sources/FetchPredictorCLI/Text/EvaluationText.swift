import FetchPredictor
import Foundation

/// What `evaluate` prints: a table per device and overall, the frontier's two numbers, and the
/// CSV files of the wakes and launches it scored.
enum EvaluationText {
    /// Every simulated fetch: `device,app,start,result`.
    static func wakesCSV(_ report: BacktestReport) -> String {
        let rows = report.fetches.map {
            [$0.device, $0.app, TimestampFormatter.iso($0.start), $0.result.rawValue].map(CSVText.field)
                .joined(separator: ",")
        }
        return (["device,app,start,result"] + rows).joined(separator: "\n") + "\n"
    }

    /// Every scored cold launch: `device,app,time,fresh`.
    static func launchesCSV(_ report: BacktestReport) -> String {
        let rows = report.launches.map {
            [$0.device, $0.app, TimestampFormatter.iso($0.time), String($0.fresh)].map(CSVText.field)
                .joined(separator: ",")
        }
        return (["device,app,time,fresh"] + rows).joined(separator: "\n") + "\n"
    }

    static func describe(_ report: BacktestReport, _ settings: BacktestSettings) -> String {
        var lines: [String] = []
        lines.append(
            "Backtest: window \(Int(settings.window / 60)) min, lead \(Int(settings.lead / 60)) min, warm-up \(settings.warmupDays) days"
                + (settings.scenario == nil ? ", content changing all the time." : ", with a content scenario."))
        func table(_ figures: [StrategyFigures]) -> String {
            let rows = figures.map { figure -> [String] in
                [
                    figure.strategy.name,
                    figure.budget.map { BudgetLevels.describe($0) + (figure.isDefault ? "*" : " ") } ?? "",
                    String(figure.coldLaunches), String(figure.freshLaunches),
                    figure.expectedFresh != nil ? String(figure.servedLaunches) : "-",
                    figure.expectedFresh.map { String(format: "%.0f", $0) } ?? "-",
                    String(format: "%.3f", figure.freshRate), String(format: "%.2f", figure.wakesPerAppDay),
                    String(format: "%.1f", figure.deviceWakesPerDay), String(figure.wasted),
                    figure.medianContentAgeMinutes.map { String(format: "%.0f", $0) } ?? "-",
                ]
            }
            return Output.table(
                [
                    "STRATEGY", "BUDGET", "COLD", "FRESH", "BY A FETCH", "EXPECTED", "FRESH RATE", "WAKES/APP-DAY",
                    "DEVICE WAKES/DAY", "WASTED", "MEDIAN AGE (MIN)",
                ], rows,
                rightAligned: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        }
        for device in report.devices {
            lines.append("")
            lines.append(
                "device \(device.device) (\(device.timeZone)): \(Output.count(device.scoredDays, "scored day")), \(Output.count(device.apps.count, "app")) in scope"
            )
            if device.scoredDays == 0 {
                lines.append(
                    "No day of it was scored: its log is not longer than the warm-up of \(settings.warmupDays) days, which is learned and not scored (--warmup-days changes it)."
                )
                continue
            }
            lines.append(table(device.strategies))
        }
        if report.devices.count > 1 {
            lines.append("")
            lines.append("overall:")
            lines.append(table(report.overall))
        }
        // Under the tables, where one printed the default level's row.
        if report.devices.contains(where: { $0.scoredDays > 0 && $0.strategies.contains(where: \.isDefault) }) {
            lines.append(
                "* the default level: what schedule, next, due, report and the service plan at when no budget is given."
            )
        }
        if let state = deviceState(report) {
            lines.append("")
            lines.append(state)
        }
        // The run at the reported budget: the one --wakes-out and --launches-out write; nothing
        // when no wake of it was scored.
        if let reported = report.reported, reported.reliability.contains(where: { $0.wakes > 0 }) {
            lines.append("")
            lines.append(reliability(reported))
        }
        lines.append("")
        lines.append(
            "fresh@4: "
                + (report.freshAt4.map { String(format: "%.3f", $0) }
                    ?? "not reached (the frontier does not span 4 wakes per app-day)")
                + "   wakes@50: " + (report.wakesAt50.map { String(format: "%.2f", $0) } ?? "not reached"))
        return lines.joined(separator: "\n")
    }

    /// Where the devices told their state: the predictor at the reported budget, the same
    /// predictor told nothing of the state, and the oracle, every device together; `nil` where no
    /// device told it.
    static func deviceState(_ report: BacktestReport) -> String? {
        let ignoring = report.overall.first { $0.strategy == .ignoringState }
        let oracle = report.overall.first { $0.strategy == .oracle }
        let rows = [report.reported, ignoring, oracle].compactMap { figures -> [String]? in
            guard let figures, let state = figures.state else { return nil }
            return [
                figures.strategy.name,
                (figures.strategy == .ignoringState ? report.reported?.budget : figures.budget).map(
                    BudgetLevels.describe) ?? "",
                String(state.refusedByState), String(state.fetchesInLowPowerMode), String(state.constrainedFetches),
                String(state.fetchesBreakingConstraints), String(state.constrainedColdLaunches),
                String(state.constrainedFreshLaunches), String(format: "%.3f", state.constrainedFreshRate),
            ]
        }
        guard !rows.isEmpty else { return nil }
        return "device state (apps with constraints: their cold launches fresh from fetches the state allowed):\n"
            + Output.table(
                [
                    "STRATEGY", "BUDGET", "REFUSED", "FETCHES IN LOW POWER", "CONSTRAINED FETCHES", "BREAKING",
                    "CONSTRAINED COLD", "FRESH UNDER CONSTRAINTS", "RATE",
                ], rows, rightAligned: [1, 2, 3, 4, 5, 6, 7, 8])
    }

    /// The reliability table of one budget level: the wakes grouped by their forecast of the
    /// cold launches they serve, against the fresh cold launches they served.
    static func reliability(_ figures: StrategyFigures) -> String {
        let rows = figures.reliability.filter { $0.wakes > 0 }.map { bin -> [String] in
            [
                bin.upper.map { String(format: "%.2f–%.2f", bin.lower, $0) }
                    ?? String(format: "%.2f or more", bin.lower),
                String(bin.wakes), String(format: "%.1f", bin.forecast), String(bin.served),
                bin.forecast > 0 ? String(format: "%.2f", Double(bin.served) / bin.forecast) : "-",
            ]
        }
        let header =
            "Reliability at budget \(BudgetLevels.describe(figures.budget ?? 0)): "
            + String(
                format: "%.0f fresh cold launches expected of its fetches, %d served (%.2f).",
                figures.expectedFresh ?? 0, figures.servedLaunches,
                (figures.expectedFresh ?? 0) > 0 ? Double(figures.servedLaunches) / figures.expectedFresh! : 0)
        let table = Output.table(
            ["FORECAST PER WAKE", "WAKES", "EXPECTED", "SERVED", "SERVED/EXPECTED"], rows, rightAligned: [1, 2, 3, 4])
        // The cold-start plan's wakes forecast nothing: they are counted in the first row.
        let note =
            (figures.reliability.first?.wakes ?? 0) > 0
            ? "\nThe first row holds the wakes of the cold-start plan (apps with too little history), which forecast none."
            : ""
        return header + "\n" + table + note
    }
}
