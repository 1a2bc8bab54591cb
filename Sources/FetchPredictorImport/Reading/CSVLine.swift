import Foundation

/// Splits one CSV line into fields (RFC 4180 quoting within a line), reusing its storage from
/// line to line.
struct CSVLine {
    private(set) var ranges: [Range<Int>] = []
    private var quoted: [Bool] = []
    private var line: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)

    var count: Int { ranges.count }

    /// Splits `line`; returns a reason when its quoting is broken.
    mutating func split(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        self.line = line
        ranges.removeAll(keepingCapacity: true)
        quoted.removeAll(keepingCapacity: true)
        var index = 0
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        while true {
            if index < line.count, line[index] == quote {
                let start = index + 1
                index = start
                var closed = false
                while index < line.count {
                    if line[index] == quote {
                        if index + 1 < line.count, line[index + 1] == quote {
                            index += 2
                            continue
                        }
                        closed = true
                        break
                    }
                    index += 1
                }
                guard closed else { return "a quoted field is not closed" }
                ranges.append(start..<index)
                quoted.append(true)
                index += 1
                if index < line.count, line[index] != comma { return "text follows a closing quote" }
            } else {
                let start = index
                while index < line.count, line[index] != comma { index += 1 }
                ranges.append(start..<index)
                quoted.append(false)
            }
            if index >= line.count { return nil }
            index += 1  // the comma
        }
    }

    /// The field's bytes, trimmed of spaces; doubled quotes are kept as they are.
    func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> {
        var range = ranges[field]
        while range.lowerBound < range.upperBound, line[range.lowerBound] == UInt8(ascii: " ") {
            range = (range.lowerBound + 1)..<range.upperBound
        }
        while range.lowerBound < range.upperBound, line[range.upperBound - 1] == UInt8(ascii: " ") {
            range = range.lowerBound..<(range.upperBound - 1)
        }
        return UnsafeBufferPointer(rebasing: line[range])
    }

    /// The field's text, unquoted and trimmed.
    func string(_ field: Int) -> String {
        let text = String(decoding: bytes(field), as: UTF8.self)
        return quoted[field] ? text.replacingOccurrences(of: "\"\"", with: "\"") : text
    }

    /// Whether the field is empty once trimmed.
    func isEmpty(_ field: Int) -> Bool { bytes(field).isEmpty }
}
