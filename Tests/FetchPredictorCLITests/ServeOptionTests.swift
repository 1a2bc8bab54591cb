import FetchPredictorTestSupport
import Foundation
import Testing

/// `serve`'s options refused by name before anything is opened or served.
struct ServeOptionTests {
    /// The interval of the key checks is 0 (no cache) or from 0.1 to 3600 seconds: a smaller one
    /// would ask the store thousands of times a second.
    @Test(arguments: ["0.01", "-1", "4000", "soon"])
    func aKeyCheckIntervalOutOfRangeIsRefusedByName(interval: String) throws {
        let folder = TestFiles.scratchFolder("serve-options")
        let served = try Tool.run([
            "serve", "--db", folder.appendingPathComponent("events.sqlite").path, "--listen", "127.0.0.1:0",
            "--key-check-interval", interval,
        ])
        #expect(served.status != 0 && served.stderr.contains("--key-check-interval"), "\(served.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("events.sqlite").path))
    }
}
