import Foundation

/// Paths and scratch folders for the tests of the formats and of the store.
public enum TestFiles {
    /// The package's root folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fixture made by the project, under fixtures/.
    public static func fixture(_ name: String) -> String {
        root.appendingPathComponent("fixtures").appendingPathComponent(name).path
    }

    /// A real log from ../shared/datasets, which tests read in place and never copy.
    public static func dataset(_ relative: String) -> String {
        root.deletingLastPathComponent().appendingPathComponent("shared/datasets").appendingPathComponent(relative).path
    }

    /// Whether the shared datasets are beside the package.
    public static var datasetsPresent: Bool {
        FileManager.default.fileExists(atPath: dataset("README.md"))
    }

    /// The folder that holds this test process's scratch folders, removed with everything in it
    /// when the process exits (a killed run leaves it, named by its process id).
    static let processFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fetchpredict-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFiles.processFolder) }
        return url
    }()

    /// A new, empty folder, removed when the test process exits. `label` begins its name, so that
    /// a folder a failing test leaves open says whose it is.
    public static func scratchFolder(_ label: String = "scratch") -> URL {
        let url = processFolder.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to a new file in a scratch folder and returns its path.
    public static func write(_ text: String, name: String = "input.csv") -> String {
        let url = scratchFolder().appendingPathComponent(name)
        try! Data(text.utf8).write(to: url)
        return url.path
    }

    /// Writes raw bytes to a new file in a scratch folder and returns its path.
    public static func write(bytes: [UInt8], name: String = "input.bin") -> String {
        let url = scratchFolder().appendingPathComponent(name)
        try! Data(bytes).write(to: url)
        return url.path
    }
}
