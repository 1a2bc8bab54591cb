import ArgumentParser
import FetchPredictor

/// The `fetchpredict` command: learns when apps get opened and plans background-fetch wakes.
public struct FetchPredict: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "fetchpredict",
        abstract: "Learn when apps get opened and plan background-fetch wake-ups just before.",
        discussion: """
            Events live in one SQLite file: --db PATH, else $FETCHPREDICT_DB, else \
            $XDG_DATA_HOME/fetchpredict/events.sqlite (~/.local/share/fetchpredict/events.sqlite).

            Example:
              fetchpredict import fixtures/commuter-28d.csv
              fetchpredict apps
            """,
        version: version,
        subcommands: [
            ImportCommand.self, RecordCommand.self, ConfigCommand.self, AppsCommand.self, PeaksCommand.self,
            NextCommand.self, ScheduleCommand.self, EvaluateCommand.self, GenerateCommand.self, PruneCommand.self,
        ]
    )

    public init() {}
}
