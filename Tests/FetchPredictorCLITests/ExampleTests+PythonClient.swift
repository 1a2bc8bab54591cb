import Foundation
import Testing

/// The Python client of docs/service.md, examples/python/replay.py, reads only jsonl and the csv
/// of `fetchpredict import`. Given a real export, or an event that lacks a field, it says so in one
/// line that names the file and the line, exits 2 and sends nothing; a service it cannot reach is
/// one line with the URL. Never a traceback.
extension ExampleTests {
    /// Whether `python3` runs here: the client's tests need it.
    static let hasPython: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "--version"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Runs the client on a log, against a URL where nothing listens.
    static func replay(_ log: String) throws -> Tool.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Tool.root.appendingPathComponent("examples/python/replay.py").path, log, "--key", "k",
            "--time-zone", "Europe/Warsaw", "--url", "http://127.0.0.1:1",
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Tool.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test(.enabled(if: ExampleTests.hasPython))
    func thePythonClientRefusesWhatItDoesNotReadInOneLine() throws {
        let folder = Tool.scratch()
        // Given an App Usage export, an ActivityWatch export, and logs of its formats with an
        // event that lacks a field, each a file of its own,
        let cases: [(name: String, content: String, line: Int, missing: String)] = [
            (
                "Activity.csv",
                "\"App name\",\"Date\",\"Time\",\"Duration\"\n\"Chat\",\"13/03/24\",\"9:01 pm\",\"0:00:30\"\n", 1,
                "'app'"
            ),
            ("export.json", #"{"buckets": {"aw-watcher-android": {"events": []}}}"# + "\n", 1, "'timestamp'"),
            (
                "log.jsonl",
                #"{"timestamp": "2024-01-29T07:58:00Z", "app": "news", "event": "launch"}"# + "\n"
                    + #"{"timestamp": "2024-01-29T07:59:00Z", "app": "news"}"# + "\n", 2, "'event'"
            ),
            (
                "log.csv",
                "timestamp,app,event,result\n2024-01-29T07:58:00Z,news,launch,\n\n2024-01-29T08:03:00Z,news,fetch,\n",
                4, "'result'"
            ),
        ]
        for (name, content, line, missing) in cases {
            let file = folder.appendingPathComponent(name)
            try Data(content.utf8).write(to: file)
            // when the client is given it,
            let result = try Self.replay(file.path)
            // then it exits 2, before it asks the service anything, with one line that names the
            // file, the line and what is missing, and what to do instead.
            let said = result.stderr.trimmingCharacters(in: .newlines)
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(!said.contains("\n"), "\(name): more than one line: \(said)")
            #expect(!result.stderr.contains("Traceback"), "\(name): \(result.stderr)")
            #expect(said.hasPrefix("replay.py: \(file.path):\(line): "), "\(name): \(said)")
            #expect(said.contains(missing), "\(name): \(said)")
            #expect(said.contains("fetchpredict import"), "\(name): \(said)")
            #expect(!said.contains("cannot reach"), "\(name): \(said)")
        }
    }

    @Test(.enabled(if: ExampleTests.hasPython))
    func thePythonClientSaysInOneLineThatTheServiceIsNotThere() throws {
        let result = try Self.replay(Tool.fixture("night-owl-14d.jsonl"))
        let said = result.stderr.trimmingCharacters(in: .newlines)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!said.contains("\n"), "more than one line: \(said)")
        #expect(!result.stderr.contains("Traceback"), "\(result.stderr)")
        #expect(said.hasPrefix("replay.py: cannot reach http://127.0.0.1:1: "), "\(said)")
    }
}
