import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// Damaged files refused by the store leave nothing behind: the import's transaction is whole.
enum StoreFuzzer {
    /// Imports mutated copies of a fixture; a refused one must leave the store as it was.
    static func run(fixture: String, iterations: Int, seed: UInt64) throws -> ImportFuzzer.Outcome {
        let store = try EventStore.inMemory()
        var before = try store.eventCounts()
        return try ImportFuzzer.run(fixture: fixture, iterations: iterations, seed: seed) { path, options in
            before = try store.eventCounts()
            _ = try store.importFile(path, options: options, now: Date(timeIntervalSince1970: 0))
            return []
        } refused: { path in
            try store.eventCounts() != before ? ["a refused file left events: \(path)"] : []
        }
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
