import FetchPredictorCore
import FetchPredictorImport
import FetchPredictorTestSupport
import Foundation
import Testing

/// A seeded mutation fuzzer of the formats, with no database: every damaged fixture is either
/// read or refused with an import error that names the file, never a crash; what is read adds up.
struct FuzzTests {
    /// Reads mutated copies of a fixture; what is read must add up.
    static func run(fixture: String, iterations: Int, seed: UInt64) throws -> ImportFuzzer.Outcome {
        var seen = Set<Event>()
        return try ImportFuzzer.run(fixture: fixture, iterations: iterations, seed: seed) { path, options in
            var handed: [Event] = []
            var options = options
            options.timeZone = TimeZone(identifier: "UTC")!
            let report = try LogReader(options: options).read(path) {
                handed.append($0)
                return seen.insert($0).inserted
            }
            var problems: [String] = []
            if report.stored + report.duplicates != handed.count || report.events < handed.count {
                problems.append("the report of \(path) does not add up: \(report)")
            }
            if !options.skipInvalid, report.rejected > 0 { problems.append("rejected rows were accepted: \(path)") }
            return problems
        }
    }

    /// A short run in CI; `scripts/fuzz-importers.sh` runs the long one.
    @Test(arguments: ImportFuzzer.fixtures)
    func mutatedFilesAreReadOrRefusedCleanly(fixture: String) throws {
        let iterations = Int(ProcessInfo.processInfo.environment["FETCHPREDICT_FUZZ_ITERATIONS"] ?? "") ?? 150
        let seed = UInt64(ProcessInfo.processInfo.environment["FETCHPREDICT_FUZZ_SEED"] ?? "") ?? 1
        let result = try Self.run(fixture: fixture, iterations: iterations, seed: seed)
        #expect(result.problems.isEmpty, "\(result.problems.prefix(5))")
        #expect(result.successes + result.refusals == iterations)
        #expect(result.refusals > 0)
    }
}
