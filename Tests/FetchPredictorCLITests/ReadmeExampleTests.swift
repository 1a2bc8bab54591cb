import FetchPredictorTestSupport
import Foundation
import Testing

/// The README's Swift snippet is the text of the `readme-example` target, so the build compiles
/// it as written; run, it plans and waits for its first wake, and throws nothing (issue 56: it
/// called Glibc's `sleep`, and threw for want of a time zone).
struct ReadmeExampleTests {
    @Test func theReadmesSwiftSnippetIsTheExampleThatIsBuilt() throws {
        let readme = try String(contentsOf: Tool.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```swift\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let snippet = String(readme[start.upperBound..<end.lowerBound])
        let example = try String(
            contentsOf: Tool.root.appendingPathComponent("Sources/readme-example/main.swift"), encoding: .utf8)
        #expect(snippet == example)
    }

    @Test func theExampleRunsAndWaitsForItsFirstWake() async throws {
        let folder = Tool.scratch()
        let process = Process()
        process.executableURL = Tool.productsFolder.appendingPathComponent("readme-example")
        process.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // It plans, then sleeps until its first wake: still running after a few seconds, or
        // ended with no wake to wait for; never ended by an error.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let waiting = process.isRunning
        if waiting { process.terminate() }
        process.waitUntilExit()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errors.isEmpty, "\(errors)")
        #expect(waiting || process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("events.sqlite").path))
    }
}
