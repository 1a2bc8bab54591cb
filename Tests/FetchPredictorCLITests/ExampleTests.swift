import FetchPredictorTestSupport
import Foundation
import Testing

/// Every example that the README, its pages under docs/ and every `--help` show runs as written:
/// a pinned help proves only that the help did not change. The examples' placeholder files
/// (export.json, a big csv, a scenario...) are the project's fixtures under those names, in a
/// scratch folder that is the working directory, with the default store there.
@Suite(.serialized)
struct ExampleTests {
    /// The README, then the pages of its table of contents in its order: the order the examples
    /// run in, one workspace for all, since later examples use what earlier ones made (the imports
    /// make the devices that later commands ask about and prune).
    static let pages = [
        "README.md", "docs/formats.md", "docs/planning.md", "docs/evaluation.md", "docs/json.md",
        "docs/library.md", "docs/service.md", "docs/speed-and-robustness.md", "docs/code-layout.md",
        "docs/scaling.md", "docs/experiments.md",
    ]

    /// The text of a page, by its path from the package's root.
    static func text(of page: String) throws -> String {
        try String(contentsOf: Tool.root.appendingPathComponent(page), encoding: .utf8)
    }

    /// The blocks of a page fenced as `language` (such as "sh" or "swift"), in order.
    static func blocks(_ language: String, of page: String) throws -> [String] {
        try text(of: page).components(separatedBy: "```\(language)\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
    }

    /// The commands of the pages' `sh` blocks and of the `Example:` sections of the helps.
    static func examples() throws -> [(source: String, command: String)] {
        var found: [(String, String)] = []
        for page in pages {
            var inShell = false
            for line in try text(of: page).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") {
                    inShell = line == "```sh"
                    continue
                }
                if inShell, line.hasPrefix("fetchpredict ") { found.append((page, String(line))) }
            }
        }
        for command in HelpTests.commands {
            let help = try Tool.run(command.split(separator: " ").map(String.init) + ["--help"])
            var inExample = false
            for line in help.stdout.split(separator: "\n") {
                if line.hasPrefix("Example") {
                    inExample = true
                    continue
                }
                if inExample, line.hasPrefix("  fetchpredict ") {
                    found.append(("fetchpredict \(command) --help", line.trimmingCharacters(in: .whitespaces)))
                } else if inExample, !line.hasPrefix("  ") {
                    inExample = false
                }
            }
        }
        return found
    }

    /// A scratch folder with the examples' files and a store holding a commuter's weeks.
    static func workspace() throws -> URL {
        let folder = Tool.scratch()
        let fixtures = Tool.root.appendingPathComponent("fixtures")
        let manager = FileManager.default
        try manager.createSymbolicLink(at: folder.appendingPathComponent("fixtures"), withDestinationURL: fixtures)
        for (name, fixture) in [
            ("export.json", "activitywatch-small.json"), ("Activity_history.csv", "app-usage-dmy.csv"),
            ("usage.csv", "app-usage-dmy.csv"),
            ("log.csv", "commuter-28d.csv"), ("news.json", "scenarios/commuter.json"),
            ("usage.txt", "usagestats-small.txt"), ("knowledgeC.db", "knowledgec-small.db"),
            ("aw-bucket.csv", "activitywatch-small.csv"), ("Activity.csv", "app-usage-notifications.csv"),
        ] {
            try manager.copyItem(at: fixtures.appendingPathComponent(fixture), to: folder.appendingPathComponent(name))
        }
        // A big csv with a bad row, for --skip-invalid: another file than the commuter's.
        let commuter = try Data(contentsOf: fixtures.appendingPathComponent("commuter-28d.csv"))
        try (commuter + Data("not-a-time,com.example.news,launch\n".utf8))
            .write(to: folder.appendingPathComponent("big.csv"))
        try Data(#"{"apps": {"com.example.news": "minimum", "com.example.mail": 3600}}"#.utf8)
            .write(to: folder.appendingPathComponent("apps.json"))
        return folder
    }

    @Test func everyExampleRunsAsWritten() throws {
        let folder = try Self.workspace()
        let store = folder.appendingPathComponent("events.sqlite").path
        var failures: [String] = []
        for (source, example) in try Self.examples() {
            // Comments go; a redirection to a system folder stays in the workspace.
            var command = example.components(separatedBy: "   #").first!
            command = command.replacingOccurrences(of: "/etc/bash_completion.d/fetchpredict", with: "completion")
            command = Tool.path + command.dropFirst("fetchpredict".count)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["FETCHPREDICT_DB"] = store
            process.environment = environment
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            if command.contains(" serve") {
                // The service runs until it is told to stop: it must start listening, and stop
                // cleanly (status 0) at SIGTERM. On a free port, not the example's.
                let foreground = command.hasSuffix(" &") ? String(command.dropLast(2)) : command
                process.arguments = ["-c", "exec " + foreground.replacingOccurrences(of: ":8080", with: ":0")]
                try process.run()
                let said = try Self.waitForListening(errors, process: process)
                process.terminate()
                process.waitUntilExit()
                if !said.contains(" ready") || process.terminationStatus != 0 {
                    failures.append("\(source): \(example)\n  \(said.prefix(300))")
                }
                continue
            }
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus != 0 { failures.append("\(source): \(example)\n  \(said.prefix(300))") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// What a service said on standard error until it said it is ready, or exited, or 20 seconds passed.
    static func waitForListening(_ errors: Pipe, process: Process) throws -> String {
        var said = Data()
        let handle = errors.fileHandleForReading
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            said += chunk
            if String(decoding: said, as: UTF8.self).contains(" ready") { break }
        }
        return String(decoding: said, as: UTF8.self)
    }

    /// The walk-through of the service (docs/service.md) runs as written, as a shell script: keys,
    /// serve, curl, on a port of its own.
    @Test func theServiceWalkthroughRuns() throws {
        let blocks = try Self.blocks("sh", of: "docs/service.md")
        let walkthrough = try #require(blocks.first { $0.contains("curl") && $0.contains("fetchpredict serve") })
        // A port nobody listens on: a random one could be another test's service, which answers
        // the walk-through's readiness check never.
        let port = TestCluster.freePort()
        let folder = Tool.scratch()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euc", walkthrough.replacingOccurrences(of: ":8080", with: ":\(port)")]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["FETCHPREDICT_DB"] = folder.appendingPathComponent("events.sqlite").path
        environment["PATH"] = Tool.productsFolder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(said.contains(#""defaultInterval":"minimum""#), "\(said)")
        #expect(said.contains(#""stored":2"#), "\(said)")
        #expect(said.contains(#""wake":{"#), "\(said)")
        #expect(said.contains("BEGIN:VCALENDAR"), "\(said)")
        // The feed, then a claim, each hold the device's wake.
        #expect(said.components(separatedBy: #"{"wakes":[{"#).count == 3, "\(said)")
        // Did the wakes pay: the launch at 07:58 is cold, the fetch after it serves it not.
        #expect(said.contains(#""coldLaunches":1,"#) && said.contains(#""freshColdLaunches":0,"#), "\(said)")
    }

    /// The library's program (docs/library.md), copied as written into a package of its own that
    /// depends on this one by path, as an app that embeds the library would, compiles; run on a
    /// simulated clock (its sleep and its clock replaced) over a store of a commuter's four
    /// weeks, it gets wakes.
    @Test func theLibrarySnippetGetsAWakeInAnOutsidePackage() throws {
        let blocks = try Self.blocks("swift", of: "docs/library.md")
        let snippet = try #require(blocks.first { $0.contains("FetchScheduler(store:") })
        let folder = Tool.scratch()
        let store = folder.appendingPathComponent("events.sqlite").path
        let imported = try Tool.run([
            "import", Tool.fixture("commuter-28d.csv"), "--db", store, "--device", "phone",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let package = folder.appendingPathComponent("embedder")
        let sources = package.appendingPathComponent("Sources/embedder")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let identity = Tool.root.lastPathComponent
        try """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "embedder",
            platforms: [.macOS(.v14)],
            dependencies: [.package(path: "\(Tool.root.path)")],
            targets: [
                .executableTarget(
                    name: "embedder", dependencies: [.product(name: "FetchPredictor", package: "\(identity)")])
            ],
            swiftLanguageModes: [.v6]
        )
        """.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // First the program exactly as the page writes it: it must compile.
        let mainFile = sources.appendingPathComponent("main.swift")
        try snippet.write(to: mainFile, atomically: true, encoding: .utf8)
        let asWritten = try Self.buildOutside(package)
        try #require(asWritten.status == 0, "the page's program as written: \(asWritten.output.suffix(3000))")
        // Then run on a simulated clock that starts on the morning after the store's weeks and
        // stops the program after three wakes: the page's sleep and its clock replaced.
        let realSleep = "try await Task.sleep(for: .seconds(max(0, time.timeIntervalSinceNow)))"
        try #require(snippet.contains(realSleep) && snippet.contains("Date()"))
        let simulation = """

            @MainActor final class Simulation {
                static let shared = Simulation()
                var wakes = 0
                func sleep(until time: Date) {
                    wakes += 1
                    print("wake at \\(time)")
                    if wakes == 3 { exit(0) }
                }
            }

            """
        // The clock starts at 2024-01-29T06:00:00Z.
        let simulated =
            snippet
            .replacingOccurrences(of: realSleep, with: "await Simulation.shared.sleep(until: time)")
            .replacingOccurrences(of: "Date()", with: "Date(timeIntervalSince1970: 1_706_508_000)")
            .replacingOccurrences(of: "/var/lib/scheduler/events.sqlite", with: store) + simulation
        try simulated.write(to: mainFile, atomically: true, encoding: .utf8)
        let built = try Self.buildOutside(package)
        try #require(built.status == 0, "\(built.output.suffix(3000))")
        let run = Process()
        run.executableURL = Tool.root.appendingPathComponent(".build-embedder/debug/embedder")
        let out = Pipe()
        run.standardOutput = out
        try run.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        #expect(printed.components(separatedBy: "wake at 2024-01-29").count - 1 == 3, "\(printed)")
    }

    /// Builds a package outside this one, in a folder of this package's build tree, so that a
    /// second run is quick: its status and what it said.
    static func buildOutside(_ package: URL) throws -> (status: Int32, output: String) {
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = [
            "swift", "build", "--package-path", package.path, "--scratch-path",
            Tool.root.appendingPathComponent(".build-embedder").path,
        ]
        let said = Pipe()
        build.standardOutput = said
        build.standardError = said
        try build.run()
        let output = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        build.waitUntilExit()
        return (build.terminationStatus, output)
    }
}
