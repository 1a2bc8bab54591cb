import ArgumentParser
import FetchPredictor
import Foundation

struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Show the next planned background-fetch wake, of the device or of one app.",
        discussion: """
            Looks a day ahead. Without an app, prints the next device wake and every app it \
            fetches for; with one, the next device wake that fetches for the app, as the \
            schedule has it.

            Example:
              fetchpredict next
              fetchpredict next com.example.news --json --now 2024-01-29T06:00:00Z
              fetchpredict next --format ics > next.ics
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The app.", valueName: "app"))
    var app: String?
    @OptionGroup var plan: PlanOptions
    @OptionGroup var output: WakeFormatOptions
    @OptionGroup var clock: ClockOptions

    /// What `next` answers.
    struct Answer: Encodable {
        var device: String
        var app: String?
        var now: Date
        var wake: DeviceWake?
        /// Why there is no wake, when the settings or the history say (`NoWake.code`).
        var noWake: String?
        /// The silence of the device or the app, when that is why.
        var silence: Silence?
        /// Low Power Mode, when that is why.
        var lowPowerMode: LowPowerMode?
    }

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        try await KnownNames.requireDevice(store.device, in: eventStore)
        if let app { try await KnownNames.requireApp(app, device: store.device, in: eventStore) }
        let zone = try await store.zone(in: eventStore)
        let scheduler = FetchScheduler(
            command: eventStore, configuration: plan.configuration, forecaster: try plan.forecaster.forecaster())
        let now = try clock.currentDate(in: zone)
        // The wake, or why there is none, in one query.
        let (wake, noWake) = try await scheduler.nextWakeOrReason(after: now, device: store.device, app: app)
        var answer = Answer(device: store.device, app: app, now: now, wake: wake)
        answer.noWake = noWake?.code
        if case .silent(let silence) = noWake { answer.silence = silence }
        if case .lowPowerMode(let mode) = noWake { answer.lowPowerMode = mode }
        switch output.chosen {
        case .text:
            let hint = WakeText.emptyHint(noWake, device: store.device, app: app, asOf: now, zone: zone)
            print(WakeText.next(answer, zone: zone, hint: hint))
        case .json: print(try Output.json(answer))
        case .csv: print(WakeCalendar.csv(wake.map { [$0] } ?? []))
        case .ics: print(WakeCalendar.ics(wake.map { [$0] } ?? [], stamp: now), terminator: "")
        }
        // The plan is kept for the next process once this one has answered.
        try await scheduler.plansKept()
    }
}
