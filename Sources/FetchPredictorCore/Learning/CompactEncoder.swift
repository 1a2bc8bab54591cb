import Foundation

/// The binary form of a learned model in a store's cache, derived from the model's `Codable`
/// conformances: no field is written or read by hand, so that a field added, removed, renamed or
/// retyped can never be read as another.
///
/// Every field is written with its name and a tag of its kind, and every nested value with its
/// length: ``CompactDecoder`` reads a field only under the name it was written with, refuses a
/// value of another kind, and refuses a value whose type reads fewer or more fields than were
/// written. An absent optional is written as such, not left out, so that bytes lacking a field the
/// type has are refused too. Bytes refused are a cache to learn again, never a model misread.
///
/// Arrays of numbers are written as a count and their bits, so that a model of 200 apps loads in a
/// copy rather than a parse; dictionaries by sorted key and sets sorted, so that a model gives the
/// same bytes every time.
///
/// The bytes begin with ``magic`` and a version of what the fields mean (``DeviceModel``'s
/// `learningVersion`): bump that when the meaning of a field changes without its name or kind.
enum CompactCoding {
    /// The first bytes of every value written: "FPC" and the format's own version, 1.
    static let magic: [UInt8] = [0x46, 0x50, 0x43, 1]

    /// The kinds of value the bytes tell apart.
    enum Tag: UInt8 {
        case null = 0x6E  // n
        case isFalse = 0x66  // f
        case isTrue = 0x74  // t
        case integer = 0x69  // i: 8 bytes, little-endian
        case unsigned = 0x75  // u: 8 bytes, little-endian
        case double = 0x64  // d: the 8 bytes of its bit pattern
        case string = 0x73  // s: a UInt32 count of UTF-8 bytes, then the bytes
        case numbers = 0x61  // a: an element tag (d, i or b), a UInt32 count, then the elements
        case byte = 0x62  // b: one byte, only inside numbers
        case dictionary = 0x44  // D: a UInt32 count, then each key (as s without its tag) and value
        case set = 0x54  // T: a UInt32 count, then each string (as s without its tag)
        case nested = 0x53  // S: a UInt32 length, then the value's fields or elements
    }

    /// The bytes of a value, preceded by ``magic`` and `version`.
    static func encode<T: Encodable>(_ value: T, version: UInt32) -> [UInt8] {
        let sink = CompactSink()
        sink.bytes = magic
        sink.put(version)
        do {
            try sink.write(value)
        } catch {
            // No container here throws, and the model's types only encode their fields.
            preconditionFailure("a model's value could not be encoded: \(error)")
        }
        return sink.bytes
    }
}

/// The bytes being written, shared by every container of one value.
final class CompactSink {
    var bytes: [UInt8] = []

    func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func put(_ tag: CompactCoding.Tag) { bytes.append(tag.rawValue) }

    /// A string without its tag: its count of UTF-8 bytes, then the bytes.
    func putText(_ text: String) {
        let utf8 = text.utf8
        put(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A field's name: a byte of its length, then its UTF-8 bytes.
    func putKey(_ key: some CodingKey) {
        let utf8 = key.stringValue.utf8
        precondition(utf8.count < 256, "a field's name is under 256 bytes")
        bytes.append(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Writes any value: in its own form, or as its fields within a length.
    func write<T: Encodable>(_ value: T) throws {
        if let compact = value as? any CompactValue {
            try compact.write(to: self)
            return
        }
        put(.nested)
        let start = bytes.count
        put(UInt32(0))
        try value.encode(to: CompactEncoder(sink: self))
        let length = UInt32(bytes.count - start - 4).littleEndian
        withUnsafeBytes(of: length) { bytes.replaceSubrange(start..<(start + 4), with: $0) }
    }
}

/// Writes a value's fields or elements into a ``CompactSink``.
struct CompactEncoder: Encoder {
    let sink: CompactSink
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Fields(sink: sink))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Elements(sink: sink) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Elements(sink: sink) }

    /// A struct's fields: each its name, then its value; an absent optional as null.
    struct Fields<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: CompactSink
        var codingPath: [any CodingKey] { [] }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try field(value, key) }
        private func field<T: Encodable>(_ value: T, _ key: Key) throws {
            sink.putKey(key)
            try sink.write(value)
        }
        mutating func encodeNil(forKey key: Key) throws {
            sink.putKey(key)
            sink.put(.null)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try field(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try field(value, key) }
        private mutating func put<T: Encodable>(_ value: T?, _ key: Key) throws {
            if let value { try field(value, key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try put(value, key) }

        // The model's types are flat `Codable` structs: they nest values, never containers.
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { preconditionFailure("a model's field is a value, not a nested container") }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("a model's field is a value, not a nested container")
        }
        mutating func superEncoder() -> any Encoder { preconditionFailure("a model's type has no superclass") }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            preconditionFailure("a model's type has no superclass")
        }
    }

    /// An array's elements, or a single value: each tagged, one after another.
    struct Elements: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let sink: CompactSink
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        mutating func encode<T: Encodable>(_ value: T) throws { try element(value) }
        private mutating func element<T: Encodable>(_ value: T) throws {
            count += 1
            try sink.write(value)
        }
        mutating func encodeNil() throws {
            count += 1
            sink.put(.null)
        }
        mutating func encode(_ value: Bool) throws { try element(value) }
        mutating func encode(_ value: String) throws { try element(value) }
        mutating func encode(_ value: Double) throws { try element(value) }
        mutating func encode(_ value: Float) throws { try element(value) }
        mutating func encode(_ value: Int) throws { try element(value) }
        mutating func encode(_ value: Int8) throws { try element(value) }
        mutating func encode(_ value: Int16) throws { try element(value) }
        mutating func encode(_ value: Int32) throws { try element(value) }
        mutating func encode(_ value: Int64) throws { try element(value) }
        mutating func encode(_ value: UInt) throws { try element(value) }
        mutating func encode(_ value: UInt8) throws { try element(value) }
        mutating func encode(_ value: UInt16) throws { try element(value) }
        mutating func encode(_ value: UInt32) throws { try element(value) }
        mutating func encode(_ value: UInt64) throws { try element(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        { preconditionFailure("a model's element is a value, not a nested container") }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            preconditionFailure("a model's element is a value, not a nested container")
        }
        mutating func superEncoder() -> any Encoder { preconditionFailure("a model's type has no superclass") }
    }
}
