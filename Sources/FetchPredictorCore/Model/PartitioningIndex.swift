extension RandomAccessCollection {
    /// The index of the first element for which `isAfter` holds, in a collection where each one
    /// for which it holds comes after every one for which it does not (as sorted times after an
    /// instant do); `endIndex` when none does. A binary search: O(log n).
    func partitioningIndex(where isAfter: (Element) -> Bool) -> Index {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = index(low, offsetBy: distance(from: low, to: high) / 2)
            if isAfter(self[middle]) { high = middle } else { low = index(after: middle) }
        }
        return low
    }
}
