import Foundation

/// One row of a launch model's training data: an app of a device at a decision time, what was
/// known then, and whether a cold launch followed.
public struct LaunchFeatureRow: Sendable, Hashable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// The decision time T.
    public var time: Milliseconds
    /// What was known of the app at T, from the events up to T.
    public var features: LaunchFeatures
    /// Whether a cold launch of the app starts in (T + lead, T + freshness window]: the one
    /// field read from after T.
    public var label: Bool

    /// Creates a value with every field given.
    public init(device: String, app: String, time: Milliseconds, features: LaunchFeatures, label: Bool) {
        self.device = device
        self.app = app
        self.time = time
        self.features = features
        self.label = label
    }
}

extension BacktestDevice {
    /// The device's cold launches by app, each app's in time order, by ``ColdLaunch``'s rule (the
    /// planner's: at least the gap after the previous launch; the backtest's scoring counts the
    /// protocol's, more than the window after it, which differs only at exactly 30 minutes).
    public func coldLaunches(gap: Milliseconds) -> [String: [Milliseconds]] {
        var last: [String: Milliseconds] = [:], cold: [String: [Milliseconds]] = [:]
        for launch in launches.sorted(by: { $0.time < $1.time }) {
            if ColdLaunch.isCold(at: launch.time, previous: last[launch.app], gap: gap) {
                cold[launch.app, default: []].append(launch.time)
            }
            last[launch.app] = launch.time
        }
        return cold
    }

    /// Replays the device's log through a ``FeatureTracker`` and hands out a row for each app in
    /// scope at every decision time: every `everyMinutes` from local midnight of the day
    /// `warmupDays` after the first event's (the protocol's first scored day) to the last event.
    ///
    /// The features at T come from the events up to T, observed in time order before T's rows;
    /// only the label reads the log after T.
    ///
    /// - Parameters:
    ///   - everyMinutes: the minutes between decision times.
    ///   - warmupDays: the days of history before the first decision time (the protocol's 7).
    ///   - minimumColdLaunches: the scope: apps with at least this many cold launches in the log.
    ///   - apps: the apps in scope instead, when given.
    ///   - configuration: the cold-launch gap, the lead and the window of the label, and the
    ///     settings the profiles are read with.
    ///   - body: called with each row, in time order, and by app name at one time.
    /// - Complexity: O(events + decision times × apps in scope × a week of an app's cold launches).
    public func launchFeatureRows(
        everyMinutes: Int, warmupDays: Int = 7, minimumColdLaunches: Int = 20, apps: [String]? = nil,
        configuration: PredictorConfiguration = PredictorConfiguration(),
        _ body: (LaunchFeatureRow) throws -> Void
    ) rethrows {
        let events = (launches + deviceEvents).sorted { $0.time < $1.time }
        guard let first = events.first, let last = events.last, everyMinutes > 0 else { return }
        let colds = coldLaunches(gap: ColdLaunch.gap(configuration))
        let scope = apps?.sorted() ?? colds.filter { $0.value.count >= minimumColdLaunches }.keys.sorted()
        guard !scope.isEmpty else { return }
        let firstDay = DeviceModel.local(first.time, utcOffset: nil, zone: timeZone).day + warmupDays
        let dayStart = Milliseconds(firstDay) * .perDay
        var time = dayStart - .seconds(timeZone.secondsFromGMT(for: Date(milliseconds: dayStart)))
        let step = Milliseconds.minutes(everyMinutes)
        let lead = configuration.leadMilliseconds
        let window = configuration.windowMilliseconds
        var tracker = FeatureTracker(timeZone: timeZone, configuration: configuration)
        var next = 0
        // For each app, the first of its cold launches not yet at or before T + lead.
        var labelIndex = [Int](repeating: 0, count: scope.count)
        while time <= last.time {
            while next < events.count, events[next].time <= time {
                tracker.observe(events[next])
                next += 1
            }
            for (index, app) in scope.enumerated() {
                let times = colds[app] ?? []
                while labelIndex[index] < times.count, times[labelIndex[index]] <= time + lead {
                    labelIndex[index] += 1
                }
                let label = labelIndex[index] < times.count && times[labelIndex[index]] <= time + window
                try body(
                    LaunchFeatureRow(
                        device: name, app: app, time: time, features: tracker.features(of: app, at: time), label: label)
                )
            }
            time += step
        }
    }
}
