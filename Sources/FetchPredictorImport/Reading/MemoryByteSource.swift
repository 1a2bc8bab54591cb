/// Bytes in memory as a ``ByteSource``, handed out in chunks of a given size: for tests and
/// for callers that have the log already, and no file.
public final class MemoryByteSource: ByteSource {
    public let name: String
    /// A copy of the bytes that the class owns, so that chunks may point into it.
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private let chunkSize: Int
    private var offset = 0

    /// - Parameters:
    ///   - name: how messages name the bytes, such as the file they came from.
    ///   - bytes: the content.
    ///   - chunkSize: the largest chunk handed out; small sizes test the seams between chunks.
    public init(name: String, bytes: [UInt8], chunkSize: Int = 1 << 20) {
        self.name = name
        storage = .allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        self.chunkSize = max(1, chunkSize)
    }

    deinit { storage.deallocate() }

    public func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        guard offset < storage.count else { return nil }
        let end = min(storage.count, offset + chunkSize)
        defer { offset = end }
        return UnsafeBufferPointer(rebasing: storage[offset..<end])
    }

    public func rewind() throws { offset = 0 }
}
