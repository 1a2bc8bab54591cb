import ArgumentParser
import FetchPredictor

/// The planning option `next` and `schedule` share.
struct PlanOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How eager the planner is to spend a wake, from 0 (never) to 1 (whenever a launch may follow) (default: \(PredictorConfiguration().budget)).",
            valueName: "level"),
        transform: BudgetArgument.parse)
    var budget: Double = PredictorConfiguration().budget

    /// The predictor's settings with this budget.
    var configuration: PredictorConfiguration {
        var configuration = PredictorConfiguration()
        configuration.budget = budget
        return configuration
    }
}
