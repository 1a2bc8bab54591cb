import ArgumentParser
import FetchPredictor
import Foundation

/// The planning options `next` and `schedule` share.
struct PlanOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How eager the planner is to spend a wake, from 0 (never) to 1 (whenever a launch may follow).",
            valueName: "level"))
    var budget: Double = PredictorConfiguration().budget

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard (0...1).contains(budget) else { throw ValidationError("--budget must be from 0 to 1, such as 0.6.") }
    }

    func scheduler(_ store: StoreOptions) throws -> FetchScheduler {
        var configuration = PredictorConfiguration()
        configuration.budget = budget
        return FetchScheduler(store: try store.openStore(), configuration: configuration)
    }
}

/// Text forms of wakes, shared by `next` and `schedule`.
enum WakeText {
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

struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Show the next planned background-fetch wake, of the device or of one app.",
        discussion: """
            Looks a day ahead. Without an app, prints the next device wake and every app it \
            fetches for; with one, that app's next planned wake, which coalescing may move up to \
            10 minutes earlier to share a device wake (see schedule).

            Example:
              fetchpredict next
              fetchpredict next com.example.news --json --now 2024-01-29T06:00:00Z
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The app.", valueName: "app"))
    var app: String?
    @OptionGroup var plan: PlanOptions
    @OptionGroup var clock: ClockOptions

    struct Answer: Encodable {
        var device: String
        var app: String?
        var now: Date
        var wake: DeviceWake?
    }

    func run() throws {
        let now = try clock.currentDate()
        let scheduler = try plan.scheduler(store)
        let wake: DeviceWake?
        if let app {
            wake = try scheduler.nextWake(after: now, device: store.device, app: app).map {
                DeviceWake(device: store.device, time: $0.plannedTime, apps: [$0])
            }
        } else {
            wake = try scheduler.nextWake(after: now, device: store.device)
        }
        if plan.json {
            print(try Output.json(Answer(device: store.device, app: app, now: now, wake: wake)))
            return
        }
        guard let wake else {
            let hint = try WakeText.emptyHint(scheduler.store, device: store.device)
            print(hint ?? "No wake planned in the next 24 hours\(app.map { " for \($0)" } ?? ""): no launch is expected soon enough to be worth one.")
            return
        }
        let zone = try scheduler.store.timeZone(device: store.device) ?? .current
        let minutes = Int(wake.time.timeIntervalSince(now) / 60)
        print("Next wake in \(minutes / 60) h \(minutes % 60) min:")
        WakeText.lines(wake, zone: zone, only: app).forEach { print($0) }
    }
}

struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Show the planned device wakes, the apps in each, and why.",
        discussion: """
            Example:
              fetchpredict schedule --hours 24
              fetchpredict schedule --from 2024-01-29T00:00:00Z --json
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("The start: ISO 8601, Unix seconds or YYYY-MM-DD HH:MM in the device's time zone (default: now).", valueName: "time"))
    var from: String?

    @Option(help: "How many hours to plan.")
    var hours: Double = 24

    @OptionGroup var plan: PlanOptions
    @OptionGroup var clock: ClockOptions

    func validate() throws {
        guard hours > 0, hours <= 24 * 14 else { throw ValidationError("--hours must be more than 0 and at most 336.") }
    }

    func run() throws {
        let now = try clock.currentDate()
        let scheduler = try plan.scheduler(store)
        let zone = try scheduler.store.timeZone(device: store.device) ?? .current
        let start = try from.map { try TimeArgument.parse($0, option: "--from", zone: zone, now: now) } ?? now
        let schedule = try scheduler.schedule(from: start, to: start.addingTimeInterval(hours * 3600), device: store.device)
        if plan.json {
            print(try Output.json(schedule))
            return
        }
        print(
            "Schedule of device \(store.device) (\(zone.identifier)) from \(Output.local(start, zone)) for \(Self.format(hours)) h: "
                + "\(schedule.wakes.count) device wakes for \(schedule.appWakeCount) app fetches.")
        if schedule.wakes.isEmpty, let hint = try WakeText.emptyHint(scheduler.store, device: store.device) {
            print(hint)
        }
        for wake in schedule.wakes { WakeText.lines(wake, zone: zone).forEach { print($0) } }
        if !schedule.coldStartApps.isEmpty {
            print("Cold start, too little history to learn from: \(schedule.coldStartApps.joined(separator: ", ")).")
        }
    }

    static func format(_ hours: Double) -> String {
        hours == hours.rounded() ? String(Int(hours)) : String(hours)
    }
}

struct PeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peaks",
        abstract: "Show what was learned: each app's usage peaks and a 24-hour chart of its profile.",
        discussion: """
            The chart has one cell per half hour from midnight, darker where cold launches are \
            more likely. Weekdays and weekends are shown apart when the history shows that they differ.

            Example:
              fetchpredict peaks com.example.news
              fetchpredict peaks --json
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The app (default: every app).", valueName: "app"))
    var app: String?
    @Flag(help: "Print the result as JSON.")
    var json = false

    struct ProfileJSON: Encodable {
        var days: DayKind
        var launchesPerDay: Double
        var peaks: [Peak]
        /// Expected cold launches per day in each half hour from midnight.
        var halfHourly: [Double]
    }

    struct AppJSON: Encodable {
        var app: String
        var coldStart: Bool
        var profiles: [ProfileJSON]
    }

    func run() throws {
        let scheduler = FetchScheduler(store: try store.openStore())
        let apps = try app.map { [$0] } ?? scheduler.apps(device: store.device)
        var result: [AppJSON] = []
        for name in apps {
            let weekday = try scheduler.profile(app: name, device: store.device, days: .weekday)
            let profiles =
                weekday.days == .all
                ? [weekday] : [weekday, try scheduler.profile(app: name, device: store.device, days: .weekend)]
            result.append(
                AppJSON(
                    app: name, coldStart: try scheduler.isColdStart(app: name, device: store.device),
                    profiles: profiles.map {
                        ProfileJSON(days: $0.days, launchesPerDay: $0.launchesPerDay, peaks: $0.peaks, halfHourly: Self.halfHourly($0))
                    }))
        }
        if json {
            print(try Output.json(result))
            return
        }
        if result.isEmpty { print("No apps on device \(store.device) yet: import a log or record launches first.") }
        for entry in result {
            print("\(entry.app)\(entry.coldStart ? " (cold start: too little history yet)" : "")")
            for profile in entry.profiles {
                let label = profile.days == .all ? "every day" : profile.days.rawValue + "s"
                print(String(format: "  %@, %.1f cold launches a day", label, profile.launchesPerDay))
                print("  |" + Self.chart(profile.halfHourly) + "|")
                print("   0     3     6     9     12    15    18    21    24")
                for peak in profile.peaks {
                    print(
                        String(
                            format: "  peak %@  ±%.0f min  %.2f a day  confidence %.0f%%", peak.timeText,
                            peak.spreadMinutes, peak.launchesPerDay, peak.confidence * 100))
                }
            }
        }
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
