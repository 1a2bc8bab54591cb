import FetchPredictorCore
import FetchPredictorImport
import FetchPredictorTestSupport
import Foundation
import Testing

/// A seeded mutation fuzzer of the formats, with no database: every damaged fixture is either
/// read or refused with an import error that names the file, never a crash; what is read adds up.
struct FuzzTests {
    /// Reads mutated copies of a fixture; returns the problems found.
    static func run(fixture: String, iterations: Int, seed: UInt64) throws -> (
        successes: Int, refusals: Int, problems: [String]
    ) {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture(fixture))))
        var random = SeededGenerator(seed: seed)
        let folder = TestFiles.scratchFolder()
        var successes = 0, refusals = 0
        var problems: [String] = []
        var seen = Set<Event>()
        for iteration in 0..<iterations {
            let path = folder.appendingPathComponent("mutant-\(iteration)-\(fixture)").path
            try Data(ImportFuzzer.mutate(original, &random)).write(to: URL(fileURLWithPath: path))
            let format: ImportFormat? =
                iteration.isMultiple(of: 2) ? nil : [.csv, .jsonl, .activitywatch, .appUsage][iteration / 2 % 4]
            let options = ImportOptions(format: format, dateOrder: .dmy, skipInvalid: iteration % 3 == 0)
            var handed: [Event] = []
            do {
                let report = try LogReader(options: options).read(path, timeZone: TimeZone(identifier: "UTC")!) {
                    handed.append($0)
                    return seen.insert($0).inserted
                }
                successes += 1
                if report.stored + report.duplicates != handed.count || report.events < handed.count {
                    problems.append("the report of \(path) does not add up: \(report)")
                }
                if !options.skipInvalid, report.rejected > 0 { problems.append("rejected rows were accepted: \(path)") }
            } catch let error as ImportError {
                refusals += 1
                let message = "\(error)"
                if !message.contains(path) { problems.append("message without the file: \(message)") }
            } catch {
                problems.append("unexpected error \(type(of: error)): \(error)")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        return (successes, refusals, problems)
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
