import ArgumentParser
import FetchPredictor
import Foundation

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic usage log, in the csv or jsonl format, from a persona.",
        discussion: """
            Personas:
            \(Persona.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n"))

            Besides launches, the log holds the results of fetches made every --fetch-period \
            minutes by a plain periodic scheduler: newData when the app's content changed since \
            its last refresh, noData when not, and now and then failed. The same arguments always \
            give the same log.

            With --device-state, the log also holds the phone's state as the persona lives: on \
            its charger at night (now and then a night forgotten, and an hour's charge the next \
            morning), on Wi-Fi at home and at work and on the cellular network between, the \
            battery read every hour off the charger, and Low Power Mode on some evenings until \
            plugged in. Its launches are those of the log without.

            Example:
              fetchpredict generate --persona commuter --days 28 --seed 1 > commuter.csv
              fetchpredict generate --persona commuter --device-state > state.csv
            """)

    @Option(
        help: ArgumentHelp("The persona: \(Persona.all.map(\.name).joined(separator: ", ")).", valueName: "name"),
        transform: PersonaArgument.parse)
    var persona: Persona

    @Option(parsing: .unconditional, help: "How many days the log covers.")
    var days: Int = 28

    @Option(help: "The seed of the random draws.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The first day, YYYY-MM-DD.", valueName: "date"))
    var start: String = "2024-01-01"

    @Option(
        help: ArgumentHelp("The persona's time zone (default: UTC).", valueName: "zone"),
        transform: TimeZoneArgument.parse)
    var timeZone = TimeZone(identifier: "UTC")!

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The period of the logged fetches, in minutes; 0 for none.", valueName: "minutes"))
    var fetchPeriod: Int = 180

    @Flag(help: "Log the phone's power, network, battery and Low Power Mode too.")
    var deviceState = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case csv, jsonl
    }

    @Option(help: "The format of the log: csv or jsonl.")
    var format: OutputFormat = .csv

    func validate() throws {
        guard (1...3660).contains(days) else { throw ValidationError("--days must be from 1 to 3660.") }
        guard fetchPeriod >= 0 else { throw ValidationError("--fetch-period must be 0 or more minutes.") }
        guard TimestampParser.parseLocal(start + " 00:00") != nil else {
            throw ValidationError("--start '\(start)' is not a date: write YYYY-MM-DD.")
        }
    }

    func run() throws {
        let log = SyntheticLog(
            persona: persona, start: TimestampParser.parseLocal(start + " 00:00")!, days: days, timeZone: timeZone,
            seed: seed, fetchPeriodMinutes: fetchPeriod, deviceState: deviceState)
        let events = log.events()
        print(format == .csv ? EventLogWriter.csv(events) : EventLogWriter.jsonLines(events), terminator: "")
    }
}
