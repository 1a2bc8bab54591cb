import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// Damaged files refused by the store leave nothing behind: the import's transaction is whole.
enum StoreFuzzer {
    /// Imports mutated copies of a fixture; returns the problems found.
    static func run(fixture: String, iterations: Int, seed: UInt64) throws -> (
        successes: Int, refusals: Int, problems: [String]
    ) {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture(fixture))))
        var random = SeededGenerator(seed: seed)
        let folder = TestFiles.scratchFolder()
        var successes = 0, refusals = 0
        var problems: [String] = []
        let store = try EventStore.inMemory()
        for iteration in 0..<iterations {
            let path = folder.appendingPathComponent("mutant-\(iteration)-\(fixture)").path
            try Data(ImportFuzzer.mutate(original, &random)).write(to: URL(fileURLWithPath: path))
            let before = try store.eventCounts()
            let format: ImportFormat? =
                iteration.isMultiple(of: 2) ? nil : [.csv, .jsonl, .activitywatch, .appUsage][iteration / 2 % 4]
            do {
                _ = try store.importFile(
                    path, options: ImportOptions(format: format, dateOrder: .dmy, skipInvalid: iteration % 3 == 0),
                    now: Date(timeIntervalSince1970: 0))
                successes += 1
            } catch let error as ImportError {
                refusals += 1
                let message = "\(error)"
                if !message.contains(path) { problems.append("message without the file: \(message)") }
                if try store.eventCounts() != before { problems.append("a refused file left events: \(path)") }
            } catch {
                problems.append("unexpected error \(type(of: error)): \(error)")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        return (successes, refusals, problems)
    }
}

struct FuzzTests {
    /// A short run in CI, beside the formats' own fuzz test; `scripts/fuzz-importers.sh` runs the long one.
    @Test(arguments: ImportFuzzer.fixtures)
    func mutatedFilesAreImportedOrRefusedCleanly(fixture: String) throws {
        let iterations = Int(ProcessInfo.processInfo.environment["FETCHPREDICT_FUZZ_ITERATIONS"] ?? "") ?? 50
        let seed = UInt64(ProcessInfo.processInfo.environment["FETCHPREDICT_FUZZ_SEED"] ?? "") ?? 1
        let result = try StoreFuzzer.run(fixture: fixture, iterations: iterations, seed: seed)
        #expect(result.problems.isEmpty, "\(result.problems.prefix(5))")
        #expect(result.successes + result.refusals == iterations)
        #expect(result.refusals > 0)
    }
}
