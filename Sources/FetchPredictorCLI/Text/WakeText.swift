import FetchPredictor
import Foundation

/// The text forms of wakes, shared by `next` and `schedule`.
enum WakeText {
    /// The lines of one device wake: its time, then one line per app with its reasons.
    static func lines(_ wake: DeviceWake, zone: TimeZone, only app: String? = nil) -> [String] {
        let time = Output.local(wake.time, zone)
        let apps = wake.apps.filter { app == nil || $0.app == app }
        let width = apps.map(\.app.count).max() ?? 0
        return apps.enumerated().map { index, appWake in
            let prefix = index == 0 ? time : String(repeating: " ", count: time.count)
            let padded = appWake.app + String(repeating: " ", count: width - appWake.app.count)
            return "\(prefix)  \(padded)  \(appWake.reasons.map(\.description).joined(separator: "; "))"
        }
    }

    /// What `next` prints: the wake and how soon it comes, or why there is none.
    static func next(_ answer: NextCommand.Answer, zone: TimeZone, hint: String?) -> String {
        guard let wake = answer.wake else {
            let app = answer.app.map { " for \($0)" } ?? ""
            return hint
                ?? "No wake planned in the next 24 hours\(app): no launch is expected soon enough to be worth one."
        }
        let minutes = Int(wake.time.timeIntervalSince(answer.now) / 60)
        return (["Next wake in \(minutes / 60) h \(minutes % 60) min:"] + lines(wake, zone: zone, only: answer.app))
            .joined(separator: "\n")
    }

    /// What `schedule` prints: a summary line, then every device wake.
    static func schedule(_ schedule: Schedule, hours: Double, zone: TimeZone, hint: String?) -> String {
        let span = hours == hours.rounded() ? String(Int(hours)) : String(hours)
        var text = [
            "Schedule of device \(schedule.device) (\(zone.identifier)) from \(Output.local(schedule.from, zone)) "
                + "for \(span) h: \(schedule.wakes.count) device wakes for \(schedule.appWakeCount) app fetches."
        ]
        if let hint { text.append(hint) }
        for wake in schedule.wakes { text += lines(wake, zone: zone) }
        if !schedule.coldStartApps.isEmpty {
            text.append(
                "Cold start, too little history to learn from: \(schedule.coldStartApps.joined(separator: ", ")).")
        }
        return text.joined(separator: "\n")
    }

    /// Why a schedule may be empty, when the settings explain it.
    static func emptyHint(_ store: EventStore, device: String) throws -> String? {
        let apps = try store.appSettings(device: device)
        if apps.isEmpty { return "No apps on device \(device) yet: import a log or record launches first." }
        let defaultInterval = try store.defaultInterval()
        if apps.allSatisfy({ ($0.interval ?? defaultInterval) == .never || !$0.enabled }) {
            return "Every app's interval is never (the default, as on iOS) or fetch is disabled: "
                + "set one with fetchpredict config APP --interval minimum, or fetchpredict config --default-interval minimum."
        }
        return nil
    }
}
