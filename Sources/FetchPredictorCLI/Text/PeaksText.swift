import FetchPredictor
import Foundation

/// What `peaks` prints: each app's profiles, peaks and a chart of its day.
enum PeaksText {
    static func describe(_ apps: [AppHabits], device: String) -> String {
        if apps.isEmpty { return "No apps on device \(device) yet: import a log or record launches first." }
        var lines: [String] = []
        for entry in apps {
            lines.append("\(entry.app)\(entry.coldStart ? " (cold start: too little history yet)" : "")")
            for profile in entry.profiles {
                let label = profile.days == .all ? "every day" : profile.days.rawValue + "s"
                // An app used on a day or two has no daily rate to speak of: one launch would read
                // as "1.0 cold launches a day".
                if entry.coldStart, entry.state.usualLastWeek == nil {
                    let days = entry.state.launchSpanDays
                    lines.append(
                        "  \(label), too few days of use for a daily rate (launched over \(Output.count(days, "day")))")
                } else {
                    lines.append(String(format: "  %@, %.1f cold launches a day", label, profile.launchesPerDay))
                }
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

    /// One block character per half hour, from blank to full, scaled to the busiest half hour.
    static func chart(_ values: [Double]) -> String {
        let blocks = Array(" ▁▂▃▄▅▆▇█")
        let top = values.max() ?? 0
        guard top > 0 else { return String(repeating: " ", count: values.count) }
        return String(values.map { blocks[min(8, Int(($0 / top * 8).rounded()))] })
    }
}
