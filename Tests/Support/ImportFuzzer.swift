import FetchPredictorCore
import FetchPredictorImport
import Foundation

/// Damages files the ways real files get damaged, for the fuzz tests of the formats and of the
/// store: seeded, so that a failure can be replayed.
public enum ImportFuzzer {
    /// The fixtures the fuzz tests damage, one of each format.
    public static let fixtures = [
        "commuter-28d.csv", "night-owl-14d.jsonl", "activitywatch-small.json", "app-usage-dmy.csv", "app-usage-mdy.csv",
        "app-usage-notifications.csv", "activitywatch-small.csv", "usagestats-small.txt", "knowledgec-small.db",
    ]

    /// Damages `bytes` with a few random mutations.
    public static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
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
}

extension ImportFuzzer {
    /// What a run of mutated files came to.
    public struct Outcome {
        public var successes = 0
        public var refusals = 0
        /// What went wrong: a crash-free run has none.
        public var problems: [String] = []
    }

    /// Writes mutated copies of a fixture one at a time and reads each with `read`, with the
    /// options of its turn (the format detected, then each given in turn; invalid rows skipped
    /// one time in three). A read that throws an ``ImportError`` is a refusal, whose message must
    /// name the file; `read` and `refused` return the other problems they find.
    public static func run(
        fixture: String, iterations: Int, seed: UInt64,
        read: (_ path: String, _ options: ImportOptions) throws -> [String],
        refused: (_ path: String) throws -> [String] = { _ in [] }
    ) throws -> Outcome {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture(fixture))))
        var random = SeededGenerator(seed: seed)
        let folder = TestFiles.scratchFolder()
        var outcome = Outcome()
        for iteration in 0..<iterations {
            let path = folder.appendingPathComponent("mutant-\(iteration)-\(fixture)").path
            try Data(mutate(original, &random)).write(to: URL(fileURLWithPath: path))
            let formats = ImportFormat.allCases
            let format: ImportFormat? = iteration.isMultiple(of: 2) ? nil : formats[iteration / 2 % formats.count]
            // Local times need a zone; App Usage fixtures are read day first, as the mutated
            // dates may no longer tell.
            let options = ImportOptions(
                format: format, timeZone: TimeZone(identifier: "Europe/Warsaw"), dateOrder: .dmy,
                skipInvalid: iteration % 3 == 0)
            do {
                outcome.problems += try read(path, options)
                outcome.successes += 1
            } catch let error as ImportError {
                outcome.refusals += 1
                let message = "\(error)"
                if !message.contains(path) { outcome.problems.append("message without the file: \(message)") }
                outcome.problems += try refused(path)
            } catch {
                outcome.problems.append("unexpected error \(type(of: error)): \(error)")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        return outcome
    }
}
