import Foundation

/// A model of the chance of a cold launch of an app in the next freshness window, from its
/// ``LaunchFeatures``: gradient-boosted trees, as `scripts/fit-launch-model.py --model trees`
/// writes them in JSON.
///
/// Each tree sends a row from its root to a leaf: at an inner node, left when the node's feature
/// is at most its threshold, or, for an unknown value (NaN), the side the node names. The
/// chance is the logistic function of the baseline plus the leaves' values, as scikit-learn's
/// `HistGradientBoostingClassifier` computes it; the script's `predict_json` is the reference
/// this inference is held to (`LaunchModelTests`).
///
/// The model names its features; they are found in ``LaunchFeatures`` by name when the model is
/// read, so that a model fitted on features in another order, or on some of them, is read right,
/// and one that names a feature this version does not compute is refused.
public struct LaunchModel: Sendable {
    /// One tree, its nodes in arrays indexed by node; node 0 is the root.
    struct Tree: Sendable, Decodable {
        /// The feature a node splits on, as a place in ``LaunchModel/columns``; -1 at a leaf.
        var feature: [Int]
        var threshold: [Double]
        var left: [Int]
        var right: [Int]
        /// Where an unknown value goes: left when true.
        var missingLeft: [Bool]
        /// A leaf's value (0 at an inner node).
        var value: [Double]
    }

    /// The version of a prior shipped with the package; `nil` for a model without one.
    public let version: Int?
    /// The logs the model was fitted on, with their rows, as the script wrote them.
    public let fittedOn: [(log: String, rows: Int)]
    /// The features the model reads, by name, in its own order.
    public let featureNames: [String]
    /// For each of the model's features, its place in ``LaunchFeatures/names``.
    let columns: [Int]
    /// The log-odds before any tree.
    let baseline: Double
    /// Every tree's nodes, tree after tree, each tree's root first; a node's children are
    /// places in this array.
    let nodes: [Node]
    /// The place of each tree's root in ``nodes``.
    let roots: [Int]

    /// One node of a tree, laid out for inference in 16 bytes, depth first: an inner node's left
    /// child is the next place, so that the path most often taken reads on.
    struct Node: Sendable {
        /// At an inner node, its threshold; at a leaf, its value.
        var threshold: Double
        /// At an inner node, the place of its right child in ``LaunchModel/nodes``.
        var right: Int32
        /// The feature it splits on, as a place in ``LaunchFeatures/names``; -1 at a leaf.
        var column: Int16
        /// Where an unknown value goes: left when true.
        var missingLeft: Bool
    }

    /// The reasons a model's JSON is refused.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// The JSON is not a model of this kind, or a field is missing or of the wrong type.
        case malformed(String)
        /// The model reads a feature that ``LaunchFeatures`` does not have.
        case unknownFeature(String)

