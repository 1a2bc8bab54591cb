import ArgumentParser
import Foundation

/// Text written in chunks to standard output or to a file, so that a long output keeps memory
/// flat and a file that cannot be written is one sentence.
final class OutputFile {
    private let handle: FileHandle
    private var buffer = ""
    private let isStandardOutput: Bool

    /// - Parameters:
    ///   - path: the file, created or emptied; `nil` or `-` for standard output.
    ///   - option: the option that named it, for the error.
    init(path: String?, option: String) throws {
        if let path, path != "-" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                throw ValidationError("Cannot write \(option) \(path): it is a folder; name a file.")
            }
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw ValidationError("Cannot write \(option) \(path): check the folder exists and is writable.")
            }
            self.handle = handle
            isStandardOutput = false
        } else {
            handle = .standardOutput
            isStandardOutput = true
        }
    }

    /// Adds text as it is.
    func write(_ text: String) throws {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Adds a line.
    func line(_ text: String) throws {
        buffer += text
        buffer += "\n"
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered; closes the file when it is not standard output.
    func close() throws {
        try flush()
        if !isStandardOutput { try handle.close() }
    }

    private func flush() throws {
        do {
            try handle.write(contentsOf: Data(buffer.utf8))
        } catch let error where Self.isBrokenPipe(error) {
            // The reader went away (`export | head`, or a FIFO named by --out): stop quietly, with
            // the status a process that SIGPIPE ends has, whether or not the signal is ignored in
            // this process (the PostgreSQL driver's networking ignores it).
            throw ExitCode(128 + SIGPIPE)
        }
        buffer = ""
    }

    static func isBrokenPipe(_ error: any Error) -> Bool {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return error.code == Int(EPIPE) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(EPIPE)
        }
        return false
    }
}
