extension PredictorConfiguration {
    /// The version of ``learningKey``: raised when learning changes what it keeps from the same
    /// settings, so that models cached under the old keys are learned again.
    public static let learningKeyVersion = 2

    /// The settings that change what a ``DeviceModel`` learns from events for a forecaster that
    /// reads `learning` (``LaunchForecaster/inputs``), as text: two configurations with the same
    /// key learn the same model from the same events, and a model learned under one key serves
    /// every configuration and every forecaster with it.
    ///
    /// Settings of planning alone (``budget``, the caps, coalescing, back-off...) are not in it:
    /// a cached model serves any of them. A setting that learning reads must be, and the tests
    /// change each field in turn to hold the key to what learning reads.
    ///
    /// ```swift
    /// var eager = PredictorConfiguration()
    /// eager.budget = 0.95
    /// eager.learningKey(learning: .launchHazard)
    ///     == PredictorConfiguration().learningKey(learning: .launchHazard)  // true: the same model
    /// ```
    public func learningKey(learning: ForecastInputs) -> String {
        var settings = [
            "v\(Self.learningKeyVersion)", "decay=\(dailyDecay)", "habits=\(habitDecay)", "fetch=\(fetchDecay)",
            "gap=\(coldLaunchGap)",
            // The calibration binds fetches to the launches of their window.
            "window=\(freshnessWindow)", "lead=\(lead)", "hazard=\(learning.contains(.launchHazard))",
        ]
        // The launch model's traces follow the session and count cold launches by the gap.
        if learning.contains(.launchFeatures) { settings.append("traces") }
        if learning.contains(.launchHazard) {
            // The hazard snapshots each app's planning profile every day.
            settings += [
                "smoothing=\(smoothingMinutes)", "weekends=\(splitsWeekends)",
                "coldStart=\(coldStartDays),\(coldStartLaunches)",
            ]
        }
        return settings.joined(separator: " ")
    }
}
