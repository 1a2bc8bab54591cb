import Foundation

/// The one JSON parser of the importers: a pull parser that reads a byte stream chunk by chunk,
/// so that a large export never sits in memory whole, or one JSON text already in memory, such
/// as a line of a JSON Lines file. It counts lines for error messages and refuses nesting deeper
/// than its ``maximumDepth``, so that no input can exhaust the stack.
struct JSONReader {
    /// The deepest nesting accepted by default; ActivityWatch exports nest five deep.
    static let defaultMaximumDepth = 64
    /// The longest string accepted, in bytes.
    static let maximumStringLength = 1 << 20

    /// The deepest nesting this reader accepts.
    let maximumDepth: Int
    private let source: (any ByteSource)?
    private let name: String
    private var chunk: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    private var index = 0
    private var atEnd = false
    /// The line of the next byte, counting from 1.
    private(set) var line = 1

    /// A reader of a whole stream.
    init(_ source: any ByteSource, maximumDepth: Int = JSONReader.defaultMaximumDepth) {
        self.source = source
        name = source.name
        self.maximumDepth = maximumDepth
    }

    /// A reader of one JSON text in memory, at a line of a file named `name`; the bytes must
    /// outlive the reader.
    init(bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int, maximumDepth: Int) {
        source = nil
        self.name = name
        self.line = line
        self.maximumDepth = maximumDepth
        chunk = bytes
        atEnd = true
    }

    func error(_ reason: String) -> ImportError {
        .malformed(file: name, line: line, reason: reason)
    }

    private mutating func refill() throws -> Bool {
        if atEnd { return false }
        if let next = try source?.nextChunk() {
            chunk = next
            index = 0
            return true
        }
        atEnd = true
        return false
    }

    /// The next byte without consuming it, or `nil` at the end of the file.
    private mutating func peekByte() throws -> UInt8? {
        if index < chunk.count { return chunk[index] }
        guard try refill() else { return nil }
        return chunk[index]
    }

    private mutating func nextByte() throws -> UInt8? {
        guard let byte = try peekByte() else { return nil }
        index += 1
        if byte == UInt8(ascii: "\n") { line += 1 }
        return byte
    }

    /// The next byte that is not white space, not consumed.
    mutating func peek() throws -> UInt8? {
        while let byte = try peekByte() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
            case 0xEF where line == 1:
                // A UTF-8 byte-order mark.
                index += 1
                for _ in 0..<2 { _ = try nextByte() }
            default:
                return byte
            }
        }
        return nil
    }

    mutating func expect(_ expected: UInt8) throws {
        guard let byte = try peek() else {
            throw error("the JSON ends too early, where '\(Character(Unicode.Scalar(expected)))' was expected")
        }
        guard byte == expected else {
            throw error("'\(Character(Unicode.Scalar(expected)))' was expected, not '\(Self.show(byte))'")
        }
        index += 1
    }

    static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : String(format: "\\x%02X", byte)
    }

    /// Whether the JSON text is over; anything after it is an error.
    mutating func expectEnd() throws {
        if let byte = try peek() { throw error("unexpected '\(Self.show(byte))' after the end of the JSON") }
    }

    /// Reads the opening of an object, after which ``nextKey(first:)`` gives the members.
    mutating func beginObject() throws { try expect(UInt8(ascii: "{")) }

    /// The next member's key, or `nil` at the object's end. `first` tells whether any member
    /// was read yet.
    mutating func nextKey(first: Bool) throws -> String? {
        guard let byte = try peek() else { throw error("the JSON ends inside an object") }
        if byte == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        if !first { try expect(UInt8(ascii: ",")) }
        let key = try readString()
        try expect(UInt8(ascii: ":"))
        return key
    }

    mutating func beginArray() throws { try expect(UInt8(ascii: "[")) }

    /// Whether another element follows in an array, consuming the comma or the closing bracket.
    mutating func nextElement(first: Bool) throws -> Bool {
        guard let byte = try peek() else { throw error("the JSON ends inside an array") }
        if byte == UInt8(ascii: "]") {
            index += 1
            return false
        }
        if !first { try expect(UInt8(ascii: ",")) }
        return true
    }

    mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""))
        var bytes: [UInt8] = []
        while true {
            guard let byte = try nextByte() else { throw error("the JSON ends inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                // Never mended into U+FFFD: two different byte strings would become one name.
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw error("a string that is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                guard let escaped = try nextByte() else { throw error("the JSON ends inside a string") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(8)
                case UInt8(ascii: "f"): bytes.append(12)
                case UInt8(ascii: "n"): bytes.append(10)
                case UInt8(ascii: "r"): bytes.append(13)
                case UInt8(ascii: "t"): bytes.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard try nextByte() == UInt8(ascii: "\\"), try nextByte() == UInt8(ascii: "u") else {
                            throw error("a lone surrogate in a string escape")
                        }
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw error("a lone surrogate in a string escape")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("an invalid escape '\\\(Self.show(escaped))' in a string")
                }
            case 0..<0x20:
                throw error("a control character inside a string")
            default:
                bytes.append(byte)
            }
            if bytes.count > Self.maximumStringLength { throw error("a string longer than 1 MiB") }
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try nextByte(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw error("an invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func readNumber() throws -> Double {
        var bytes: [UInt8] = []
        while let byte = try peekByte(),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        {
            bytes.append(byte)
            index += 1
            if bytes.count > 64 { throw error("a number longer than 64 characters") }
        }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else {
            throw error("'\(String(decoding: bytes, as: UTF8.self))' is not a number")
        }
        return value
    }

    private mutating func readLiteral(_ word: String) throws {
        for expected in word.utf8 {
            guard try nextByte() == expected else { throw error("an unknown literal where '\(word)' was expected") }
        }
    }

    /// Consumes the bracket that opens an object or an array inside `depth` others, refusing
    /// one level more than ``maximumDepth``.
    private mutating func open(_ depth: Int) throws {
        guard depth < maximumDepth else { throw error("the JSON nests deeper than \(maximumDepth) levels") }
        index += 1
    }

    /// Reads any value whole. Use it only for values known to be small.
    mutating func readValue(depth: Int = 0) throws -> JSONValue {
        guard let byte = try peek() else { throw error("the JSON ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"):
            try open(depth)
            var members: [String: JSONValue] = [:]
            var first = true
            while let key = try nextKey(first: first) {
                first = false
                // Readers disagree on which of two equal keys wins: neither does here.
                guard members[key] == nil else { throw error("the key '\(key.prefix(40))' appears twice in an object") }
                members[key] = try readValue(depth: depth + 1)
            }
            return .object(members)
        case UInt8(ascii: "["):
            try open(depth)
            var elements: [JSONValue] = []
            var first = true
            while try nextElement(first: first) {
                first = false
                elements.append(try readValue(depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            throw error("'\(Self.show(byte))' cannot start a JSON value")
        }
    }

    /// Skips a value of any size without keeping it.
    mutating func skipValue(depth: Int = 0) throws {
        guard let byte = try peek() else { throw error("the JSON ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"):
            try open(depth)
            var first = true
            while try nextKey(first: first) != nil {
                first = false
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try open(depth)
            var first = true
            while try nextElement(first: first) {
                first = false
                try skipValue(depth: depth + 1)
            }
        default:
            _ = try readValue(depth: depth)
        }
    }
}
