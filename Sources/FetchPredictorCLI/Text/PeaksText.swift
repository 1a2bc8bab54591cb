import FetchPredictor
import Foundation

/// What `peaks` prints: each app's profiles, peaks and a chart of its day.
enum PeaksText {
    /// One profile in the JSON form.
    struct ProfileJSON: Encodable {
        var days: DayKind
        var launchesPerDay: Double
        var peaks: [Peak]
        /// Expected cold launches per day in each half hour from midnight.
        var halfHourly: [Double]
    }

    /// One app in the JSON form.
    struct AppJSON: Encodable {
        var app: String
        var coldStart: Bool
        var profiles: [ProfileJSON]
        /// How the app is used lately, as of now.
        var state: AppState
        /// The state in a sentence.
        var stateText: String

        /// What the scheduler learned of an app: one profile, or weekdays and weekends apart,
        /// and its state as of `now`.
        init(app: String, device: String, now: Date, zone: TimeZone, scheduler: FetchScheduler) throws {
            let weekday = try scheduler.profile(app: app, device: device, days: .weekday, asOf: now)
            let profiles =
                weekday.days == .all
                ? [weekday] : [weekday, try scheduler.profile(app: app, device: device, days: .weekend, asOf: now)]
            self.app = app
            coldStart = try scheduler.isColdStart(app: app, device: device, asOf: now)
            state = try scheduler.state(app: app, device: device, now: now)
            stateText = state.description(now: now, zone: zone)
            self.profiles = profiles.map {
                ProfileJSON(
                    days: $0.days, launchesPerDay: $0.launchesPerDay, peaks: $0.peaks, halfHourly: halfHourly($0))
            }
        }
    }

    static func describe(_ apps: [AppJSON], device: String) -> String {
        if apps.isEmpty { return "No apps on device \(device) yet: import a log or record launches first." }
        var lines: [String] = []
        for entry in apps {
            lines.append("\(entry.app)\(entry.coldStart ? " (cold start: too little history yet)" : "")")
            for profile in entry.profiles {
                let label = profile.days == .all ? "every day" : profile.days.rawValue + "s"
                lines.append(String(format: "  %@, %.1f cold launches a day", label, profile.launchesPerDay))
                lines.append("  |" + chart(profile.halfHourly) + "|")
                lines.append("   0     3     6     9     12    15    18    21    24")
                for peak in profile.peaks {
                    lines.append(
                        String(
                            format: "  peak %@  ±%.0f min  %.2f a day  confidence %.0f%%", peak.timeText,
                            peak.spreadMinutes, peak.launchesPerDay, peak.confidence * 100))
                }
            }
            lines.append("  now: \(entry.stateText)")
        }
        return lines.joined(separator: "\n")
    }

    static func halfHourly(_ profile: DailyProfile) -> [Double] {
        stride(from: 0, to: profile.rates.count, by: 6).map { profile.rates[$0..<($0 + 6)].reduce(0, +) }
    }

    /// One block character per half hour, from blank to full, scaled to the busiest half hour.
    static func chart(_ values: [Double]) -> String {
        let blocks = Array(" ▁▂▃▄▅▆▇█")
        let top = values.max() ?? 0
        guard top > 0 else { return String(repeating: " ", count: values.count) }
        return String(values.map { blocks[min(8, Int(($0 / top * 8).rounded()))] })
    }
}
