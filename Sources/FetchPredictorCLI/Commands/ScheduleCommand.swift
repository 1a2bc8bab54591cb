import ArgumentParser
import FetchPredictor
import Foundation

struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Show the planned device wakes, the apps in each, and why.",
        discussion: """
            Example:
              fetchpredict schedule --hours 24
              fetchpredict schedule --from 2024-01-29T00:00:00Z --json
              fetchpredict schedule --format ics > plan.ics
            """)

    @OptionGroup var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "The start: ISO 8601, Unix seconds or YYYY-MM-DD HH:MM in the device's time zone (default: now).",
            valueName: "time"))
    var from: String?

    @Option(parsing: .unconditional, help: "How many hours to plan.")
    var hours: Double = 24

    @OptionGroup var plan: PlanOptions
    @OptionGroup var output: WakeFormatOptions
    @OptionGroup var clock: ClockOptions

    func validate() throws {
        guard hours > 0, hours <= 24 * 14 else { throw ValidationError("--hours must be more than 0 and at most 336.") }
    }

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        try await KnownNames.requireDevice(store.device, in: eventStore)
        let zone = try await store.zone(in: eventStore)
        let now = try clock.currentDate(in: zone)
        let start = try from.map { try TimeArgument.parse($0, option: "--from", zone: zone, now: now) } ?? now
        let scheduler = FetchScheduler(
            command: eventStore, configuration: plan.configuration, forecaster: try plan.forecaster.forecaster())
        let schedule = try await scheduler.schedule(
            from: start, to: start.addingTimeInterval(hours * 3600), device: store.device)
        switch output.chosen {
        case .text:
            let hint =
                schedule.wakes.isEmpty
                ? try await WakeText.emptyHint(scheduler, device: store.device, asOf: start, zone: zone) : nil
            print(WakeText.schedule(schedule, hours: hours, zone: zone, hint: hint))
        case .json: print(try Output.json(schedule))
        case .csv: print(WakeCalendar.csv(schedule.wakes))
        case .ics: print(WakeCalendar.ics(schedule.wakes, stamp: now), terminator: "")
        }
    }
}
