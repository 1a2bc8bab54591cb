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
            return BacktestDevice(
                name: name, timeZone: zone, launches: try events(device: name).filter { $0.kind == .launch })
        }
    }
}

extension BacktestDevice {
    /// Log files read into a temporary store in memory, one device per file, as the backtest
    /// replays them. The files are not stored anywhere.
    ///
    /// - Parameters:
    ///   - files: the logs, in any format the import reads.
    ///   - device: the name of the device of a single file (default `default`); with several
    ///     files, each device is named after its folder and file.
    ///   - timeZone: the zone of the logs' devices; `nil` for UTC.
    ///   - dateOrder: the order of day and month in App Usage dates.
    /// - Throws: ``ImportError`` when a file cannot be read.
    public static func load(
        files: [String], device: String? = nil, timeZone: TimeZone?, dateOrder: DateOrder?
    ) throws -> [BacktestDevice] {
        let store = try EventStore.inMemory()
        var names: [String] = []
        for file in files {
            let url = URL(fileURLWithPath: file)
            let name =
                files.count == 1
                ? (device ?? "default")
                : url.deletingLastPathComponent().lastPathComponent + "/"
                    + url.deletingPathExtension().lastPathComponent
            let options = ImportOptions(
                device: name, timeZone: timeZone, defaultTimeZone: timeZone ?? TimeZone(identifier: "UTC")!,
                dateOrder: dateOrder)
            _ = try store.importFile(file, options: options, now: Date(timeIntervalSince1970: 0))
            names.append(name)
        }
        return try store.backtestDevices(names, timeZone: timeZone)
    }
}
