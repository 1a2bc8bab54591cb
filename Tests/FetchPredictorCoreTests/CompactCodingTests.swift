import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictorCore

/// The model cache's bytes are made from the types: a value reads back as it was, and bytes
/// written by a type with other fields are refused, never read as this one.
struct CompactCodingTests {
    struct Inner: Codable, Equatable {
        var count: Int
        var note: String?
    }

    struct Original: Codable, Equatable {
        var name: String
        var rates: [Double]
        var inner: Inner
        var last: Int64?
        var byName: [String: Inner]
        var names: Set<String>
    }

    /// The same fields but one renamed.
    struct Renamed: Codable {
        var name: String
        var chances: [Double]
        var inner: Inner
        var last: Int64?
        var byName: [String: Inner]
        var names: Set<String>
    }

    /// One field fewer.
    struct Fewer: Codable {
        var name: String
        var rates: [Double]
        var inner: Inner
        var byName: [String: Inner]
        var names: Set<String>
    }

    /// One optional field more: absent from the bytes, it is not taken for nil.
    struct More: Codable {
        var name: String
        var rates: [Double]
        var inner: Inner
        var last: Int64?
        var first: Int64?
        var byName: [String: Inner]
        var names: Set<String>
    }

    /// A field of another kind.
    struct Retyped: Codable {
        var name: String
        var rates: [Int]
        var inner: Inner
        var last: Int64?
        var byName: [String: Inner]
        var names: Set<String>
    }

    /// A nested type that reads one field more, whose name the outer type's next field has:
    /// the nested value's length keeps it from reading past its end.
    struct WiderInner: Codable {
        var count: Int
        var note: String?
        var last: Int64?
    }
    struct Nested: Codable {
        var name: String
        var rates: [Double]
        var inner: WiderInner
        var last: Int64?
        var byName: [String: Inner]
        var names: Set<String>
    }

    static let value = Original(
        name: "phone", rates: [0.5, -0, .infinity, 1e-300], inner: Inner(count: -3, note: nil), last: nil,
        byName: ["b": Inner(count: 1, note: "x"), "a": Inner(count: 2, note: nil)], names: ["z", "y", "x"])

    @Test func aValueReadsBackAsItWas() throws {
        let bytes = CompactCoding.encode(Self.value, version: 7)
        let read = try #require(CompactCoding.decode(Original.self, from: bytes, version: 7))
        #expect(read == Self.value)
        #expect(read.rates.map(\.bitPattern) == Self.value.rates.map(\.bitPattern))
        // Of another version, it is refused.
        #expect(CompactCoding.decode(Original.self, from: bytes, version: 8) == nil)
    }

    @Test func bytesOfATypeWithOtherFieldsAreRefused() {
        let bytes = CompactCoding.encode(Self.value, version: 1)
        #expect(CompactCoding.decode(Renamed.self, from: bytes, version: 1) == nil)
        #expect(CompactCoding.decode(Fewer.self, from: bytes, version: 1) == nil)
        #expect(CompactCoding.decode(More.self, from: bytes, version: 1) == nil)
        #expect(CompactCoding.decode(Retyped.self, from: bytes, version: 1) == nil)
        #expect(CompactCoding.decode(Nested.self, from: bytes, version: 1) == nil)
        // And the other way: bytes with a field more than the type reads.
        let more = More(
            name: "phone", rates: [], inner: Inner(count: 1), last: 5, first: nil, byName: [:], names: [])
        #expect(CompactCoding.decode(Original.self, from: CompactCoding.encode(more, version: 1), version: 1) == nil)
    }

    /// Every prefix of a model's bytes is refused, and so is a count past the bytes: nothing is
    /// read half, nor allocated for a corrupt count.
    @Test func bytesCutShortOrWithACorruptCountAreRefused() throws {
        var model = AppModel()
        model.coldLaunches = 3
        let bytes = model.encoded()
        #expect(AppModel(encoded: bytes) == model)
        for length in 0..<bytes.count {
            #expect(AppModel(encoded: Array(bytes.prefix(length))) == nil, "\(length) bytes")
        }
        // The count of the first array (after the magic, the version, the nested value's tag and
        // length, the field's name, and the array's two tags).
        let name = [UInt8(6)] + Array("recent".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: name) }) + name.count + 2
        var corrupt = bytes
        corrupt.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(AppModel(encoded: corrupt) == nil)
        // A well-formed value of the wrong shape (a day of 287 bins) is refused too.
        var short = model
        short.recent.removeLast()
        #expect(AppModel(encoded: short.encoded()) == nil)
    }

    /// Dictionaries and sets are written in order: the same value gives the same bytes, however
    /// it was built.
    @Test func theSameValueGivesTheSameBytes() {
        let names = (0..<64).map { "com.example.app\($0)" }
        var forward: [String: Int] = [:]
        for (index, name) in names.enumerated() { forward[name] = index }
        var backward: [String: Int] = [:]
        for (index, name) in names.enumerated().reversed() { backward[name] = index }
        #expect(CompactCoding.encode(forward, version: 1) == CompactCoding.encode(backward, version: 1))
        #expect(
            CompactCoding.encode(Set(names), version: 1) == CompactCoding.encode(Set(names.reversed()), version: 1))
    }

    /// A cache written by the hand-made encoding (version 19) is refused by this one.
    @Test func aCacheOfTheOldEncodingIsRefused() throws {
        struct OldCache: Decodable {
            var header: String
            var apps: [String: String]
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("model-cache-v19.json")))
        let old = try JSONDecoder().decode(OldCache.self, from: data)
        let zone = TimeZone(identifier: "Europe/Berlin")!
        for (_, text) in old.apps {
            #expect(AppModel(encoded: [UInt8](try #require(Data(base64Encoded: text)))) == nil)
        }
        let header = [UInt8](try #require(Data(base64Encoded: old.header)))
        #expect(DeviceModel(encodedHeader: header, apps: [:], timeZone: zone) == nil)
    }
}