        public var description: String {
            switch self {
            case .malformed(let reason): "The launch model cannot be read: \(reason)."
            case .unknownFeature(let name):
                "The launch model reads the feature '\(name)', which this version does not compute."
            }
        }
    }

    /// Reads a model from the JSON that `scripts/fit-launch-model.py --model trees --out` writes.
    public init(json data: Data) throws(ReadError) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw .malformed("\(error)")
        }
        guard file.kind == "trees" else { throw .malformed("its kind is '\(file.kind)', not 'trees'") }
        var columns: [Int] = []
        for name in file.features {
            guard let column = LaunchFeatures.names.firstIndex(of: name) else { throw .unknownFeature(name) }
            columns.append(column)
        }
        var trees = file.trees
        for index in trees.indices {
            let tree = trees[index]
            let count = tree.feature.count
            guard
                [tree.threshold.count, tree.left.count, tree.right.count, tree.missingLeft.count, tree.value.count]
                    .allSatisfy({ $0 == count }), count > 0
            else { throw .malformed("tree \(index) has arrays of different lengths") }
            // Children come after their node, as the script writes them: every path ends at a leaf;
            // and each node is the child of one node at most, as in a tree.
            var parents = [Int](repeating: 0, count: count)
            for node in 0..<count where tree.feature[node] >= 0 {
                guard tree.feature[node] < columns.count, (node + 1..<count).contains(tree.left[node]),
                    (node + 1..<count).contains(tree.right[node])
                else { throw .malformed("node \(node) of tree \(index) points outside the tree or the features") }
                parents[tree.left[node]] += 1
                parents[tree.right[node]] += 1
            }
            guard parents.allSatisfy({ $0 <= 1 }) else {
                throw .malformed("a node of tree \(index) is the child of two nodes")
            }
            // The script writes a split on missingness alone, whose threshold is infinite, with the
            // largest finite number, since JSON has no infinity: read back, it is infinite again.
            trees[index].threshold = tree.threshold.map { $0 >= .greatestFiniteMagnitude ? .infinity : $0 }
        }
        version = file.version
        fittedOn = (file.fittedOn ?? []).map { ($0.log, $0.rows) }
        featureNames = file.features
        self.columns = columns
        baseline = file.baseline
        var nodes: [Node] = [], roots: [Int] = []
        for tree in trees {
            roots.append(nodes.count)
            Self.lay(tree, into: &nodes, columns: columns)
        }
        self.nodes = nodes
        self.roots = roots
    }

    /// Appends a checked tree's nodes reachable from its root, depth first, left before right.
    private static func lay(_ tree: Tree, into nodes: inout [Node], columns: [Int]) {
        // Each entry is a node to lay, and the place of the parent whose right child it is.
        var pending = [(index: 0, rightOf: -1)]
        while let (index, rightOf) = pending.popLast() {
            if rightOf >= 0 { nodes[rightOf].right = Int32(nodes.count) }
            let isLeaf = tree.feature[index] < 0
            nodes.append(
                Node(
                    threshold: isLeaf ? tree.value[index] : tree.threshold[index], right: -1,
                    column: isLeaf ? -1 : Int16(columns[tree.feature[index]]), missingLeft: tree.missingLeft[index]))
            guard !isLeaf else { continue }
            pending.append((tree.right[index], nodes.count - 1))
            pending.append((tree.left[index], -1))
        }
    }

    /// The chance of a cold launch for a row of features.
    public func probability(_ features: LaunchFeatures) -> Double {
        probability(values: features.values)
    }

    /// The chance of a cold launch for a row of values in the order of ``LaunchFeatures/names``
    /// (the columns of the `features` command).
    public func probability(values: [Double]) -> Double {
        precondition(values.count == LaunchFeatures.names.count, "a row has one value per feature")
        return probabilities(flatValues: values)[0]
    }

    /// The chances of a cold launch for several rows of features, each as ``probability(_:)``
    /// gives it, to the last bit. Rows are read through each tree together, so that their
    /// independent walks overlap.
    public func probabilities(_ rows: [LaunchFeatures]) -> [Double] {
        var flat: [Double] = []
        flat.reserveCapacity(rows.count * LaunchFeatures.names.count)
        for row in rows { flat += row.values }
        return probabilities(flatValues: flat)
    }

    /// The chances for several rows of values, each as ``probability(values:)`` gives it.
    public func probabilities(values rows: [[Double]]) -> [Double] {
        precondition(rows.allSatisfy { $0.count == LaunchFeatures.names.count }, "a row has one value per feature")
        return probabilities(flatValues: Array(rows.joined()))
    }

    /// The chances for rows laid one after another in one array, each ``LaunchFeatures/names``
    /// long.
    private func probabilities(flatValues: [Double]) -> [Double] {
        let width = LaunchFeatures.names.count
        let count = flatValues.count / width
        var raw = [Double](repeating: baseline, count: count)
        nodes.withUnsafeBufferPointer { nodes in
            flatValues.withUnsafeBufferPointer { values in
                raw.withUnsafeMutableBufferPointer { raw in
                    for root in roots {
                        for row in 0..<count {
                            let offset = row * width
                            var place = root
                            var node = nodes[place]
                            // A tree read from JSON was checked to end at a leaf on every path.
                            while node.column >= 0 {
                                let value = values[offset + Int(node.column)]
                                let goesLeft = value.isNaN ? node.missingLeft : value <= node.threshold
                                place = goesLeft ? place + 1 : Int(node.right)
                                node = nodes[place]
                            }
                            raw[row] += node.threshold
                        }
                    }
                }
            }
        }
        return raw.map { 1 / (1 + exp(-$0)) }
    }

    /// The JSON as the script writes it.
    private struct File: Decodable {
        var kind: String
        var version: Int?
        var fittedOn: [Provenance]?
        var features: [String]
        var baseline: Double
        var trees: [Tree]
    }

    private struct Provenance: Decodable {
        var log: String
        var rows: Int
    }
}

extension LaunchModel {
    /// The population prior: trees fitted by `scripts/fit-launch-model.py` on the shared logs'
    /// feature rows, shipped inside the package (``priorJSON``, in `LaunchPrior.swift`, which the
    /// script writes), so that a device with no history of its own starts from what many people do.
    public static let prior: LaunchModel = {
        do {
            return try LaunchModel(json: Data(priorJSON.utf8))
        } catch {
            // The script checks the JSON it writes, and LaunchModelTests reads it: not reached.
            preconditionFailure("\(error)")
        }
    }()
}
