import Foundation

/// Why a wake was planned, or how it was shaped. Each reason is true of its wake: a peak is
/// named only when it falls between the wake's lead and the end of its freshness window.
public enum WakeReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One of the app's habits peaks between the wake's lead and the end of its window: its
    /// local time (minutes after midnight), its spread in minutes and its confidence from 0 to 1.
    case peak(minute: Int, spreadMinutes: Double, confidence: Double)
    /// The app's daily profile expects this many cold launches in the launches the wake serves
    /// (from its lead, or past what the app's wake before serves, to the end of its window):
    /// use at this time of day. With ``returning(minutesSinceLastLaunch:expectedLaunches:)`` it
    /// adds up to the wake's expected launches, beside any peak it names.
    case usualTime(expectedLaunches: Double)
    /// The app was opened this many minutes before the wake, and apps are often opened again
    /// soon after: this many cold launches, of those the wake serves, are expected from how soon
    /// it usually comes back.
    case returning(minutesSinceLastLaunch: Int, expectedLaunches: Double)
    /// The app has too little history; this is the conservative cold-start plan.
    case coldStart
    /// What earned a new app its cold-start wake: its cold launches a day over the `days` since
    /// its first event (at least ``PredictorConfiguration/coldStartLeastPerDay``), and the cold
    /// launches the wake expects of them spread over a waking day.
    case newApp(coldLaunchesPerDay: Double, days: Int, expectedLaunches: Double)
    /// The app's interval held the wake back until this time.
    case intervalHeldBack(until: Date, interval: FetchInterval)
    /// Failures made the app back off until this time.
    case backoff(failures: Int, until: Date)
    /// It shares a device wake with these apps.
    case coalesced(with: [String])
    /// It was moved earlier by this many seconds to share a device wake.
    case movedEarlier(seconds: Double)
    /// The chance (0 to 1), learned from fetch results, that new content is there to fetch.
    case newContent(chance: Double)
    /// The share of the app's fetches at this hour that fail (0 to 1), learned from fetch
    /// results; the wake is worth less by as much.
    case failures(rate: Double)
    /// The app is often opened soon after the app opened last, which the launch model weighs:
    /// that app's name, and the share (0 to 1) of its launches that one of this app followed
    /// within 30 minutes.
    case follows(app: String, share: Double)
    /// The launch model's chance (0 to 1) of a cold launch of the app in the wake's window.
    case launchModel(chance: Double)
    /// A forecaster of the library's user (``LaunchForecaster``), by its name, gives this chance
    /// (0 to 1) of a cold launch of the app in the wake's window.
    case forecast(forecaster: String, chance: Double)
    /// The device's push budget (at most this many device wakes in any hour) held back this many
    /// wakes since the wake before, worth fewer expected launches than those it kept.
    case budget(wakesPerHour: Int, heldBack: Int)
    /// The app asks for a state of the device (``AppConstraints``): the chance (0 to 1) that each
    /// it asks for holds at the wake, from the state the last events left or what the time of
    /// day usually brings; `nil` for one it does not ask for, or that nothing the device told says for
    /// the wake's time (it never told it, or told it only since less than a span of that time of day).
    case requiredState(onPower: Double?, unmetered: Double?, batteryNotLow: Double?)
    /// The battery was at this percent, under ``AppConstraints/lowBattery``, and not charging
    /// when the plan was made: the wake, within ``Planner/currentStateMinutes`` of it, counted
    /// at ``Planner/lowBatteryWorth`` of its worth.
    case lowBattery(percent: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .peak(let minute, let spread, let confidence):
            return String(
                format: "before its %02d:%02d habit (±%.0f min, confidence %.0f%%)", minute / 60, minute % 60, spread,
                confidence * 100)
        case .usualTime(let expected):
            return String(format: "usual use at this time of day (%.2f expected cold launches)", expected)
        case .returning(let minutes, let expected):
            return String(
                format: "opened %d min before; often opened again soon after (%.2f expected cold launches)", minutes,
                expected)
        case .coldStart:
            return "cold start: too little history, conservative plan"
        case .newApp(let perDay, let days, let expected):
            return String(
                format: "new: %.1f cold launches a day over its %d day%@, %.2f expected in the window "
                    + "if spread over the day", perDay, days, days == 1 ? "" : "s", expected)
        case .intervalHeldBack(let until, let interval):
            return "held back by the \(interval) interval until \(TimestampFormatter.iso(until.milliseconds))"
        case .backoff(let failures, let until):
            return "backing off after \(failures) failed fetches until \(TimestampFormatter.iso(until.milliseconds))"
        case .coalesced(let apps):
            return "coalesced with \(apps.joined(separator: ", "))"
        case .movedEarlier(let seconds):
            return "moved \(Int(seconds / 60)) min earlier to share a device wake"
        case .newContent(let chance):
            return String(format: "%.0f%% chance of new content by then, from past fetch results", chance * 100)
        case .failures(let rate):
            return String(format: "%.0f%% of its fetches at this hour fail", rate * 100)
        case .follows(let app, let share):
            return String(
                format: "often opened after %@, which was opened last (after %.0f%% of its launches)", app, share * 100)
        case .launchModel(let chance):
            return String(format: "the launch model gives a %.0f%% chance of a cold launch in the window", chance * 100)
        case .forecast(let forecaster, let chance):
            return String(
                format: "the %@ forecaster gives a %.0f%% chance of a cold launch in the window", forecaster,
                chance * 100)
        case .budget(let perHour, let heldBack):
            return "the push budget of \(perHour) wake\(perHour == 1 ? "" : "s") an hour held back \(heldBack) "
                + "less useful wake\(heldBack == 1 ? "" : "s") before this one"
        case .requiredState(let power, let unmetered, let batteryNotLow):
            let parts = [
                ("being on power", power), ("being on an unmetered network", unmetered),
                ("having a battery not low", batteryNotLow),
            ].compactMap { name, chance in chance.map { String(format: "%@ (%.0f%% likely then)", name, $0 * 100) } }
            return parts.isEmpty
                ? "asks for a state of the device that nothing the device told says for this time: woken as if it did not ask"
                : "counts on the device " + parts.joined(separator: " and ")
        case .lowBattery(let percent):
            return "the battery was at \(percent)% and not charging: the wake counted at half its worth"
        }
    }
}
