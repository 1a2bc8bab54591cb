import Foundation

/// A progress bar on standard error, drawn only on a terminal and at most a hundred times.
/// It may be updated from any thread.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let label: String
    private var lastPercent = -1
    private let enabled: Bool

    init(label: String, enabled: Bool = Output.stderrIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    func update(_ done: Int64, _ total: Int64) {
        guard enabled, total > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        let percent = Int(done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let megabytes = String(format: "%.1f/%.1f MB", Double(done) / 1e6, Double(total) / 1e6)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)% \(megabytes)".utf8))
    }

    func finish() {
        guard enabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
