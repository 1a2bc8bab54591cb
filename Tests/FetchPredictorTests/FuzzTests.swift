import Foundation
import Testing

@testable import FetchPredictor

/// A seeded mutation fuzzer of the importers: it damages the project's fixtures in the ways real
/// files get damaged and checks that every import either succeeds or fails with an import error
/// that names the file, never a crash, and never a half-stored file.
enum ImportFuzzer {
    /// Damages `bytes` with a few random mutations.
    static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        let tokens: [[UInt8]] = [
            Array("\"".utf8), Array(",".utf8), Array("\n".utf8), Array("{".utf8), Array("}".utf8), Array("[".utf8),
            Array("]".utf8), Array(":".utf8), Array("\\".utf8), Array("\r\n".utf8), [0], [0xFF, 0xFE], Array("é".utf8),
            Array("9999-99-99T99:99:99Z".utf8), Array("-1e308".utf8), Array("null".utf8), Array("fetch".utf8),
            Array(String(repeating: "[", count: 100).utf8),
        ]
        for _ in 0..<(1 + Int(random.next() % 4)) {
            guard !bytes.isEmpty else { return tokens[Int(random.next() % UInt64(tokens.count))] }
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 7 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 64)))
            case 2: bytes.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: at)
            case 3: bytes = Array(bytes[..<at])
            case 4:
                let end = min(bytes.count, at + Int(random.next() % 200))
                bytes.insert(contentsOf: bytes[at..<end], at: end)
            case 5: bytes[at] = bytes[at] ^ (1 << UInt8(random.next() % 8))
            default:
                let other = Int(random.next() % UInt64(bytes.count))
                bytes.swapAt(at, other)
            }
        }
        return bytes
    }

    /// Imports mutated copies of a fixture; returns the problems found.
    static func run(fixture: String, iterations: Int, seed: UInt64) throws -> (successes: Int, refusals: Int, problems: [String]) {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture(fixture))))
        var random = SeededGenerator(seed: seed)
        let folder = TestFiles.scratchFolder()
        var successes = 0, refusals = 0
        var problems: [String] = []
        let store = try EventStore.inMemory()
        for iteration in 0..<iterations {
            let path = folder.appendingPathComponent("mutant-\(iteration)-\(fixture)").path
            try Data(mutate(original, &random)).write(to: URL(fileURLWithPath: path))
            let before = try store.eventCounts()
            let format: ImportFormat? = iteration.isMultiple(of: 2) ? nil : [.csv, .jsonl, .activitywatch, .appUsage][iteration / 2 % 4]
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
    /// A short run in CI; `scripts/fuzz-importers.sh` runs the long one.
    @Test(arguments: [
        "commuter-28d.csv", "night-owl-14d.jsonl", "activitywatch-small.json", "app-usage-dmy.csv", "app-usage-mdy.csv",
    ])
    func mutatedFilesAreImportedOrRefusedCleanly(fixture: String) throws {
        let iterations = Int(ProcessInfo.processInfo.environment["FETCHPREDICT_FUZZ_ITERATIONS"] ?? "") ?? 150
        let seed = UInt64(ProcessInfo.processInfo.environment["FETCHPREDICT_FUZZ_SEED"] ?? "") ?? 1
        let result = try ImportFuzzer.run(fixture: fixture, iterations: iterations, seed: seed)
        #expect(result.problems.isEmpty, "\(result.problems.prefix(5))")
        #expect(result.successes + result.refusals == iterations)
        #expect(result.refusals > 0)
    }
}
