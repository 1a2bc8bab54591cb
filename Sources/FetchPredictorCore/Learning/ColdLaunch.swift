/// The rule of a cold launch: one that comes with the app not opened for at least the cold-launch
/// gap (``PredictorConfiguration/coldLaunchGap``), the launches a background fetch can serve.
/// The learning, the planner, the report and the launch model's features count cold launches by
/// it. The backtest scores by the protocol's own rule (no launch in the window before, strictly),
/// which differs from this one only for a launch exactly 30 minutes after the previous.
public enum ColdLaunch {
    /// Whether a launch at `time` is cold: the app's first launch, or one at least `gap` after
    /// its previous launch.
    @inlinable
    public static func isCold(at time: Milliseconds, previous: Milliseconds?, gap: Milliseconds) -> Bool {
        previous.map { time - $0 >= gap } ?? true
    }

    /// The cold-launch gap of a configuration, in milliseconds.
    public static func gap(_ configuration: PredictorConfiguration) -> Milliseconds {
        configuration.coldLaunchGapMilliseconds
    }
}
