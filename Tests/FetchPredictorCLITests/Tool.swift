import FetchPredictorTestSupport
import Foundation

/// Runs the built `fetchpredict` as a separate process, as users and scripts do.
struct Tool {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The folder of the built products, where the test bundle and the tool sit side by side.
    static let productsFolder: URL = {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = executable.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("fetchpredict").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    static let path = productsFolder.appendingPathComponent("fetchpredict").path

    /// The package's root folder.
    static var root: URL { TestFiles.root }

    /// A real log from ../shared/datasets, read in place.
    static func dataset(_ relative: String) -> String { TestFiles.dataset(relative) }

    /// A fixture made by the project, under fixtures/.
    static func fixture(_ name: String) -> String { TestFiles.fixture(name) }

    /// A scratch folder for one test, removed when the test process exits.
    static func scratch() -> URL {
        TestFiles.scratchFolder("cli")
    }

    /// Starts the tool without waiting for it.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["FETCHPREDICT_DB"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// Runs the tool to its end.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let (process, out, err) = try start(arguments, environment: environment)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
