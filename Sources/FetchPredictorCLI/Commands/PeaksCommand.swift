import ArgumentParser
import FetchPredictor
import Foundation

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
    @OptionGroup var output: OutputOptions

    func run() throws {
        let scheduler = FetchScheduler(store: try store.openStore())
        let apps = try app.map { [$0] } ?? scheduler.apps(device: store.device)
        let learned = try apps.map { try PeaksText.AppJSON(app: $0, device: store.device, scheduler: scheduler) }
        try output.print(learned) { PeaksText.describe($0, device: store.device) }
    }
}
