import ArgumentParser
import FetchPredictor
import Foundation

struct ImportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imports",
        abstract: "List the import log: every import, how it read its file, and what it stored.",
        discussion: """
            Each import has an id, which every event it stored keeps: fetchpredict prune \
            --import ID deletes exactly those events. KEPT counts the events the store still \
            holds of each import. With --device, only the imports made for that device.

            Example:
              fetchpredict imports
              fetchpredict imports --device phone --json
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let eventStore = try store.openStore(creating: false)
        // Every device's imports, or those of the one --device names.
        var imports = try eventStore.imports()
        if let device = store.deviceOption {
            try KnownNames.requireDevice(device, in: eventStore)
            imports = imports.filter { $0.device == device }
        }
        try output.print(imports) { Self.describe($0) }
    }

    static func describe(_ imports: [ImportSummary]) -> String {
        if imports.isEmpty { return "No imports yet: fetchpredict import FILE adds one." }
        let rows = imports.map {
            [
                String($0.id), Output.local($0.importedAt, nil), $0.file, $0.format, $0.device,
                $0.timeZone ?? "-", $0.dateOrder ?? "-", String($0.rowsRead), String($0.stored),
                String($0.duplicates), String($0.rejected), String($0.eventsKept), String($0.sha256.prefix(12)),
            ]
        }
        return Output.table(
            [
                "ID", "WHEN", "FILE", "FORMAT", "DEVICE", "ZONE", "DATES", "ROWS", "STORED", "DUPLICATE", "REJECTED",
                "KEPT", "SHA-256",
            ], rows, rightAligned: [0, 7, 8, 9, 10, 11])
    }
}
