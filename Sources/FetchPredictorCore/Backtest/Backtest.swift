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
        // A level given twice runs once; the default level always runs, to be marked.
        let budgets = (settings.budgets + [settings.defaultBudget]).reduce(into: [Double]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        var runs = plannedRuns(prepared, budgets: budgets, settings)
        let counter = ResultBox(count: 0)
        // Refinement adds at most two levels a round: the progress counts them from the start.
        let refinements = max(0, settings.refinements)
        let planned = runs.count + prepared.count * 2 * refinements
        var outcomes = perform(runs, prepared, settings, done: counter, of: planned, progress: progress)
        var levels = budgets
        for _ in 0..<refinements {
            let more = refinedLevels(levels, runs: runs, outcomes: outcomes)
            if more.isEmpty { break }
            levels += more
            // The reported budget may have run already, beside the levels.
            let toRun = more.filter { $0 != settings.reportedBudget || budgets.contains($0) }
            let extra = prepared.indices.flatMap { device in toRun.map { (device, Strategy.predictor($0)) } }
            outcomes += perform(
                extra, prepared, settings, done: counter, of: planned, progress: progress)
            runs += extra
        }
        return report(prepared, runs: runs, outcomes: outcomes, levels: levels, settings)
    }

    /// The runs of every device: the predictor at each budget level and at the reported budget,
    /// each periodic baseline, the oracle, and on a device that tells its state, the predictor
    /// ignoring it.
    private static func plannedRuns(
        _ devices: [PreparedDevice], budgets: [Double], _ settings: BacktestSettings
    ) -> [(device: Int, strategy: Strategy)] {
        var runs: [(device: Int, strategy: Strategy)] = []
        for (index, device) in devices.enumerated() {
            for budget in budgets { runs.append((index, .predictor(budget))) }
            if !budgets.contains(settings.reportedBudget) {
                runs.append((index, .predictor(settings.reportedBudget)))
            }
            for period in settings.periods { runs.append((index, .periodic(period))) }
            runs.append((index, .oracle))
            if !device.state.isEmpty { runs.append((index, .ignoringState)) }
        }
        return runs
    }

    /// The report of the runs: each device's figures, every device's together, and the
    /// predictor's frontier read at 4 wakes per app-day and at half the cold launches fresh.
    private static func report(
        _ prepared: [PreparedDevice], runs: [(device: Int, strategy: Strategy)], outcomes: [Outcome],
        levels: [Double], _ settings: BacktestSettings
    ) -> BacktestReport {
        var report = BacktestReport(devices: [], overall: [], freshAt4: nil, wakesAt50: nil)
        var overall: [String: StrategyFigures] = [:]
        var order: [String] = []
        for (deviceIndex, device) in prepared.enumerated() {
            var figures: [StrategyFigures] = []
            for (index, run) in runs.enumerated() where run.device == deviceIndex {
                let outcome = outcomes[index]
                var shown = outcome.figures
                shown.isDefault = run.strategy == .predictor(settings.defaultBudget)
                if case .predictor(let budget) = run.strategy, budget == settings.reportedBudget {
                    report.fetches += outcome.fetches
                    report.launches += outcome.launches
                    report.reported = report.reported.map { $0.adding(shown) } ?? shown
                }
                if case .predictor(let budget) = run.strategy, !levels.contains(budget) { continue }
                figures.append(shown)
                let key = run.strategy.key
                if overall[key] == nil { order.append(key) }
                overall[key] = overall[key].map { $0.adding(shown) } ?? shown
            }
            // Predictors first, by budget, then the baselines in their order.
            figures = figures.enumerated().sorted {
                ($0.element.budget ?? 2, $0.offset) < ($1.element.budget ?? 2, $1.offset)
            }.map(\.element)
            report.devices.append(
                DeviceBacktest(
                    device: device.name, timeZone: device.zone.identifier, scoredDays: device.scoredDays,
                    apps: device.scope.keys.sorted(), strategies: figures))
        }
        // The predictor's levels first, refined ones among them, in budget order; then the baselines.
        order =
            levels.sorted().map { Strategy.predictor($0).key }.filter { overall[$0] != nil }
            + order.filter { !$0.hasPrefix("predictor ") }
        report.overall = order.map { overallFigures(overall[$0]!, devices: report.devices) }
        if report.devices.count > 1 { report.reported?.medianContentAgeMinutes = nil }
        let frontier = report.overall.filter(\.strategy.isPredictor).map { ($0.wakesPerAppDay, $0.freshRate) }
        report.freshAt4 = Frontier.fresh(at: 4, frontier)
        report.wakesAt50 = Frontier.wakes(forFresh: 0.5, frontier)
        return report
    }

    /// A strategy's figures over every device, with the median content age of the one device
    /// there is: medians of several devices do not add up.
    private static func overallFigures(_ figures: StrategyFigures, devices: [DeviceBacktest]) -> StrategyFigures {
        var figures = figures
        if devices.count > 1 {
            figures.medianContentAgeMinutes = nil
        } else {
            figures.medianContentAgeMinutes =
                devices.first?.strategies.first {
                    $0.strategy == figures.strategy
                }?.medianContentAgeMinutes
        }
        return figures
    }

    /// Runs strategies on devices, on every core at once; the outcomes in the order of `runs`.
    private static func perform(
        _ runs: [(device: Int, strategy: Strategy)], _ prepared: [PreparedDevice], _ settings: BacktestSettings,
        done counter: ResultBox, of total: Int, progress: (@Sendable (Int, Int) -> Void)?
    ) -> [Outcome] {
        let results = ResultBox(count: runs.count)
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let (device, strategy) = runs[index]
            results.set(index, prepared[device].run(strategy, settings))
            progress?(counter.increment(), total)
        }
        return (0..<runs.count).map { results.get($0)! }
    }

    /// The budgets halfway between the measured levels that fresh@4 and wakes@50 are read
    /// between, on the frontier of every device together; none where those levels are already
    /// within 0.0025 of each other.
    static func refinedLevels(
        _ levels: [Double], runs: [(device: Int, strategy: Strategy)], outcomes: [Outcome]
    ) -> [Double] {
        var pooled: [Double: StrategyFigures] = [:]
        for (run, outcome) in zip(runs, outcomes) {
            guard case .predictor(let budget) = run.strategy, levels.contains(budget) else { continue }
            pooled[budget] = pooled[budget].map { $0.adding(outcome.figures) } ?? outcome.figures
        }
        let points = pooled.map { (budget: $0.key, wakes: $0.value.wakesPerAppDay, fresh: $0.value.freshRate) }
            .sorted { ($0.wakes, $0.budget) < ($1.wakes, $1.budget) }
        var brackets: [(Double, Double)] = []
        let pairs = Array(zip(points, points.dropFirst()))
        if let pair = pairs.first(where: { $0.0.wakes <= 4 && $0.1.wakes >= 4 }) {
            brackets.append((pair.0.budget, pair.1.budget))
        }
        if let pair = pairs.first(where: { $0.0.fresh < 0.5 && $0.1.fresh >= 0.5 }) {
            brackets.append((pair.0.budget, pair.1.budget))
        }
        var more: [Double] = []
        for (a, b) in brackets where abs(a - b) > 0.0025 {
            let middle = ((a + b) / 2 * 10_000).rounded() / 10_000
            if !levels.contains(middle) && !more.contains(middle) { more.append(middle) }
        }
        return more
    }

    /// A way of fetching that a backtest scores.
    public enum Strategy: Sendable, Hashable {
        /// The predictor at a budget level.
        case predictor(Double)
        /// A fetch of every app every so many minutes.
        case periodic(Int)
        /// A fetch just before each cold launch, knowing when it comes: the best any strategy can do.
        /// Where the device tells its state, at the last instant before it that the state allows.
        case oracle
        /// The predictor at the reported budget, told nothing of the device's state: no state
        /// event, no app's constraints. Run on devices that tell their state, to weigh what
        /// honouring it costs and saves.
        case ignoringState
        /// The fetches that happened, as a store holds them: what ``Freshness`` scores.
        case observed

        /// The strategy's name as reports write it: `predictor` (its budget is written apart),
        /// `periodic-30` ... `periodic-480`, or `oracle`.
        public var name: String {
            switch self {
            case .predictor: "predictor"
            case .periodic(let period): "periodic-\(period)"
            case .oracle: "oracle"
            case .ignoringState: "predictor-ignoring-state"
            case .observed: "observed"
            }
        }

        /// The predictor's budget level; `nil` for the baselines.
        public var budget: Double? {
            if case .predictor(let budget) = self { budget } else { nil }
        }

        /// Whether this is the predictor, at any budget.
        public var isPredictor: Bool { budget != nil }

        /// The strategy a report names, with the budget it gives: `nil` for a name it does not know,
        /// or the predictor without a budget.
        public init?(name: String, budget: Double?) {
            if name == "predictor", let budget {
                self = .predictor(budget)
            } else if name == "oracle" {
                self = .oracle
            } else if name == "predictor-ignoring-state" {
                self = .ignoringState
            } else if name == "observed" {
                self = .observed
            } else if name.hasPrefix("periodic-"), let period = Int(name.dropFirst("periodic-".count)) {
                self = .periodic(period)
            } else {
                return nil
            }
        }

        /// Tells runs apart: a predictor's key holds its budget.
        var key: String {
            switch self {
            case .predictor(let budget): "predictor \(budget)"
            case .periodic(let period): "periodic-\(period)"
            case .oracle: "oracle"
            case .ignoringState: "predictor-ignoring-state"
            case .observed: "observed"
            }
        }
    }

    struct Outcome: Sendable {
        var figures: StrategyFigures
        var fetches: [SimulatedFetch]
        var launches: [ScoredLaunch]
        /// The content's age at each scored cold launch with a refresh before it, in minutes.
        var ages: [Double] = []
        /// Each app's own figures and ages: its counts, its days, its fetches' instants.
        var apps: [String: (figures: StrategyFigures, ages: [Double])] = [:]
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
