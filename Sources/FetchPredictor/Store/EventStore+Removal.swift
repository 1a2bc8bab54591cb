import Foundation

extension EventStore {
    /// The folders that opening a new store at `path` would make, deepest first: what
    /// ``removeIfEmpty(at:madeFolders:)`` may take away again.
    package static func missingFolders(for path: String) -> [String] {
        var folders: [String] = []
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty, folder != "/", !FileManager.default.fileExists(atPath: folder) {
            folders.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        return folders
    }

    /// Removes the store at `path`, with SQLite's companion files, when it holds no device, no
    /// event and no import; then each of `madeFolders` (deepest first) that holds nothing else.
    /// For a command that made a store for work that all failed, so that nothing is left behind.
    /// The store must not be open.
    /// - Returns: whether the store was removed.
    @discardableResult
    package static func removeIfEmpty(at path: String, madeFolders: [String] = []) -> Bool {
        guard isEmpty(at: path) else { return false }
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        for folder in madeFolders {
            guard (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true else { break }
            try? FileManager.default.removeItem(atPath: folder)
        }
        return true
    }

    /// Whether the store at a path holds no device (and so no setting of one), no event and no
    /// import; it is closed again on return.
    private static func isEmpty(at path: String) -> Bool {
        guard let store = try? EventStore(path: path, concurrentReads: false, creating: false),
            let counts = try? store.eventCounts(), let imports = try? store.imports(),
            let devices = try? store.devices()
        else { return false }
        return counts == (0, 0, 0) && imports.isEmpty && devices.isEmpty
    }
}
