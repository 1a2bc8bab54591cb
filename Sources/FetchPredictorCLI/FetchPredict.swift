import ArgumentParser
import FetchPredictor
import Foundation

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
              fetchpredict import fixtures/commuter-28d.csv --device phone
              fetchpredict config --time-zone Europe/Warsaw --device phone
              fetchpredict apps --device phone
            """,
        version: version,
        subcommands: [
            ImportCommand.self, RecordCommand.self, ConfigCommand.self, AppsCommand.self, PeaksCommand.self,
            StateCommand.self,
            NextCommand.self, ScheduleCommand.self, DueCommand.self, EvaluateCommand.self, FreshnessCommand.self,
            FeaturesCommand.self,
            GenerateCommand.self,
            ImportsCommand.self,
            ExportCommand.self, PruneCommand.self, ReportCommand.self, ServeCommand.self, KeysCommand.self,
        ]
    )

    public init() {}

    /// Parses the arguments and runs the command. A `ValidationError` thrown while a subcommand
    /// runs is reported with that subcommand's usage, as one thrown while it parses is; the
    /// library's errors are said with how to mend them in flags (``ErrorText``).
    public static func runAsCommandLineTool() -> Never {
        // A reader that goes away (`export | head`) is a write error to handle, the same with
        // every store: the PostgreSQL driver's networking ignores SIGPIPE in the process anyway.
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            // What `print` wrote is flushed where the command ran: a reader that went away is
            // said as OutputFile says it, by the status, not by a success that lost the output
            // (`keys create | ...`).
            if try CommandEdge.run(command) == .readerGone { Foundation.exit(128 + SIGPIPE) }
            exit()
        } catch let error as ValidationError {
            let subcommand = type(of: command)
            let usage = usageString(for: subcommand)
            let name = usage.split(separator: " ").prefix {
                !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-")
            }
            FileHandle.standardError.write(
                Data(
                    "Error: \(error.message)\nUsage: \(usage)\n  See '\(name.joined(separator: " ")) --help' for more information.\n"
                        .utf8))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: ErrorText.forCommandLine(error))
        }
    }
}
