import FetchPredictor
import Foundation

/// The text forms of wakes, shared by `next` and `schedule`.
enum WakeText {
    /// The block of one device wake: its time and how many apps, then a line per app with its
    /// reasons, wrapped to `width` columns and aligned on `appWidth`.
    static func lines(
        _ wake: DeviceWake, zone: TimeZone, only app: String? = nil, appWidth: Int? = nil,
        width: Int = Output.columns
    ) -> [String] {
        let apps = wake.apps.filter { app == nil || $0.app == app }
        let nameWidth = appWidth ?? apps.map(\.app.count).max() ?? 0
        var lines = ["\(Output.local(wake.time, zone))  \(apps.count) app\(apps.count == 1 ? "" : "s")"]
        for appWake in apps {
            // The block names its apps once: "coalesced with" would name them again.
            let reasons = appWake.reasons.filter { if case .coalesced = $0 { false } else { true } }
            let prefix =
                "  " + appWake.app + String(repeating: " ", count: max(0, nameWidth - appWake.app.count)) + "  "
            lines += wrap(reasons.map(\.description).joined(separator: "; "), first: prefix, width: width)
        }
        return lines
    }

    /// Text wrapped at spaces to `width` columns, the first line after `first`, the others
    /// indented as far.
    static func wrap(_ text: String, first: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: first.count)
        let room = max(20, width - first.count)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > room {
                lines.append(current)
                current = String(word)
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(current)
        return lines.enumerated().map { ($0.offset == 0 ? first : indent) + $0.element }
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

    /// What `schedule` prints: a summary line, then every device wake, wrapped to the width.
    static func schedule(_ schedule: Schedule, hours: Double, zone: TimeZone, hint: String?) -> String {
        let width = Output.columns
        let span = hours == hours.rounded() ? String(Int(hours)) : String(hours)
        var text = wrap(
            "Schedule of device \(schedule.device) (\(TimeZoneName.name(of: zone))) from \(Output.local(schedule.from, zone)) "
                + "for \(span) h: \(wakeCount(schedule)).",
            first: "", width: width)
        if let hint { text += wrap(hint, first: "", width: width) }
        let appWidth = schedule.wakes.flatMap(\.apps).map(\.app.count).max() ?? 0
        for wake in schedule.wakes { text += lines(wake, zone: zone, appWidth: appWidth, width: width) }
        if !schedule.wakes.isEmpty { text += wrap(laterHours, first: "", width: width) }
        if !schedule.silentApps.isEmpty {
            let shown = schedule.silentApps.prefix(8).joined(separator: ", ")
            let more = schedule.silentApps.count > 8 ? " and \(schedule.silentApps.count - 8) more" : ""
            text += wrap(
                "Gone silent, not launched for longer than --silent-after, so not woken: \(shown)\(more).",
                first: "", width: width)
        }
        if !schedule.coldStartApps.isEmpty {
            text += wrap(
                "Cold start, too little history to learn from: \(schedule.coldStartApps.joined(separator: ", ")).",
                first: "", width: width)
        }
        return text.joined(separator: "\n")
    }

    /// What a schedule's later hours stand on: each wake assumes no launch of its app before it.
    static let laterHours =
        "Each wake assumes no launch of its app before it, so later hours plan fewer wakes "
        + "(an app not opened for hours looks like one in a quiet spell); every launch replans its app: "
        + "ask again as events come."

    /// A schedule's size: "N device wakes for M app fetches", each in its number.
    static func wakeCount(_ schedule: Schedule) -> String {
        "\(Output.count(schedule.wakes.count, "device wake")) for \(Output.count(schedule.appWakeCount, "app fetch"))"
    }

    /// Why a schedule made as of `now` may be empty, when the settings or the log's age explain
    /// it: no app yet, none that may fetch, a device (or the app asked about) gone silent, or a
    /// log that ended long before `now`, whose apps are all in a quiet spell. Read from the model
    /// the scheduler planned with.
    static func emptyHint(
        _ scheduler: FetchScheduler, device: String, app: String? = nil, asOf now: Date, zone: TimeZone
    ) async throws -> String? {
        let reason = try await scheduler.whyNoWake(device: device, app: app, asOf: now)
        return emptyHint(reason, device: device, app: app, asOf: now, zone: zone)
    }

    /// The sentence that says why a schedule is empty, from `reason`; `nil` with none.
    static func emptyHint(_ reason: NoWake?, device: String, app: String?, asOf now: Date, zone: TimeZone) -> String? {
        guard let reason else { return nil }
        switch reason {
        case .noApps:
            return "No apps on device \(device) yet: import a log or record launches first."
        case .noAppMayFetch:
            if let app {
                return "The interval of \(app) is never (the default, as on iOS) or its fetch is disabled: "
                    + "set one with fetchpredict config \(app) --interval minimum (and --enable)."
            }
            return "Every app's interval is never (the default, as on iOS) or fetch is disabled: "
                + "set one with fetchpredict config APP --interval minimum, or fetchpredict config --default-interval minimum."
        case .lowPowerMode(let mode):
            return "No wake planned: Low Power Mode is on on device \(device) since \(Output.local(mode.since, zone)), "
                + "and no app is woken while it is; an event that turns it off (lowPowerOff) brings the wakes back."
        case .silent(let silence):
            let subject = silence.app.map { "app \($0) on device \(device)" } ?? "device \(device)"
            let days = Int((silence.since.timeIntervalSince(silence.lastLaunch) / 86_400).rounded())
            return
                "No wake planned: \(subject) went silent, with no launch since \(Output.local(silence.lastLaunch, zone)); "
                + "nothing unused for \(Output.count(days, "day")) is woken (--silent-after), so no wake since "
                + "\(Output.local(silence.since, zone)). Its next launch brings its wakes back. "
                + "To plan as the log ended, ask as of then: --now \(TimestampFormatter.iso(silence.lastLaunch.milliseconds))."
        case .stale(let lastEvent):
            let days = Int(now.timeIntervalSince(lastEvent) / 86_400)
            return "No wake planned: the last event of device \(device) was at \(Output.local(lastEvent, zone)), "
                + "\(Output.count(days, "day")) before now, and apps unused that long are in a quiet spell. "
                + "To plan as the log ended, ask as of then: --now \(TimestampFormatter.iso(lastEvent.milliseconds))."
        }
    }
}
