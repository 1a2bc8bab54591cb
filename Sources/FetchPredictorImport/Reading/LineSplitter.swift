import Foundation

/// Splits a byte stream into lines without copying them, except a line that spans two chunks.
///
/// Lines end at `\n`; a `\r` before it is dropped; a UTF-8 byte-order mark at the start is skipped.
/// A NUL byte means the file is not text, and a line longer than ``maximumLineLength`` is refused,
/// so that memory stays bounded whatever the input.
struct LineSplitter {
    /// The longest line accepted: 1 MiB.
    static let maximumLineLength = 1 << 20

    let source: any ByteSource

    init(_ source: any ByteSource) {
        self.source = source
    }

    /// Calls `body` with each line and its number (from 1). Return `false` to stop.
    func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool) throws {
        var carry: [UInt8] = []
        var lineNumber = 0
        var atStart = true
        var stopped = false
        let path = source.name
        func deliver(_ line: UnsafeBufferPointer<UInt8>) throws -> Bool {
            lineNumber += 1
            var line = line
            if atStart {
                atStart = false
                if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                    line = UnsafeBufferPointer(rebasing: line[3...])
                }
            }
            if let last = line.last, last == UInt8(ascii: "\r") {
                line = UnsafeBufferPointer(rebasing: line[..<(line.count - 1)])
            }
            if line.count > Self.maximumLineLength {
                throw ImportError.lineTooLong(file: path, line: lineNumber, limit: Self.maximumLineLength)
            }
            if let base = line.baseAddress, memchr(base, 0, line.count) != nil {
                throw ImportError.notText(file: path, line: lineNumber)
            }
            return try body(line, lineNumber)
        }
        try source.forEachChunk { chunk in
            var start = 0
            let base = chunk.baseAddress!
            while start < chunk.count {
                guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start) else {
                    if carry.count + chunk.count - start > Self.maximumLineLength + 1 {
                        throw ImportError.lineTooLong(file: path, line: lineNumber + 1, limit: Self.maximumLineLength)
                    }
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start...]))
                    return true
                }
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let keepGoing: Bool
                if carry.isEmpty {
                    keepGoing = try deliver(UnsafeBufferPointer(rebasing: chunk[start..<end]))
                } else {
                    carry.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
                    keepGoing = try carry.withUnsafeBufferPointer { try deliver($0) }
                    carry.removeAll(keepingCapacity: true)
                }
                start = end + 1
                if !keepGoing {
                    stopped = true
                    return false
                }
            }
            return true
        }
        if !stopped, !carry.isEmpty {
            _ = try carry.withUnsafeBufferPointer { try deliver($0) }
        }
    }
}
