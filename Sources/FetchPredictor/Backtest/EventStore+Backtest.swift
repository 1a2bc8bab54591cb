import Foundation

extension EventStore {
    /// The launches of some of the store's devices, as the backtest replays them.
    ///
    /// - Parameters:
    ///   - names: the devices; `nil` for every device of the store.
    ///   - timeZone: the zone to read them in; `nil` for each device's own, else UTC.
    public func backtestDevices(_ names: [String]? = nil, timeZone: TimeZone? = nil) throws -> [BacktestDevice] {
        try (names ?? devices()).map { name in
            let zone = try timeZone ?? self.timeZone(device: name) ?? TimeZone(identifier: "UTC")!
            let events = try events(device: name)
            return BacktestDevice(
                name: name, timeZone: zone, launches: events.filter { $0.kind == .launch },
                deviceEvents: events.filter(\.kind.isDeviceEvent))
        }
    }
}

extension BacktestDevice {
    /// Log files read as the backtest replays them, one device per file; nothing is stored.
    ///
    /// - Parameters:
    ///   - files: the logs, in any format the import reads.
    ///   - device: the name of the device of a single file (default `default`); with several
    ///     files, each device is named after its folder and file.
    ///   - timeZone: the zone of the logs' devices; `nil` for UTC.
    ///   - dateOrder: the order of day and month in App Usage dates.
    /// - Throws: ``ImportError`` when a file cannot be read or has invalid rows.
    public static func load(
        files: [String], device: String? = nil, timeZone: TimeZone?, dateOrder: DateOrder?
    ) throws -> [BacktestDevice] {
        let zone = timeZone ?? TimeZone(identifier: "UTC")!
        var devices: [String: [Event]] = [:]
        var deviceEvents: [String: [Event]] = [:]
        var names: [String] = []
        for file in files {
            let url = URL(fileURLWithPath: file)
            let name =
                files.count == 1
                ? (device ?? "default")
                : url.deletingLastPathComponent().lastPathComponent + "/"
                    + url.deletingPathExtension().lastPathComponent
            names.append(name)
            // Each launch and device event once, by kind, app and instant, as the store keeps it.
            struct Key: Hashable {
                var device: String?
                var kind: EventKind
                var app: String
                var time: Milliseconds
            }
            var seen = Set<Key>()
            _ = try LogReader(options: ImportOptions(device: name, timeZone: zone, dateOrder: dateOrder)).read(
                file, timeZone: zone
            ) { event in
                guard event.kind == .launch || event.kind.isDeviceEvent,
                    seen.insert(Key(device: event.device, kind: event.kind, app: event.app, time: event.time)).inserted
                else { return false }
                if event.kind == .launch {
                    devices[event.device ?? name, default: []].append(event)
                } else {
                    deviceEvents[event.device ?? name, default: []].append(event)
                }
                return true
            }
        }
        return names.map {
            BacktestDevice(name: $0, timeZone: zone, launches: devices[$0] ?? [], deviceEvents: deviceEvents[$0] ?? [])
        }
    }
}
