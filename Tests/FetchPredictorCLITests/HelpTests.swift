import Foundation
import Testing

/// The full `--help` of every command, pinned: a change to what users read shows in review.
/// To accept a change, run the tests with FETCHPREDICT_RECORD_HELP=1 and commit the files.
struct HelpTests {
    static let commands = [
        "", "import", "record", "record launch", "record fetch", "record state", "config", "apps", "peaks", "state",
        "next",
        "schedule", "due",
        "evaluate", "freshness", "features", "generate", "prune", "imports", "export", "report", "serve", "keys",
        "keys create",
        "keys list",
        "keys revoke",
    ]

    @Test(arguments: commands)
    func helpIsPinned(command: String) throws {
        let arguments = command.split(separator: " ").map(String.init) + ["--help"]
        let help = try Tool.run(arguments, environment: ["COLUMNS": "100"])
        #expect(help.status == 0)
        let name = command.isEmpty ? "fetchpredict" : command.replacingOccurrences(of: " ", with: "-")
        let file = Tool.root.appendingPathComponent("Tests/FetchPredictorCLITests/Help/\(name).txt")
        if ProcessInfo.processInfo.environment["FETCHPREDICT_RECORD_HELP"] == "1" {
            try help.stdout.write(to: file, atomically: true, encoding: .utf8)
        }
        let pinned = try String(contentsOf: file, encoding: .utf8)
        #expect(help.stdout == pinned, "fetchpredict \(command) --help changed; see \(file.path)")
        // The overview is a sentence.
        let overview = help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("OVERVIEW: ") }
        #expect(overview?.hasSuffix(".") == true)
    }

    /// Every example fits an 80-column terminal: none is wrapped so that a part of it stands
    /// alone on a line (issue 25: `--out report.html` did).
    @Test(arguments: commands)
    func examplesFitEightyColumns(command: String) throws {
        let help = try Tool.run(
            command.split(separator: " ").map(String.init) + ["--help"], environment: ["COLUMNS": "80"])
        var inExample = false
        for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Example") {
                inExample = true
                continue
            }
            guard inExample else { continue }
            if !line.hasPrefix("  ") { break }
            #expect(
                line.hasPrefix("  fetchpredict ") || line.hasPrefix("  curl "), "fetchpredict \(command): '\(line)'")
        }
    }
}
