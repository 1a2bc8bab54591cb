import Foundation

/// The backtest of the project's protocol: replays logs through the predictor's public API and
/// scores fresh content at cold launches against periodic fetching and the oracle.
public enum Backtest {
    /// Runs every strategy on every device.
    ///
    /// - Parameters:
    ///   - progress: called after each strategy run with the runs done and the runs in all.
    /// - Complexity: O(runs × events × apps) in the worst case; plans are cached per app.
    public static func run(
        _ devices: [BacktestDevice], settings: BacktestSettings, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) -> BacktestReport {
        let prepared = devices.map { PreparedDevice($0, settings) }
        var runs: [(device: Int, strategy: Strategy)] = []
        for index in prepared.indices {
            for budget in settings.budgets { runs.append((index, .predictor(budget))) }
            if !settings.budgets.contains(settings.reportedBudget) {
                runs.append((index, .predictor(settings.reportedBudget)))
            }
            for period in settings.periods { runs.append((index, .periodic(period))) }
            runs.append((index, .oracle))
        }
        let allRuns = runs
        let results = ResultBox(count: runs.count)
        let counter = ResultBox(count: 0)
        DispatchQueue.concurrentPerform(iterations: allRuns.count) { index in
            let (device, strategy) = allRuns[index]
            let outcome = prepared[device].run(strategy, settings)
            results.set(index, outcome)
            progress?(counter.increment(), allRuns.count)
        }
        var report = BacktestReport(devices: [], overall: [], freshAt4: nil, wakesAt50: nil)
        var overall: [String: StrategyFigures] = [:]
        var order: [String] = []
        for (deviceIndex, device) in prepared.enumerated() {
            var figures: [StrategyFigures] = []
            for (index, run) in runs.enumerated() where run.device == deviceIndex {
                let outcome = results.get(index)!
                if case .predictor(let budget) = run.strategy, budget == settings.reportedBudget {
                    report.fetches += outcome.fetches
                    report.launches += outcome.launches
                }
                if case .predictor(let budget) = run.strategy, !settings.budgets.contains(budget) { continue }
                figures.append(outcome.figures)
                let key = run.strategy.key
                if overall[key] == nil { order.append(key) }
                overall[key] = overall[key].map { $0.adding(outcome.figures) } ?? outcome.figures
            }
            report.devices.append(
                DeviceBacktest(
                    device: device.name, timeZone: device.zone.identifier, scoredDays: device.scoredDays,
                    apps: device.scope.keys.sorted(), strategies: figures))
        }
        report.overall = order.map { key in
            var figures = overall[key]!
            if report.devices.count > 1 {
                figures.medianContentAgeMinutes = nil
            } else {
                figures.medianContentAgeMinutes =
                    report.devices.first?.strategies.first {
                        $0.strategy == figures.strategy && $0.budget == figures.budget
                    }?.medianContentAgeMinutes
            }
            return figures
        }
        let frontier = report.overall.filter { $0.strategy == "predictor" }.map { ($0.wakesPerAppDay, $0.freshRate) }
        report.freshAt4 = Frontier.fresh(at: 4, frontier)
        report.wakesAt50 = Frontier.wakes(forFresh: 0.5, frontier)
        return report
    }

    enum Strategy: Sendable {
        case predictor(Double)
        case periodic(Int)
        case oracle

        var key: String {
            switch self {
            case .predictor(let budget): "predictor \(budget)"
            case .periodic(let period): "periodic-\(period)"
            case .oracle: "oracle"
            }
        }
    }

    struct Outcome: Sendable {
        var figures: StrategyFigures
        var fetches: [SimulatedFetch]
        var launches: [ScoredLaunch]
    }

    /// Results written from concurrent runs.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Outcome?]
        private var count = 0

        init(count: Int) { values = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: Outcome) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> Outcome? { lock.withLock { values[index] } }
        func increment() -> Int {
            lock.withLock {
                count += 1; return count
            }
        }
    }
}
