import ArgumentParser
import FetchPredictor
import Foundation

/// What `import` prints: a line per file, the refused rows on standard error, or the JSON summary.
enum ImportText {
    /// A file that could not be imported.
    struct Failure: Encodable {
        var file: String
        var error: String
        /// For a file refused for its invalid rows: how many, and the first of them, each with
        /// its line and field, as an import with --skip-invalid lists them.
        var rejected: Int?
        var rejections: [Rejection]?

        init(file: String, error: any Error) {
            self.file = file
            self.error = ErrorText.message(error)
            if case ImportError.invalidRows(_, let count, let first) = error {
                rejected = count
                rejections = first
            }
        }
    }

    /// The JSON form of a whole run.
    struct Summary: Encodable {
        var imports: [ImportReport]
        var failures: [Failure]
        /// The apps of the devices imported into that are taken as the system's (`SystemApps`):
        /// never woken until given an interval of their own.
        var systemApps: [SystemApp]
    }

    /// An app taken as the system's: its device, its name, and what the table of system apps
    /// says it is (`phone`, `clock`, `settings`...).
    struct SystemApp: Encodable, Equatable {
        var device: String
        var app: String
        var role: String
    }

    /// The line that says which apps were taken as the system's, each with what it is, and how
    /// to wake one anyway; `nil` when none was.
    static func systemAppsNote(_ apps: [SystemApp]) -> String? {
        guard !apps.isEmpty else { return nil }
        let devices = Set(apps.map(\.device))
        let names = apps.map { app in
            (devices.count > 1 ? "\(app.device): " : "") + "\(app.app)" + (app.role.isEmpty ? "" : " (\(app.role))")
        }
        let shown = names.count > 12 ? names.prefix(12) + ["and \(names.count - 12) more"] : names[...]
        return "Taken as the system's, never woken until given an interval of their own "
            + "(fetchpredict config APP --interval minimum): \(shown.joined(separator: ", "))."
    }

    /// The one-line summary of an import: the file, its format, the device it went into and
    /// `zone`, that device's (rows of a file that name their own devices go into theirs: one
    /// named, with its zone; several, counted, the first named), and the counts. A duplicate is
    /// an event the store already held: the same app, kind and instant.
    static func describe(_ report: ImportReport, zone: TimeZone?) -> String {
        let how = report.formatDetected ? "detected" : "given"
        let into: String
        if report.devices.count > 1 {
            let first = report.devices.prefix(3).joined(separator: ", ")
            into =
                "\(Output.count(report.devices.count, "device")) (\(first)\(report.devices.count > 3 ? ", ..." : ""))"
        } else {
            into =
                "device \(report.devices.first ?? report.device) "
                + "(\(zone.map(TimeZoneName.name(of:)) ?? "no time zone"))"
        }
        return
            "\(report.file) (\(report.format.rawValue), \(how)) into \(into): \(Output.count(report.rowsRead, "row")) read, "
            + "\(Output.count(report.events, "event")): \(report.stored) stored, \(report.duplicates) already stored, "
            + "\(report.rejected) rejected."
    }

    /// Prints an import's summary, and its first refused rows on standard error.
    static func show(_ report: ImportReport, zone: TimeZone?, rejectsPath: String?) {
        print(describe(report, zone: zone))
        guard report.rejected > 0 else { return }
        for rejection in report.rejections { Output.error("  \(rejection)") }
        if report.rejected > report.rejections.count {
            let rest = report.rejected - report.rejections.count
            let whereAll = rejectsPath.map { " in \($0)" } ?? " (all of them with --rejects FILE)"
            Output.error("  ... and \(rest) more\(whereAll).")
        }
    }

    /// The note an import into devices with no zone ends with, once: each device named when
    /// there are a few; a fleet's file gets one note with a count and the first names.
    static func zoneNeeded(devices: [String]) -> [String] {
        let advice =
            "Its events are stored as the instants the files give, and daily habits are read in local time"
        if devices.count <= 3 {
            return devices.map { device in
                "Note: device \(device) has no time zone. \(advice): name the zone with fetchpredict config --time-zone ZONE --device \(device), such as Europe/Warsaw."
            }
        }
        let first = devices.prefix(3).joined(separator: ", ")
        return [
            "Note: \(devices.count) devices have no time zone (\(first), ...). Their events are stored as the instants the files give, and daily habits are read in local time: name each one's zone with fetchpredict config --time-zone ZONE --device DEVICE, such as Europe/Warsaw."
        ]
    }

    /// The lines that follow a sentence naming the first refused row: the others kept, then how
    /// many more there were.
    static func furtherRows(_ count: Int, first: [Rejection]) -> [String] {
        first.dropFirst().map { "  \($0)" } + (count > first.count ? ["  ... and \(count - first.count) more."] : [])
    }

    /// Prints why a file was not imported, with its first refused rows.
    static func show(_ error: any Error) {
        Output.error("Error: \(ErrorText.message(error))")
        if case ImportError.invalidRows(_, let count, let first) = error {
            for line in furtherRows(count, first: first) { Output.error(line) }
        }
    }
}
