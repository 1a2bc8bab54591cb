import Foundation

/// Reads a file in large chunks, hashing it as it goes and reporting progress: the one place
/// importers touch the file system.
public final class FileReader: ByteSource {
    /// The path as the user gave it, for messages.
    public let path: String
    /// The file's size when opened, for progress.
    public let size: Int64
    private let descriptor: Int32
    private var sha = SHA256()
    private var hashing = true
    private(set) var bytesRead: Int64 = 0
    private let chunkSize: Int
    private let progress: ((Int64, Int64) -> Void)?

    /// Opens a regular file for reading.
    ///
    /// - Parameters:
    ///   - chunkSize: the size of each read.
    ///   - progress: called after each read with the bytes read and the file's size.
    /// - Throws: ``ImportError/unreadable(file:reason:)`` when it is missing, not a regular file,
    ///   or cannot be opened.
    public init(path: String, chunkSize: Int = 1 << 20, progress: ((Int64, Int64) -> Void)? = nil) throws(ImportError) {
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

    public var name: String { path }

    /// The next chunk of the file, valid until the next call, or `nil` at the end.
    public func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        bufferAllocated = true
        while true {
            let count = read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError.unreadable(file: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return nil }
            let chunk = UnsafeBufferPointer(
                start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
            if hashing { sha.update(chunk) }
            bytesRead += Int64(count)
            progress?(bytesRead, max(size, bytesRead))
            return chunk
        }
    }

    /// Starts again from the beginning, for a second pass; the digest is of the first pass.
    public func rewind() {
        lseek(descriptor, 0, SEEK_SET)
        hashing = false
        bytesRead = 0
    }

    /// The SHA-256 of what was read in the first pass, in hexadecimal.
    public func digest() -> String {
        sha.finalizeHex()
    }

    /// Reads the rest of the file so that the digest covers all of it.
    public func finishHashing() throws {
        guard hashing else { return }
        try forEachChunk { _ in true }
    }
}
