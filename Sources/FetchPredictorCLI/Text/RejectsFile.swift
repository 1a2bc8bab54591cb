import ArgumentParser
import FetchPredictor
import Foundation

/// The file `--rejects` names: every refused row, one a line.
final class RejectsFile {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ValidationError("Cannot write --rejects \(path): check the folder exists and is writable.")
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    func write(_ rejection: Rejection) {
        handle.write(Data((rejection.description + "\n").utf8))
    }
}
