/// Values kept by an app's place (``OwnRates/place``, the order in which the device first launched
/// its apps), only for the places that have one: the places ascending, found by halving. The own
/// rates keep an app's hits after each other app in one, and the traces which apps followed each
/// app; a dictionary by place would not survive the model's bytes, which keep dictionaries by
/// name only.
struct PlaceTable<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The places that have a value, ascending, and their values in the same order.
    var places: [Int] = []
    var values: [Value] = []

    /// The value at `place`; `nil` when it has none.
    subscript(place: Int) -> Value? {
        let index = places.partitioningIndex { $0 >= place }
        return index < places.count && places[index] == place ? values[index] : nil
    }

    /// Changes the value at `place`, which begins as `initial` when it has none.
    mutating func update(_ place: Int, from initial: Value, _ change: (inout Value) -> Void) {
        let index = places.partitioningIndex { $0 >= place }
        if index == places.count || places[index] != place {
            places.insert(place, at: index)
            values.insert(initial, at: index)
        }
        change(&values[index])
    }

    /// Whether the table holds together, as bytes read back must: one value for each place, the
    /// places ascending and each in `range`, and each value as `isValid` wants it.
    func isWellFormed(places range: Range<Int>, _ isValid: (Value) -> Bool = { _ in true }) -> Bool {
        places.count == values.count && places.allSatisfy(range.contains)
            && zip(places, places.dropFirst()).allSatisfy { $0 < $1 } && values.allSatisfy(isValid)
    }
}
