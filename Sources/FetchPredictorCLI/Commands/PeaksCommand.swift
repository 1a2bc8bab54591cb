import ArgumentParser
import FetchPredictor
import Foundation

struct PeaksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peaks",
        abstract: "Show what was learned: each app's usage peaks and a 24-hour chart of its profile.",
        discussion: """
            Habits are read from the recent weeks of cold launches (a day's weight halves in \
            about 23 days): each peak is one habit, its time, its spread (a standard deviation), \
            its cold launches a day and the confidence its launches earn. Beside them, the app's \
            state as of --now: its last launch, its last 7 days against its habits, and the share \
            of its usual launches the planner expects now. The chart has one cell per half hour \
            from midnight, darker where cold launches are more likely. Weekdays and weekends are \
            shown apart when the history shows that they differ.

            Example:
              fetchpredict peaks com.example.news com.example.chat
              fetchpredict peaks --json --now 2024-01-29T06:00:00Z
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The apps (default: every app).", valueName: "app"))
    var apps: [String] = []
    @OptionGroup var output: OutputOptions
    @OptionGroup var clock: ClockOptions

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        try await KnownNames.requireDevice(store.device, in: eventStore)
        for app in apps { try await KnownNames.requireApp(app, device: store.device, in: eventStore) }
        let zone = try await store.zone(in: eventStore)
        let scheduler = FetchScheduler(command: eventStore)
        let now = try clock.currentDate(in: zone)
        let apps = self.apps.isEmpty ? try await scheduler.apps(device: store.device, asOf: now) : self.apps
        var learned: [AppHabits] = []
        for app in apps {
            learned.append(
                try await AppHabits(app: app, device: store.device, now: now, zone: zone, scheduler: scheduler))
        }
        try output.print(learned) { PeaksText.describe($0, device: store.device) }
    }
}
