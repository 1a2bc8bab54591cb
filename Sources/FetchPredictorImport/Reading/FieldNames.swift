/// What the readers say of a field name they do not know.
enum FieldNames {
    /// "'NAME' is not a field of an event", with the known name it likely meant (within two
    /// edits), then the names it may be.
    static func notAField(_ name: String, known: [String]) -> String {
        let near = known.min { distance(name, $0) < distance(name, $1) }
        let hint = near.flatMap { distance(name, $0) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
        return "'\(name.prefix(40))' is not a field of an event\(hint): it may be \(known.joined(separator: ", "))"
    }

    /// The edit distance between two names (insertions, deletions and substitutions of
    /// characters), to name the field a misspelt one likely meant.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
