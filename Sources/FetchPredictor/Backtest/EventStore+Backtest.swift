import Foundation

extension EventStore {
    /// The launches of some of the store's devices, as the backtest replays them, each in its
    /// own zone.
    ///
    /// - Parameters:
    ///   - names: the devices; `nil` for every device of the store.
    ///   - timeZone: the zone the caller expects the devices in; `nil` for each device's own.
    /// - Throws: ``StoreError/noTimeZone(device:)`` for a device with no zone, and
    ///   ``StoreError/timeZoneConflict(device:stored:given:)`` when `timeZone` is not its zone:
    ///   habits are never read in a zone the device was not in.
    public func backtestDevices(_ names: [String]? = nil, timeZone: TimeZone? = nil) throws -> [BacktestDevice] {
        try (names ?? devices()).map { name in
            guard let zone = try self.timeZone(device: name) else { throw StoreError.noTimeZone(device: name) }
            try Self.checkZone(timeZone, of: name, against: zone)
            let events = try events(device: name)
            return BacktestDevice(
                name: name, timeZone: zone, launches: events.filter { $0.kind == .launch },
                deviceEvents: events.filter { $0.kind.isDeviceEvent || $0.kind == .notification })
        }
    }
}
