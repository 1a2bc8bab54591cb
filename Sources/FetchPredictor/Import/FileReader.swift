import Foundation

/// Reads a file in large chunks, hashing it as it goes and reporting progress: the one place
/// importers touch the file system.
final class FileReader {
    /// The path as the user gave it, for messages.
    let path: String
    /// The file's size when opened, for progress.
    let size: Int64
    private let descriptor: Int32
    private var sha = SHA256()
    private var hashing = true
    private(set) var bytesRead: Int64 = 0
    private let chunkSize: Int
    private let progress: ((Int64, Int64) -> Void)?

    init(path: String, chunkSize: Int = 1 << 20, progress: ((Int64, Int64) -> Void)? = nil) throws(ImportError) {
        self.path = path
        self.chunkSize = chunkSize
        self.progress = progress
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadable(file: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(file: path, reason: "it is not a regular file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(file: path, reason: String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
        self.size = Int64(info.st_size)
    }

    deinit {
        close(descriptor)
        if bufferAllocated { buffer.deallocate() }
    }

    private lazy var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    private var bufferAllocated = false

    /// The next chunk of the file, valid until the next call, or `nil` at the end.
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        bufferAllocated = true
        while true {
            let count = read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError.unreadable(file: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return nil }
            let chunk = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
            if hashing { sha.update(chunk) }
            bytesRead += Int64(count)
            progress?(bytesRead, max(size, bytesRead))
            return chunk
        }
    }

    /// Calls `body` with each chunk of the file until the end or until `body` returns `false`.
    func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        while let chunk = try nextChunk() {
            if try !body(chunk) { return }
        }
    }

    /// Starts again from the beginning, for a second pass; the digest is of the first pass.
    func rewind() {
        lseek(descriptor, 0, SEEK_SET)
        hashing = false
        bytesRead = 0
    }

    /// The SHA-256 of what was read in the first pass, in hexadecimal.
    func digest() -> String {
        sha.finalizeHex()
    }

    /// Reads the rest of the file so that the digest covers all of it.
    func finishHashing() throws {
        guard hashing else { return }
        try forEachChunk { _ in true }
    }
}

/// Splits a file into lines without copying them, except a line that spans two chunks.
///
/// Lines end at `\n`; a `\r` before it is dropped; a UTF-8 byte-order mark at the start is skipped.
/// A NUL byte means the file is not text, and a line longer than ``maximumLineLength`` is refused,
/// so that memory stays bounded whatever the input.
struct LineSplitter {
    /// The longest line accepted: 1 MiB.
    static let maximumLineLength = 1 << 20

    let file: FileReader

    init(file: FileReader) {
        self.file = file
    }

    /// Calls `body` with each line and its number (from 1). Return `false` to stop.
    func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool) throws {
        var carry: [UInt8] = []
        var lineNumber = 0
        var atStart = true
        var stopped = false
        let path = file.path
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
        try file.forEachChunk { chunk in
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
