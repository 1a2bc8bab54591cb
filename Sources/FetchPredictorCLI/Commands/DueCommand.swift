import ArgumentParser
import FetchPredictor
import Foundation

struct DueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "due",
        abstract: "List the devices whose next wake comes before a time, soonest first.",
        discussion: """
            Each device's wake as next gives it at --now: the plan made at its last event, kept \
            in the store and found by an index, so that a fleet's due devices come without \
            planning each one. Devices with no zone are never due.

            Example:
              fetchpredict due --before 2024-01-29T11:00:00Z --now 2024-01-29T05:00:00Z
              fetchpredict due --before 1706522400 --now 1706500800 --json
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(
        help: ArgumentHelp(
            "The time wakes are due by: ISO 8601 with Z or an offset, or Unix seconds.", valueName: "time"))
    var before: String
    @Option(help: ArgumentHelp("The most devices listed (default: 1000).", valueName: "count"))
    var limit: Int = 1000
    @OptionGroup var plan: PlanOptions
    @OptionGroup var clock: ClockOptions
    @Flag(help: "Print JSON: {\"now\", \"before\", \"wakes\": [{\"device\", \"time\", \"apps\"}]}.")
    var json = false

    /// What `due` answers.
    struct Answer: Encodable {
        var now: Date
        var before: Date
        var wakes: [DeviceWake]
    }

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 100000.") }
    }

    func run() async throws {
        let eventStore = try database.openStore(creating: false)
        let now = try clock.currentDate()
        let due = try TimeArgument.parse(before, option: "--before", zone: nil, now: now)
        guard due > now else {
            throw ValidationError(
                "--before (\(TimestampFormatter.iso(due.milliseconds))) must come after --now (\(TimestampFormatter.iso(now.milliseconds)))."
            )
        }
        let scheduler = FetchScheduler(
            command: eventStore, configuration: plan.configuration, forecaster: try plan.forecaster.forecaster())
        // Plans are kept for the present only (a service's sweep keeps them for its clock).
        let wakes = try await scheduler.dueWakes(
            scope: nil, before: due, asOf: now, limit: limit, keeping: clock.now == nil)
        if json {
            print(try Output.json(Answer(now: now, before: due, wakes: wakes)))
            return
        }
        guard !wakes.isEmpty else {
            print("No device is due before \(TimestampFormatter.iso(due.milliseconds)).")
            return
        }
        let width = wakes.map(\.device.count).max() ?? 0
        print(
            "\(wakes.count) device\(wakes.count == 1 ? "" : "s") due before \(TimestampFormatter.iso(due.milliseconds)):"
        )
        for wake in wakes {
            let zone = try await eventStore.timeZone(device: wake.device)
            let name = wake.device + String(repeating: " ", count: width - wake.device.count)
            let apps = wake.apps.map(\.app).joined(separator: ", ")
            print("  \(name)  \(Output.local(wake.time, zone))  \(apps)")
        }
    }
}
