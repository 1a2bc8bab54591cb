import ArgumentParser
import FetchPredictor
import Foundation
import Synchronization

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the store's events in an import format.",
        discussion: """
            Writes launches, fetch results (with their duration and bytes) and device events \
            (unlocks, screen on and off), each with its device, oldest first, as csv or jsonl: \
            importing the file into another store and exporting again gives the same bytes. \
            Times keep the offset they were stored with.

            Example:
              fetchpredict export --format csv --out events.csv
              fetchpredict export --device phone --from 2024-05-01T00:00:00Z --format jsonl
            """)

    /// The formats export writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, jsonl
    }

    @OptionGroup var store: StoreOptions

    @Option(help: "The format: csv or jsonl.")
    var format: Format = .csv

    @Option(
        help: ArgumentHelp(
            "The earliest event: ISO 8601, Unix seconds, or YYYY-MM-DD HH:MM in the device's zone.",
            valueName: "time"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "Events before this time only: ISO 8601, Unix seconds, or YYYY-MM-DD HH:MM in the device's zone.",
            valueName: "time"))
    var to: String?

    @Option(help: ArgumentHelp("The file to write (default: standard output).", valueName: "file"))
    var out: String?

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        if store.deviceOption != nil { try await KnownNames.requireDevice(store.device, in: eventStore) }
        let zone = store.deviceOption != nil ? try await eventStore.timeZone(device: store.device) : nil
        let start = try from.map { try TimeArgument.parse($0, option: "--from", zone: zone, now: Date()) }
        let end = try to.map { try TimeArgument.parse($0, option: "--to", zone: zone, now: Date()) }
        // The store calls back on a thread of its own, one event after another.
        let file = Mutex(try OutputFile(path: out, option: "--out"))
        let format = self.format
        if format == .csv { try file.withLock { try $0.line(EventLogWriter.csvHeader) } }
        try await eventStore.forEachStoredEvent(
            device: store.deviceOption, from: start?.milliseconds, to: end?.milliseconds
        ) { event in
            let line = format == .csv ? EventLogWriter.csvLine(event) : EventLogWriter.jsonLine(event)
            try file.withLock { try $0.line(line) }
        }
        try file.withLock { try $0.close() }
    }
}
