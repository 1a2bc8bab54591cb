import Foundation

/// Reads what ``CompactCoding/encode(_:version:)`` wrote, refusing, rather than guessing, any
/// field whose name, kind or length is not what the type reads.
extension CompactCoding {
    /// The value in `bytes`, or `nil` when they are not one of this type written at this version.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], version: UInt32) -> T? {
        let source = CompactSource(bytes)
        guard bytes.starts(with: magic) else { return nil }
        source.offset = magic.count
        guard (try? source.integer(UInt32.self)) == version, let value = try? source.read(type), source.atEnd else {
            return nil
        }
        return value
    }
}

/// Bytes that are not a value of the type read, or not one at all.
struct CompactError: Error, CustomStringConvertible {
    /// What was expected, and where.
    var description: String

    init(_ what: String, at offset: Int) { description = "\(what) at byte \(offset)" }
}

/// The bytes being read, shared by every container of one value, and the end of the value being
/// read now.
final class CompactSource {
    let bytes: [UInt8]
    var offset = 0
    var end: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        end = bytes.count
    }

    var atEnd: Bool { offset >= end }

    func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= end else { throw CompactError("\(size) bytes", at: offset) }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(littleEndian: value)
    }

    /// The next byte, left unread.
    func peek() -> UInt8? { offset < end ? bytes[offset] : nil }

    func expect(_ tag: CompactCoding.Tag) throws {
        guard peek() == tag.rawValue else { throw CompactError("a value tagged \(tag)", at: offset) }
        offset += 1
    }

    /// A count of items each at least `size` bytes long, refused when the bytes left could not
    /// hold them: a corrupt count is never allocated.
    func count(of size: Int) throws -> Int {
        let count = Int(try integer(UInt32.self))
        guard count * size <= end - offset else { throw CompactError("\(count) items", at: offset) }
        return count
    }

    /// A string written without its tag.
    func text() throws -> String {
        let count = try count(of: 1)
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    /// Whether the next field is named `key`; the bytes are left unread.
    func isKey(_ key: some CodingKey) -> Bool {
        guard let length = peek() else { return false }
        let start = offset + 1
        guard start + Int(length) <= end else { return false }
        return key.stringValue.utf8.elementsEqual(bytes[start..<(start + Int(length))])
    }

    /// Reads the name of the next field, which must be `key`.
    func key(_ key: some CodingKey) throws {
        guard isKey(key) else { throw CompactError("the field \(key.stringValue)", at: offset) }
        offset += 1 + Int(bytes[offset])
    }

    /// Reads any value: in its own form, or as its fields within the length written.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        if let compact = type as? any CompactValue.Type { return try compact.read(from: self) as! T }
        try expect(.nested)
        let length = try count(of: 1)
        let outer = end
        end = offset + length
        defer { end = outer }
        let value = try T(from: CompactDecoder(source: self))
        guard offset == end else { throw CompactError("the end of a \(T.self)", at: offset) }
        return value
    }
}

/// Reads a value's fields or elements from a ``CompactSource``.
struct CompactDecoder: Decoder {
    let source: CompactSource
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Fields(source: source))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Elements(source: source) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(source: source) }

    /// A struct's fields, read in the order written, each only under its own name.
    struct Fields<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let source: CompactSource
        var codingPath: [any CodingKey] { [] }
        // The model's types read their fields by name; dictionaries are read in their own form.
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { source.isKey(key) }
        func decodeNil(forKey key: Key) throws -> Bool {
            guard source.isKey(key) else { throw CompactError("the field \(key.stringValue)", at: source.offset) }
            let tag = source.offset + 1 + Int(source.bytes[source.offset])
            guard tag < source.end, source.bytes[tag] == CompactCoding.Tag.null.rawValue else { return false }
            source.offset = tag + 1
            return true
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try field(type, key) }
        private func field<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
            try source.key(key)
            return try source.read(type)
        }
        /// An optional must be there, as null or as a value: bytes without the field are refused.
        private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            try decodeNil(forKey: key) ? nil : try field(type, key)
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw CompactError("a value, not a nested container", at: source.offset) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw CompactError("a value, not a nested container", at: source.offset)
        }
        func superDecoder() throws -> any Decoder { throw CompactError("a type with no superclass", at: source.offset) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            throw CompactError("a type with no superclass", at: source.offset)
        }
    }

    /// An array's elements, up to the end of the array.
    struct Elements: UnkeyedDecodingContainer {
        let source: CompactSource
        var codingPath: [any CodingKey] { [] }
        var count: Int? { nil }
        var isAtEnd: Bool { source.atEnd }
        private(set) var currentIndex = 0

        mutating func decodeNil() throws -> Bool {
            guard source.peek() == CompactCoding.Tag.null.rawValue else { return false }
            source.offset += 1
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }
        private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try source.read(type)
            currentIndex += 1
            return value
        }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
        mutating func decode(_ type: String.Type) throws -> String { try element(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw CompactError("a value, not a nested container", at: source.offset) }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw CompactError("a value, not a nested container", at: source.offset)
        }
        mutating func superDecoder() throws -> any Decoder {
            throw CompactError("a type with no superclass", at: source.offset)
        }
    }

    /// A single value, such as an enumeration's raw value.
    struct Single: SingleValueDecodingContainer {
        let source: CompactSource
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool {
            guard source.peek() == CompactCoding.Tag.null.rawValue else { return false }
            source.offset += 1
            return true
        }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try source.read(type) }
        func decode(_ type: Bool.Type) throws -> Bool { try source.read(type) }
        func decode(_ type: String.Type) throws -> String { try source.read(type) }
        func decode(_ type: Double.Type) throws -> Double { try source.read(type) }
        func decode(_ type: Float.Type) throws -> Float { try source.read(type) }
        func decode(_ type: Int.Type) throws -> Int { try source.read(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try source.read(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try source.read(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try source.read(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try source.read(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try source.read(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try source.read(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try source.read(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try source.read(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try source.read(type) }
    }
}
