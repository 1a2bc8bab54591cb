/// A stream of bytes that parsers read chunk by chunk: a file (``FileReader``) or bytes already in
/// memory (``MemoryByteSource``).
///
/// A chunk stays valid only until the next call, so that a source never has to hold more than
/// one chunk, whatever the size of what it streams.
public protocol ByteSource: AnyObject {
    /// The name of what is read, as messages name it: the path of a file.
    var name: String { get }

    /// The next chunk, valid until the next call, or `nil` at the end.
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>?

    /// Starts again from the first byte, for a second pass.
    func rewind() throws
}

extension ByteSource {
    /// Calls `body` with each chunk until the end or until `body` returns `false`.
    public func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        while let chunk = try nextChunk() {
            if try !body(chunk) { return }
        }
    }
}
