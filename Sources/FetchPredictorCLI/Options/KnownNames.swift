import ArgumentParser
import FetchPredictor

/// Checks that a device or an app named on the command line is in the store, and when it is not,
/// names the nearest ones that are.
enum KnownNames {
    /// Refuses a device the store does not have, when it has others.
    static func requireDevice(_ device: String, in store: any DeviceSettingsKeeping) async throws {
        let devices = try await store.devices()
        guard !devices.isEmpty, !devices.contains(device) else { return }
        let hint = suggestion(device, among: devices)
        let list =
            hint == "."
            ? ": its devices are \(devices.map { "'\($0)'" }.joined(separator: ", ")); give --device." : hint
        throw ValidationError(ErrorText.amend(StoreError.unknownDevice(device).description, list))
    }

    /// Refuses an app the device does not have.
    static func requireApp(_ app: String, device: String, in store: any DeviceSettingsKeeping) async throws {
        let apps = try await store.appSettings(device: device).map(\.app)
        guard !apps.contains(app) else { return }
        throw ValidationError(
            "There is no app named '\(app)' on device \(device)\(suggestion(app, among: apps))")
    }

    /// `: did you mean 'a' or 'b'?` with the nearest names, or `.` when none is near.
    static func suggestion(_ name: String, among names: [String]) -> String {
        let nearest = self.nearest(to: name, among: names)
        guard !nearest.isEmpty else { return "." }
        return ": did you mean " + nearest.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Up to three names nearest to `name`: those that contain it or are contained in it first,
    /// then by edit distance, within a quarter of the name's length.
    static func nearest(to name: String, among names: [String]) -> [String] {
        let folded = name.lowercased()
        let ranked = names.map { candidate -> (String, Int) in
            let other = candidate.lowercased()
            if other.contains(folded) || folded.contains(other) { return (candidate, 0) }
            return (candidate, distance(Array(folded), Array(other)))
        }
        let limit = max(2, folded.count / 4)
        return ranked.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    /// The Levenshtein distance between two strings.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
