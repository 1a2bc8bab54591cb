import FetchPredictorCore
import FetchPredictorImport
import Foundation

/// Device wakes as CSV rows and as an iCalendar file (RFC 5545), for other tools and calendars.
public enum WakeCalendar {
    /// One row per app fetch: `time,device,app,planned,expected_launches,reasons`.
    public static func csv(_ wakes: [DeviceWake]) -> String {
        var lines = ["time,device,app,planned,expected_launches,reasons"]
        for wake in wakes {
            for app in wake.apps {
                // Names and reasons are text a spreadsheet must not run as a formula.
                lines.append(
                    [
                        CSVText.field(TimestampFormatter.iso(wake.time.milliseconds)), CSVText.textCell(wake.device),
                        CSVText.textCell(app.app), CSVText.field(TimestampFormatter.iso(app.plannedTime.milliseconds)),
                        CSVText.field(String(format: "%.3f", app.expectedLaunches)),
                        CSVText.textCell(app.reasons.map(\.description).joined(separator: "; ")),
                    ].joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// An iCalendar file with one event per device wake: a UID stable for the same device and
    /// time, the start in UTC, the apps in the summary and their reasons in the description.
    ///
    /// - Parameters:
    ///   - wakes: the device wakes, each an event.
    ///   - stamp: the `DTSTAMP` of every event: when the plan was made.
    public static func ics(_ wakes: [DeviceWake], stamp: Date) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//FetchPredictor//fetchpredict//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
        ]
        for wake in wakes {
            let apps = wake.apps.map(\.app)
            let reasons = wake.apps.map { app in
                app.app + ": "
                    + app.reasons.filter { if case .coalesced = $0 { false } else { true } }.map(\.description)
                    .joined(separator: "; ")
            }
            lines += [
                "BEGIN:VEVENT",
                "UID:" + escape("\(wake.device)-\(wake.time.milliseconds)@fetchpredict"),
                "DTSTAMP:" + utc(stamp),
                "DTSTART:" + utc(wake.time),
                "DURATION:PT1M",
                "SUMMARY:" + escape("Wake: " + apps.joined(separator: ", ")),
                "DESCRIPTION:" + escape(reasons.joined(separator: "\n")),
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `20240129T055900Z`.
    static func utc(_ date: Date) -> String {
        let iso = TimestampFormatter.iso(date.milliseconds / 1000 * 1000)
        return iso.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// Text as an iCalendar TEXT value: backslashes, semicolons, commas and line breaks escaped.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A content line folded at 75 octets, each continuation starting with a space, never inside
    /// a UTF-8 character.
    static func fold(_ line: String) -> String {
        var parts: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            let limit = parts.isEmpty ? 75 : 74
            if octets + size > limit {
                parts.append(current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        parts.append(current)
        return parts.joined(separator: "\r\n ")
    }
}
