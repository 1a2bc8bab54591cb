import FetchPredictorCore
import FetchPredictorImport
import Foundation

/// A log file read as the store would hold it, with no store: each event once by device, kind, app
/// and instant, in the store's order (device, time, kind, app). What the formats' tests read.
struct ReadLog {
    /// What the reader said of the file.
    var report: ImportReport
    /// Every event read, each with its device.
    private(set) var all: [Event] = []

    /// Reads a file; without `skipInvalid`, a file with an invalid row throws, as an import does.
    init(_ path: String, options: ImportOptions = ImportOptions()) throws {
        var seen = Set<Event.Identity>()
        var read: [Event] = []
        report = try LogReader(options: options).read(path) { event in
            var event = event
            event.device = event.device ?? options.device
            guard seen.insert(event.identity(device: event.device!)).inserted else { return false }
            read.append(event)
            return true
        }
        all = read.sorted {
            ($0.device!, $0.time, $0.kind.rawValue, $0.app) < ($1.device!, $1.time, $1.kind.rawValue, $1.app)
        }
    }

    /// A device's events in time order, without the device's name, as the store gives them.
    func events(device: String = "default") -> [Event] {
        all.filter { $0.device == device }.map { event in
            var event = event
            event.device = nil
            return event
        }
    }

    /// The devices the file's events went to, sorted.
    var devices: [String] { Set(all.compactMap(\.device)).sorted() }

    /// The apps of a device's launches, fetches and notifications, sorted.
    func apps(device: String = "default") -> [String] {
        Set(events(device: device).filter { !$0.kind.isDeviceEvent }.map(\.app)).sorted()
    }
}
