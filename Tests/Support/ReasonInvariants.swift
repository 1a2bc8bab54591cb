import FetchPredictorCore
import Foundation

/// What the reasons of every planned wake must satisfy: each is true of its wake.
public enum ReasonInvariants {
    /// The problems with the reasons of a schedule's wakes, in a zone; empty when there are none.
    ///
    /// - Every app wake says why: a habit, usual use at this time, a return, or a cold start.
    /// - A habit's peak lies from the lead to the end of the window after the device wake (so no
    ///   wake names a peak already over), and its confidence is above 0.
    /// - A return's window reaches past the cold-launch gap after the app's last launch, and its
    ///   minutes since that launch, when `lastLaunches` gives it, are those from the launch to the
    ///   device wake as it happens (after coalescing moved it), not to the time first planned.
    /// - A wake the launch model chose names what its chance comes from (the app opened last, the
    ///   return after its own last launch, the time of day or a habit), beside a chance above 0.
    /// - The named parts of a wake's expected launches (usual use at this time, a return) add up to
    ///   its expected launches, and a wake that expects any names them, unless the launch model
    ///   chose it (it names its chance) or it is a cold start's.
    /// - A cold start's wake names the rule that earned it (``WakeReason/newApp(coldLaunchesPerDay:days:expectedLaunches:)``):
    ///   at least the configuration's cold launches a day, and what it expects.
    public static func check(
        _ schedule: Schedule, zone: TimeZone, _ configuration: PredictorConfiguration = PredictorConfiguration(),
        lastLaunches: [String: Date] = [:]
    ) -> [String] {
        var problems: [String] = []
        let window = Int(configuration.freshnessWindow / 60)
        let lead = Int((configuration.lead / 60).rounded(.up))
        for wake in schedule.wakes {
            let local = wake.time.milliseconds + Milliseconds(zone.secondsFromGMT(for: wake.time)) * 1000
            let minute = Int(((local % 86_400_000) + 86_400_000) % 86_400_000 / 60_000)
            for app in wake.apps {
                let label = "\(app.app) at \(TimestampFormatter.iso(wake.time.milliseconds))"
                var explained = false
                for reason in app.reasons {
                    switch reason {
                    case .peak(let peak, _, let confidence):
                        explained = true
                        let ahead = ((peak - minute) % 1440 + 1440) % 1440
                        if ahead < lead || ahead > window {
                            problems.append("\(label): a peak \(ahead) min after the wake, outside \(lead)–\(window)")
                        }
                        if confidence <= 0 { problems.append("\(label): a peak of confidence 0") }
                    case .returning(let since, let expected):
                        explained = true
                        if since < 0 || since + window < Int(configuration.coldLaunchGap / 60) {
                            problems.append("\(label): a return only \(since) min after the last launch")
                        }
                        if expected <= 0 { problems.append("\(label): a return that expects nothing") }
                        if let last = lastLaunches[app.app] {
                            let minutes = Int((wake.time.milliseconds - last.milliseconds) / 60_000)
                            if since != minutes {
                                problems.append(
                                    "\(label): 'opened \(since) min before', \(minutes) min after the launch")
                            }
                        }
                    case .usualTime(let expected):
                        explained = true
                        if expected <= 0 { problems.append("\(label): usual use that expects nothing") }
                    case .coldStart:
                        explained = true
                        // The rule that earned it is named, with its figures.
                        let rule = app.reasons.first { if case .newApp = $0 { true } else { false } }
                        if case .newApp(let perDay, let days, let expected) = rule {
                            if perDay < configuration.coldStartLeastPerDay || days < 1 {
                                problems.append("\(label): a cold start earned by \(perDay) cold launches a day")
                            }
                            if abs(expected - app.expectedLaunches) > 1e-9 || expected <= 0 {
                                problems.append(
                                    "\(label): a cold start expecting \(app.expectedLaunches), said \(expected)")
                            }
                        } else {
                            problems.append("\(label): a cold-start wake names no rule that earned it")
                        }
                    case .follows(_, let share):
                        explained = true
                        if share < 0 || share > 1 {
                            problems.append("\(label): follows another app \(share) of the time")
                        }
                    case .launchModel(let chance):
                        if chance <= 0 || chance > 1 {
                            problems.append("\(label): a launch model's chance of \(chance)")
                        }
                    case .newContent(let chance):
                        if chance <= 0 || chance > 1 {
                            problems.append("\(label): a chance of new content of \(chance)")
                        }
                    default:
                        break
                    }
                }
                if !explained { problems.append("\(label): no reason says why: \(app.reasons)") }
                let fromModelOrColdStart = app.reasons.contains {
                    switch $0 {
                    case .launchModel, .coldStart: true
                    default: false
                    }
                }
                let named = app.reasons.reduce(0.0) {
                    switch $1 {
                    case .usualTime(let expected), .returning(_, let expected): $0 + expected
                    default: $0
                    }
                }
                if !fromModelOrColdStart, abs(named - app.expectedLaunches) > 1e-9 * max(1, app.expectedLaunches) {
                    problems.append(
                        "\(label): expects \(app.expectedLaunches) cold launches, its reasons name \(named)")
                }
            }
        }
        return problems
    }
}
