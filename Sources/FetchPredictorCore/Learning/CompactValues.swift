import Foundation

/// The values ``CompactCoding`` writes in a form of their own rather than as fields: numbers,
/// strings, arrays of numbers (a count and their bits), dictionaries by name (sorted) and sets of
/// names (sorted).
protocol CompactValue {
    func write(to sink: CompactSink) throws
    static func read(from source: CompactSource) throws -> Self
}

/// An integer, written as 8 bytes with a tag of its signedness, and read back only when it fits.
protocol CompactInteger: FixedWidthInteger, CompactValue {}

extension CompactInteger {
    func write(to sink: CompactSink) {
        if Self.isSigned {
            sink.put(.integer)
            sink.put(Int64(self))
        } else {
            sink.put(.unsigned)
            sink.put(UInt64(self))
        }
    }

    static func read(from source: CompactSource) throws -> Self {
        let at = source.offset
        let value: Self?
        if isSigned {
            try source.expect(.integer)
            value = Self(exactly: try source.integer(Int64.self))
        } else {
            try source.expect(.unsigned)
            value = Self(exactly: try source.integer(UInt64.self))
        }
        guard let value else { throw CompactError("a \(Self.self)", at: at) }
        return value
    }
}

extension Int: CompactInteger {}
extension Int8: CompactInteger {}
extension Int16: CompactInteger {}
extension Int32: CompactInteger {}
extension Int64: CompactInteger {}
extension UInt: CompactInteger {}
extension UInt8: CompactInteger {}
extension UInt16: CompactInteger {}
extension UInt32: CompactInteger {}
extension UInt64: CompactInteger {}

extension Double: CompactValue {
    func write(to sink: CompactSink) {
        sink.put(.double)
        sink.put(bitPattern)
    }

    static func read(from source: CompactSource) throws -> Double {
        try source.expect(.double)
        return Double(bitPattern: try source.integer(UInt64.self))
    }
}

extension Float: CompactValue {
    func write(to sink: CompactSink) { Double(self).write(to: sink) }

    static func read(from source: CompactSource) throws -> Float {
        let at = source.offset
        guard let value = Float(exactly: try Double.read(from: source)) else { throw CompactError("a Float", at: at) }
        return value
    }
}

extension Bool: CompactValue {
    func write(to sink: CompactSink) { sink.put(self ? .isTrue : .isFalse) }

    static func read(from source: CompactSource) throws -> Bool {
        switch source.peek() {
        case CompactCoding.Tag.isTrue.rawValue: source.offset += 1; return true
        case CompactCoding.Tag.isFalse.rawValue: source.offset += 1; return false
        default: throw CompactError("a Bool", at: source.offset)
        }
    }
}

extension String: CompactValue {
    func write(to sink: CompactSink) {
        sink.put(.string)
        sink.putText(self)
    }

    static func read(from source: CompactSource) throws -> String {
        try source.expect(.string)
        return try source.text()
    }
}

/// A number an array of which is written as its bits one after another, little-endian: on a
/// little-endian machine whose number has that layout, an array is copied whole, not read a
/// number at a time (a model of 200 apps holds about 300,000 numbers).
protocol CompactNumber: CompactValue {
    /// The tag of the elements, after the array's.
    static var elementTag: CompactCoding.Tag { get }
    /// The bytes of one element.
    static var size: Int { get }
    func put(into sink: CompactSink)
    static func get(from source: CompactSource) throws -> Self
}

extension Double: CompactNumber {
    static var elementTag: CompactCoding.Tag { .double }
    static var size: Int { 8 }
    func put(into sink: CompactSink) { sink.put(bitPattern) }
    static func get(from source: CompactSource) throws -> Double { Double(bitPattern: try source.integer(UInt64.self)) }
}

extension Int: CompactNumber {
    static var elementTag: CompactCoding.Tag { .integer }
    static var size: Int { 8 }
    func put(into sink: CompactSink) { sink.put(Int64(self)) }
    static func get(from source: CompactSource) throws -> Int { Int(try source.integer(Int64.self)) }
}

extension Int64: CompactNumber {
    static var elementTag: CompactCoding.Tag { .integer }
    static var size: Int { 8 }
    func put(into sink: CompactSink) { sink.put(self) }
    static func get(from source: CompactSource) throws -> Int64 { try source.integer(Int64.self) }
}

extension UInt8: CompactNumber {
    static var elementTag: CompactCoding.Tag { .byte }
    static var size: Int { 1 }
    func put(into sink: CompactSink) { sink.bytes.append(self) }
    static func get(from source: CompactSource) throws -> UInt8 { try source.integer(UInt8.self) }
}

extension Array: CompactValue where Element: CompactNumber {
    /// Whether the array's memory is its bytes as written: little-endian, each number as wide as
    /// it is written.
    private static var isWrittenLayout: Bool {
        #if _endian(little)
            MemoryLayout<Element>.size == Element.size && MemoryLayout<Element>.stride == Element.size
        #else
            false
        #endif
    }

    func write(to sink: CompactSink) {
        sink.put(.numbers)
        sink.put(Element.elementTag)
        sink.put(UInt32(count))
        if Self.isWrittenLayout {
            withUnsafeBytes { sink.bytes.append(contentsOf: $0) }
        } else {
            sink.bytes.reserveCapacity(sink.bytes.count + count * Element.size)
            for element in self { element.put(into: sink) }
        }
    }

    static func read(from source: CompactSource) throws -> [Element] {
        try source.expect(.numbers)
        try source.expect(Element.elementTag)
        let count = try source.count(of: Element.size)
        guard isWrittenLayout else {
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try Element.get(from: source)) }
            return elements
        }
        let start = source.offset
        source.offset += count * Element.size
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            source.bytes.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count * Element.size)]))
            }
            initialized = count
        }
    }
}

extension Dictionary: CompactValue where Key == String, Value: Codable {
    func write(to sink: CompactSink) throws {
        sink.put(.dictionary)
        sink.put(UInt32(count))
        for (key, value) in sorted(by: { $0.key < $1.key }) {
            sink.putText(key)
            try sink.write(value)
        }
    }

    static func read(from source: CompactSource) throws -> [String: Value] {
        try source.expect(.dictionary)
        // A key and a value take 5 bytes at least.
        let count = try source.count(of: 5)
        var dictionary: [String: Value] = [:]
        dictionary.reserveCapacity(count)
        for _ in 0..<count {
            let at = source.offset
            let key = try source.text()
            guard dictionary.updateValue(try source.read(Value.self), forKey: key) == nil else {
                throw CompactError("a key not seen before", at: at)
            }
        }
        return dictionary
    }
}

extension Set: CompactValue where Element == String {
    func write(to sink: CompactSink) {
        sink.put(.set)
        sink.put(UInt32(count))
        for name in sorted() { sink.putText(name) }
    }

    static func read(from source: CompactSource) throws -> Set<String> {
        try source.expect(.set)
        let count = try source.count(of: 4)
        var names = Set<String>(minimumCapacity: count)
        for _ in 0..<count {
            let at = source.offset
            guard names.insert(try source.text()).inserted else { throw CompactError("a name not seen before", at: at) }
        }
        return names
    }
}

/// A zone by its identifier. (Foundation's own coding of a zone reads a field it does not write,
/// which the fields' strict order refuses.)
extension TimeZone: CompactValue {
    func write(to sink: CompactSink) { identifier.write(to: sink) }

    static func read(from source: CompactSource) throws -> TimeZone {
        let at = source.offset
        guard let zone = TimeZone(identifier: try String.read(from: source)) else {
            throw CompactError("a known zone", at: at)
        }
        return zone
    }
}
