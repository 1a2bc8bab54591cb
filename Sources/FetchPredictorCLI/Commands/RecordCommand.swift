import ArgumentParser
import FetchPredictor
import Foundation

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record one launch or one background-fetch result.",
        discussion: """
            Example:
              fetchpredict record launch com.example.news --at 2024-05-01T08:30:00+02:00
              fetchpredict record fetch com.example.news --result newData --duration 2.5
            """,
        subcommands: [Launch.self, Fetch.self])

    /// What both kinds of record print.
    struct Recorded: Encodable {
        var device: String
        var app: String
        var event: EventKind
        var time: Date
        var result: FetchResult?
        var stored: Bool
    }

    /// The sentence that says what was recorded.
    static func describe(_ recorded: Recorded) -> String {
        let what = recorded.event == .launch ? "launch" : "fetch (\(recorded.result?.rawValue ?? "?"))"
        let when = TimestampFormatter.iso(recorded.time.milliseconds)
        return recorded.stored
            ? "Recorded \(what) of \(recorded.app) at \(when) on \(recorded.device)."
            : "Already recorded: \(what) of \(recorded.app) at \(when) on \(recorded.device)."
    }

    /// The options both kinds share.
    struct EventOptions: ParsableArguments {
        @Argument(
            help: ArgumentHelp("The app, as named in logs (an Android package or a bundle id).", valueName: "app"))
        var app: String

        @Option(
            help: ArgumentHelp(
                "When it happened: now, ISO 8601, Unix seconds, or YYYY-MM-DD HH:MM in the device's time zone.",
                valueName: "time"))
        var at: String = "now"

        @Option(parsing: .unconditional, help: ArgumentHelp("How long it lasted, in seconds.", valueName: "seconds"))
        var duration: Double?

        func validate() throws {
            if let duration, let problem = EventLimits.problem(withDuration: duration) {
                throw ValidationError("--duration: \(problem).")
            }
        }

        /// Opens the store and reads `--at`, a local time in the device's zone. A time that cannot
        /// be read is refused before a store is made for it: a new store is made only once the
        /// time has been read without a zone, as an instant.
        func openStore(_ store: StoreOptions, now: Date) throws -> (store: any EventStoring, time: Date) {
            if let existing = try? store.openStore(creating: false) {
                let zone = try existing.timeZone(device: store.device)
                return (existing, try TimeArgument.parse(at, option: "--at", zone: zone, now: now))
            }
            let time = try TimeArgument.parse(at, option: "--at", zone: nil, now: now)
            return (try store.openStore(), time)
        }
    }

    struct Launch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record that an app was opened.",
            discussion: "Example:\n  fetchpredict record launch com.example.news --at 2024-05-01T08:30:00Z")

        @OptionGroup var store: StoreOptions
        @OptionGroup var event: EventOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var clock: ClockOptions

        func run() throws {
            let (eventStore, time) = try event.openStore(store, now: try clock.currentDate())
            let stored = try eventStore.record(
                Event(kind: .launch, app: event.app, time: time.milliseconds, duration: event.duration),
                device: store.device)
            try output.print(Recorded(device: store.device, app: event.app, event: .launch, time: time, stored: stored))
            {
                RecordCommand.describe($0)
            }
        }
    }

    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record how a background fetch ended.",
            discussion: "Example:\n  fetchpredict record fetch com.example.news --result noData --duration 1.2")

        @OptionGroup var store: StoreOptions
        @OptionGroup var event: EventOptions
        @OptionGroup var output: OutputOptions

        @Option(help: ArgumentHelp("How the fetch ended: newData, noData or failed.", valueName: "result"))
        var result: FetchResult

        @Option(
            parsing: .unconditional, help: ArgumentHelp("How many bytes the fetch transferred.", valueName: "bytes"))
        var bytes: Int64?

        @OptionGroup var clock: ClockOptions

        func validate() throws {
            if let bytes, bytes < 0 { throw ValidationError("--bytes must be a whole number of bytes, 0 or more.") }
        }

        func run() throws {
            let (eventStore, time) = try event.openStore(store, now: try clock.currentDate())
            let stored = try eventStore.record(
                Event(
                    kind: .fetch, app: event.app, time: time.milliseconds, result: result, duration: event.duration,
                    bytes: bytes), device: store.device)
            let recorded = Recorded(
                device: store.device, app: event.app, event: .fetch, time: time, result: result, stored: stored)
            try output.print(recorded) { RecordCommand.describe($0) }
        }
    }
}
