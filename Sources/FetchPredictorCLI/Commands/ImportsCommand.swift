import ArgumentParser
import FetchPredictor
import Foundation

struct ImportsCommand: AsyncParsableCommand {
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

    func run() async throws {
        let eventStore = try store.openStore(creating: false)
        // Every device's imports, or those of the one --device names.
        var imports = try await eventStore.imports()
        if let device = store.deviceOption {
            try await KnownNames.requireDevice(device, in: eventStore)
            imports = imports.filter { $0.device == device }
        }
        // A table for a terminal fits it; one for a file or a pipe keeps every column.
        try output.print(imports) { Self.describe($0, width: Output.terminalColumns ?? .max) }
    }

    /// The columns of the table, in order, and those printed right-aligned.
    static let header = [
        "ID", "WHEN", "FILE", "FORMAT", "DEVICE", "ZONE", "DATES", "ROWS", "STORED", "DUPLICATE", "REJECTED", "KEPT",
        "SHA-256",
    ]
    static let rightAligned: Set<String> = ["ID", "ROWS", "STORED", "DUPLICATE", "REJECTED", "KEPT"]
    /// The columns left out, in this order, while the table is wider than the terminal.
    static let leftOutFirst = ["SHA-256", "DUPLICATE", "DATES", "REJECTED", "WHEN", "FORMAT"]

    /// The import log as a table that fits `width` columns: files by their last path component,
    /// then columns left out (and said so) while it is wider, then long file names cut at the front.
    static func describe(_ imports: [ImportSummary], width: Int = Output.columns) -> String {
        if imports.isEmpty { return "No imports yet: fetchpredict import FILE adds one." }
        var rows = imports.map {
            [
                String($0.id), Output.local($0.importedAt, nil), $0.file, $0.format, $0.device,
                $0.timeZone ?? "-", $0.dateOrder ?? "-", String($0.rowsRead), String($0.stored),
                String($0.duplicates), String($0.rejected), String($0.eventsKept), String($0.sha256.prefix(12)),
            ]
        }
        var columns = header
        func table() -> String {
            let kept = columns.map { header.firstIndex(of: $0)! }
            let aligned = Set(columns.indices.filter { rightAligned.contains(columns[$0]) })
            return Output.table(columns, rows.map { row in kept.map { row[$0] } }, rightAligned: aligned)
        }
        func fits(_ text: String) -> Bool { text.split(separator: "\n").allSatisfy { $0.count <= width } }
        var text = table()
        if fits(text) { return text }
        let file = header.firstIndex(of: "FILE")!
        for index in rows.indices { rows[index][file] = URL(fileURLWithPath: rows[index][file]).lastPathComponent }
        text = table()
        var leftOut: [String] = []
        for column in leftOutFirst where !fits(text) {
            columns.removeAll { $0 == column }
            leftOut.append(column)
            text = table()
        }
        // Still too wide: the longest file names lose their front, down to 12 characters.
        while !fits(text), let longest = rows.map({ $0[file].count }).max(), longest > 12 {
            for index in rows.indices where rows[index][file].count == longest {
                rows[index][file] = "…" + rows[index][file].suffix(longest - 2)
            }
            text = table()
        }
        guard !leftOut.isEmpty else { return text }
        let note = "Left out to fit \(width) columns: \(leftOut.joined(separator: ", ")); --json has every field."
        return ([text] + WakeText.wrap(note, first: "", width: width)).joined(separator: "\n")
    }
}
