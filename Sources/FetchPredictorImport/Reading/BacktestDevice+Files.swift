import FetchPredictorCore
import Foundation

extension BacktestDevice {
    /// Log files read as the backtest replays them; nothing is stored.
    ///
    /// The devices are those the files' rows name (a `device` column); rows that name none
    /// belong to a device named after their file (its name without the extension, with its
    /// folder when two files share a name). The same event in two files is replayed once.
    ///
    /// - Parameters:
    ///   - files: the logs, in any format the import reads.
    ///   - format: their format; `nil` to detect each one's.
    ///   - timeZone: the zone of the logs' devices, which their daily habits are read in.
    ///   - dateOrder: the order of day and month in App Usage dates.
    ///   - skipInvalid: replay the valid rows of a file with invalid ones, as an import stores them.
    ///   - onReject: called with every refused row.
    /// - Returns: the devices, in the order the files first name them.
    /// - Throws: ``ImportError`` when a file cannot be read or (without `skipInvalid`) has
    ///   invalid rows.
    public static func load(
        files: [String], format: ImportFormat? = nil, timeZone: TimeZone, dateOrder: DateOrder?,
        skipInvalid: Bool = false,
        onReject: ((Rejection) -> Void)? = nil
    ) throws -> [BacktestDevice] {
        var launches: [String: [Event]] = [:]
        var deviceEvents: [String: [Event]] = [:]
        var names: [String] = []
        var named = Set<String>()
        // Each launch and device event once, as the store keeps it.
        var seen = Set<Event.Identity>()
        for (file, fileDevice) in zip(files, deviceNames(files: files)) {
            let options = ImportOptions(
                format: format, device: fileDevice, timeZone: timeZone, dateOrder: dateOrder, skipInvalid: skipInvalid)
            _ = try LogReader(options: options).read(file, onReject: onReject) { event in
                let device = event.device ?? fileDevice
                if named.insert(device).inserted { names.append(device) }
                guard event.kind == .launch || event.kind.isDeviceEvent || event.kind == .notification,
                    seen.insert(event.identity(device: device)).inserted
                else { return false }
                if event.kind == .launch {
                    launches[device, default: []].append(event)
                } else {
                    deviceEvents[device, default: []].append(event)
                }
                return true
            }
        }
        return names.map {
            BacktestDevice(
                name: $0, timeZone: timeZone, launches: launches[$0] ?? [], deviceEvents: deviceEvents[$0] ?? [])
        }
    }

    /// The device of each file's rows that name none: the file's name without its extension;
    /// with its folder when two files share that name, with its extension too when they still
    /// do, and its whole path as a last resort.
    static func deviceNames(files: [String]) -> [String] {
        let urls = files.map { URL(fileURLWithPath: $0) }
        let namings: [(URL) -> String] = [
            { $0.deletingPathExtension().lastPathComponent },
            { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.deletingPathExtension().lastPathComponent },
            { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.lastPathComponent },
            { $0.path },
        ]
        return urls.map { url in
            for naming in namings.dropLast() {
                let name = naming(url)
                if urls.filter({ naming($0) == name }).count == 1 { return name }
            }
            return url.path
        }
    }
}
