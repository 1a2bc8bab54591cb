import ArgumentParser
import FetchPredictor
import Foundation

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record one launch, one background-fetch result, or the device's state.",
        discussion: """
            Example:
              fetchpredict record launch com.example.news --at 2024-05-01T08:30:00+02:00
              fetchpredict record fetch com.example.news --result newData --duration 2.5
              fetchpredict record state battery 57
            """,
        subcommands: [Launch.self, Fetch.self, State.self])

    /// What both kinds of record print.
    struct Recorded: Encodable {
        var device: String
        /// The app; `nil` for the device's state.
        var app: String?
        var event: EventKind
        var time: Date
        var result: FetchResult?
        /// A battery level or a network.
        var value: String?
        var stored: Bool
    }

    /// The sentence that says what was recorded.
    static func describe(_ recorded: Recorded) -> String {
        let what: String
        switch recorded.event {
        case .launch: what = "launch of \(recorded.app ?? "")"
        case .fetch: what = "fetch (\(recorded.result?.rawValue ?? "?")) of \(recorded.app ?? "")"
        default: what = recorded.event.rawValue + (recorded.value.map { " \($0)" } ?? "")
        }
        let when = TimestampFormatter.iso(recorded.time.milliseconds)
        return recorded.stored
            ? "Recorded \(what) at \(when) on \(recorded.device)."
            : "Already recorded: \(what) at \(when) on \(recorded.device)."
    }

    /// Opens the store and reads a time given as `--at`, a local time in the device's zone. A
    /// time that cannot be read is refused before a store is made for it: a new store is made
    /// only once the time has been read without a zone, as an instant.
    static func openStore(_ store: StoreOptions, at: String, now: Date) async throws
        -> (store: any EventStoring, time: Date)
    {
        if let existing = try? store.openStore(creating: false) {
            let zone = try await existing.timeZone(device: store.device)
            return (existing, try TimeArgument.parse(at, option: "--at", zone: zone, now: now))
        }
        let time = try TimeArgument.parse(at, option: "--at", zone: nil, now: now)
        return (try store.openStore(), time)
    }

    /// When it happened, the help shared by every kind.
    static let atHelp = ArgumentHelp(
        "When it happened: now, ISO 8601, Unix seconds, or YYYY-MM-DD HH:MM in the device's time zone.",
        valueName: "time")

    /// The options both kinds share.
    struct EventOptions: ParsableArguments {
        @Argument(
            help: ArgumentHelp("The app, as named in logs (an Android package or a bundle id).", valueName: "app"))
        var app: String

        @Option(help: RecordCommand.atHelp)
        var at: String = "now"

        @Option(parsing: .unconditional, help: ArgumentHelp("How long it lasted, in seconds.", valueName: "seconds"))
        var duration: Double?

        func validate() throws {
            if let duration, let problem = EventLimits.problem(withDuration: duration) {
                throw ValidationError("--duration: \(problem).")
            }
        }

        /// Opens the store and reads `--at` (``RecordCommand/openStore(_:at:now:)``).
        func openStore(_ store: StoreOptions, now: Date) async throws -> (store: any EventStoring, time: Date) {
            try await RecordCommand.openStore(store, at: at, now: now)
        }
    }

    struct Launch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record that an app was opened.",
            discussion: "Example:\n  fetchpredict record launch com.example.news --at 2024-05-01T08:30:00Z")

        @OptionGroup var store: StoreOptions
        @OptionGroup var event: EventOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var clock: ClockOptions

        func run() async throws {
            let (eventStore, time) = try await event.openStore(store, now: try clock.currentDate())
            let stored = try await eventStore.record(
                Event(kind: .launch, app: event.app, time: time.milliseconds, duration: event.duration),
                device: store.device)
            try output.print(Recorded(device: store.device, app: event.app, event: .launch, time: time, stored: stored))
            {
                RecordCommand.describe($0)
            }
        }
    }

    struct Fetch: AsyncParsableCommand {
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

        func run() async throws {
            let (eventStore, time) = try await event.openStore(store, now: try clock.currentDate())
            let stored = try await eventStore.record(
                Event(
                    kind: .fetch, app: event.app, time: time.milliseconds, result: result, duration: event.duration,
                    bytes: bytes), device: store.device)
            let recorded = Recorded(
                device: store.device, app: event.app, event: .fetch, time: time, result: result, stored: stored)
            try output.print(recorded) { RecordCommand.describe($0) }
        }
    }

    struct State: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record the device's state: power, battery, network or Low Power Mode.",
            discussion: """
                KIND is powerConnected, powerDisconnected, battery (VALUE a whole percent), \
                network (VALUE unmetered, metered or none), lowPowerOn or lowPowerOff. While \
                Low Power Mode is on, no app is woken.

                Example:
                  fetchpredict record state network unmetered
                  fetchpredict record state lowPowerOff --at 2024-05-01T21:10:00Z
                """)

        @OptionGroup var store: StoreOptions

        @Argument(
            help: ArgumentHelp(
                "powerConnected, powerDisconnected, battery, network, lowPowerOn or lowPowerOff.", valueName: "kind"))
        var kind: String

        @Argument(help: ArgumentHelp("For battery a whole percent; for network its kind.", valueName: "value"))
        var value: String?

        @Option(help: RecordCommand.atHelp)
        var at: String = "now"

        @OptionGroup var output: OutputOptions
        @OptionGroup var clock: ClockOptions

        func validate() throws {
            _ = try parsed()
        }

        /// The kind and the value as the store keeps it, or why not.
        private func parsed() throws -> (EventKind, String?) {
            let states = EventKind.deviceKinds.filter(\.isDeviceState)
            guard let kind = EventKind(parsing: kind), kind.isDeviceState else {
                throw ValidationError(
                    "'\(kind.prefix(40))' is not a state of the device: write "
                        + states.map(\.rawValue).joined(separator: ", ") + ".")
            }
            switch EventLimits.value(value, for: kind) {
            case .success(let value): return (kind, value)
            case .failure(let problem): throw ValidationError("\(problem.reason).")
            }
        }

        func run() async throws {
            let (kind, value) = try parsed()
            let (eventStore, time) = try await RecordCommand.openStore(store, at: at, now: try clock.currentDate())
            let stored = try await eventStore.record(
                Event(kind: kind, app: "", time: time.milliseconds, value: value), device: store.device)
            let recorded = Recorded(device: store.device, event: kind, time: time, value: value, stored: stored)
            try output.print(recorded) { RecordCommand.describe($0) }
        }
    }
}
