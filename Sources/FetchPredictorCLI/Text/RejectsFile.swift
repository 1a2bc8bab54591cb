import ArgumentParser
import FetchPredictor
import Foundation

/// The file `--rejects` names: every refused row, as CSV (`file,line,field,reason`, quoted as
/// RFC 4180 says), so that a spreadsheet or a script reads it as it reads the logs. An import
/// writes it from the thread it reads its file on.
final class RejectsFile: Sendable {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ValidationError("Cannot write --rejects \(path): check the folder exists and is writable.")
        }
        self.handle = handle
        handle.write(Data("file,line,field,reason\n".utf8))
    }

    deinit { try? handle.close() }

    func write(_ rejection: Rejection) {
        let row = [
            CSVText.field(rejection.file), String(rejection.line), CSVText.field(rejection.field),
            CSVText.field(rejection.reason),
        ]
        handle.write(Data((row.joined(separator: ",") + "\n").utf8))
    }
}
