import FetchPredictorCore
import FetchPredictorTestSupport
import Foundation
import Testing

/// The Swift inference of the launch model against the script that fits it: the same chances on
/// the same rows, and a model it cannot read right is refused. The fixture is synthetic
/// (`scripts/make-launch-model-fixture.sh`): trees fitted on three synthetic people, rows of a
/// fourth that the fit never saw, and `scripts/fit-launch-model.py --predict`'s chance of each.
struct LaunchModelTests {
    let folder = "launch-model"

    func modelJSON() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("\(folder)/synthetic-trees.json")))
    }

    /// The rows' feature values, in the columns of ``LaunchFeatures/names``, read by the fixture's
    /// header: a feature the fixture was written before is unknown (NaN) in every row.
    func rows() throws -> [[Double]] {
        let text = try String(contentsOfFile: TestFiles.fixture("\(folder)/rows-shifting.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        let written = Array(header[3..<(header.count - 1)])
        #expect(Set(written).isSubset(of: LaunchFeatures.names))
        let place = LaunchFeatures.names.map { name in written.firstIndex(of: name).map { $0 + 3 } }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return place.map { index in index.map { Double(String(fields[$0])) ?? -1 } ?? .nan }
        }
    }

    @Test func theSwiftInferenceGivesTheScriptsChancesToOneMillionth() throws {
        let model = try LaunchModel(json: try modelJSON())
        let rows = try rows()
        let expected = try String(contentsOfFile: TestFiles.fixture("\(folder)/chances.txt"), encoding: .utf8)
            .split(separator: "\n").map { Double(String($0))! }
        try #require(rows.count == expected.count && rows.count > 1000)
        let chances = rows.map { model.probability(values: $0) }
        let worst = zip(chances, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-6, "the largest difference is \(worst)")
        // Chances that differ from row to row: the trees are read, not a constant.
        #expect(chances.min()! < 0.01 && chances.max()! > 0.5)
    }

    @Test func aModelIsReadByItsFeaturesNamesWhateverTheirOrder() throws {
        let original = try LaunchModel(json: try modelJSON())
        // The same trees, their features listed backwards and each node's index moved to match.
        var json = try #require(try JSONSerialization.jsonObject(with: try modelJSON()) as? [String: Any])
        let names = try #require(json["features"] as? [String])
        json["features"] = Array(names.reversed())
        let trees = try #require(json["trees"] as? [[String: Any]])
        json["trees"] = try trees.map { tree in
            var tree = tree
            tree["feature"] = try #require(tree["feature"] as? [Int]).map { $0 < 0 ? $0 : names.count - 1 - $0 }
            return tree
        }
        let reordered = try LaunchModel(json: try JSONSerialization.data(withJSONObject: json))
        #expect(reordered.featureNames == names.reversed())
        for row in try rows().prefix(200) {
            #expect(reordered.probability(values: row) == original.probability(values: row))
        }
    }

    @Test func aModelItCannotReadRightIsRefused() throws {
        var json = try #require(try JSONSerialization.jsonObject(with: try modelJSON()) as? [String: Any])
        var names = try #require(json["features"] as? [String])
        names[0] = "minutesSinceTheMoonRose"
        json["features"] = names
        #expect(throws: LaunchModel.ReadError.unknownFeature("minutesSinceTheMoonRose")) {
            try LaunchModel(json: try JSONSerialization.data(withJSONObject: json))
        }
        json = try #require(try JSONSerialization.jsonObject(with: try modelJSON()) as? [String: Any])
        var trees = try #require(json["trees"] as? [[String: Any]])
        var left = try #require(trees[3]["left"] as? [Int])
        left[0] = 10_000
        trees[3]["left"] = left
        json["trees"] = trees
        #expect {
            try LaunchModel(json: try JSONSerialization.data(withJSONObject: json))
        } throws: { error in
            guard case LaunchModel.ReadError.malformed(let reason) = error else { return false }
            return reason.contains("tree 3")
        }
        #expect(throws: LaunchModel.ReadError.self) { try LaunchModel(json: Data("{\"kind\": \"logistic\"}".utf8)) }
        // A node that two nodes lead to is no tree.
        trees =
            try #require(try JSONSerialization.jsonObject(with: try modelJSON()) as? [String: Any])["trees"]
            as! [[String: Any]]
        var right = try #require(trees[5]["right"] as? [Int])
        right[0] = try #require(trees[5]["left"] as? [Int])[0]
        trees[5]["right"] = right
        json["trees"] = trees
        #expect {
            try LaunchModel(json: try JSONSerialization.data(withJSONObject: json))
        } throws: { error in
            guard case LaunchModel.ReadError.malformed(let reason) = error else { return false }
            return reason.contains("tree 5") && reason.contains("two nodes")
        }
    }

    /// Rows read through the trees together, as the planner reads a plan's, get each row's own
    /// chance to the last bit, unknown values included.
    @Test func rowsReadTogetherGetEachRowsOwnChance() throws {
        let model = try LaunchModel(json: try modelJSON())
        var rows = Array(try rows().prefix(500))
        for index in stride(from: 0, to: rows.count, by: 7) { rows[index][index % rows[index].count] = .nan }
        let together = model.probabilities(values: rows)
        #expect(together == rows.map { model.probability(values: $0) })
        #expect(Set(together).count > 50, "rows that differ get different chances")
    }
}

extension LaunchModelTests {
    /// The prior that ships inside the package: it reads, names its version and the logs it was
    /// fitted on, reads every feature by its name, tells rows apart, and gives the script's
    /// chances (`scripts/make-launch-model-fixture.sh` writes them from the prior's JSON).
    @Test func thePriorShippedWithThePackageReadsAndSaysWhereItComesFrom() throws {
        let prior = LaunchModel.prior
        #expect(prior.version == 2)
        #expect(prior.fittedOn.map(\.log) == ["xiaomi", "samsung", "app-usage-2023", "india", "lyon"])
        #expect(prior.fittedOn.allSatisfy { $0.rows > 1000 })
        // Every feature it splits on is one the package computes, read by its name.
        #expect(Set(prior.featureNames).isSubset(of: LaunchFeatures.names))
        let chances = try rows().map { prior.probability(values: $0) }
        #expect(chances.max()! - chances.min()! > 0.1)
        // The script's chances under the prior's JSON, on the same rows.
        let expected = try String(contentsOfFile: TestFiles.fixture("\(folder)/prior-chances.txt"), encoding: .utf8)
            .split(separator: "\n").map { Double(String($0))! }
        try #require(expected.count == chances.count)
        let worst = zip(chances, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-6, "the largest difference is \(worst)")
    }
}
