import ArgumentParser
import FetchPredictor

/// The planning options `next`, `schedule` and `report` share.
struct PlanOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How eager the planner is to spend a wake, from 0 (never) to 1 (whenever a launch may follow) (default: \(PredictorConfiguration().budget)).",
            valueName: "level"),
        transform: BudgetArgument.parse)
    var budget: Double = PredictorConfiguration().budget

    @Option(help: ForecasterArgument.planHelp)
    var forecaster = ForecasterArgument.defaultValue

    @Option(help: WakePlanning.help)
    var planning = PredictorConfiguration().planning

    @OptionGroup var silence: SilenceOptions

    /// The predictor's settings with this budget, way of planning and silence limit.
    var configuration: PredictorConfiguration {
        var configuration = silence.configuration
        configuration.budget = budget
        configuration.planning = planning
        return configuration
    }
}

/// The silence limit, which `serve` takes too.
struct SilenceOptions: ParsableArguments {
    @Option(
        name: .customLong("silent-after"),
        help: ArgumentHelp(
            "Wake no device, and no app, unused (not launched) for this many days, or never (default: \(SilenceArgument.text(PredictorConfiguration().silenceLimit))).",
            valueName: "days"))
    var silentAfter: SilenceArgument?

    /// The default settings with this silence limit.
    var configuration: PredictorConfiguration {
        var configuration = PredictorConfiguration()
        if let silentAfter { configuration.silenceLimit = silentAfter.seconds }
        return configuration
    }
}
