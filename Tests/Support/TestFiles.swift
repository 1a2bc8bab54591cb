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

    /// A new, empty folder that is removed when the process ends (or by the system's tmp cleaning).
    public static func scratchFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fetchpredict-tests-\(UUID().uuidString)")
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
