import FetchPredictorImport
import Foundation

/// What the predictor, the HTTP service and the commands need of an event store: the embedded
/// SQLite ``EventStore`` and the PostgreSQL store of a fleet both are one, and the same events
/// give the same answers from either.
///
/// It is made of roles, each a protocol of its own, so that a caller can ask only for what it
/// uses: ``EventKeeping`` (the events), ``DeviceSettingsKeeping`` (devices and their settings),
/// ``ModelCaching`` (learned models), ``ImportLogKeeping`` (imports of files), ``APIKeyKeeping``
/// (the service's keys), ``WakeKeeping`` (the planned wakes of a fleet) and ``FreshnessKeeping``
/// (each device's days of freshness, and each tenant's).
///
/// Every role is async. A caller waits suspended while PostgreSQL answers. SQLite's writes, its
/// imports and prunes, and its long reads (the events a model learns from, an export, the apps
/// counted) run on GRDB's own queues; its short reads by an index (a key, a device's settings, a
/// cached model) on the caller's thread, which costs less than a hop to a queue and back. The
/// steps of an import, a prune and a settings change are async, written once for both stores
/// (`ImportSteps`, `PruneSteps`, `SettingsSteps`): PostgreSQL awaits each statement, SQLite runs
/// them on GRDB's writer, to which its connection is bound, and a file is read on a thread of
/// its own while its events are stored (`ReadAhead`).
///
/// ## Topics
/// - ``EventKeeping/record(_:device:)``
/// - ``DeviceSettingsKeeping/planningSettings(device:)``
/// - ``EventKeeping/forEachEvent(device:after:through:_:)``
public protocol EventStoring: EventKeeping, DeviceSettingsKeeping, ModelCaching, ImportLogKeeping, APIKeyKeeping,
    WakeKeeping, PlanKeeping, FreshnessKeeping
{
    /// Where the store is, for logs and messages: a file's path, or a server's address without
    /// its password.
    var location: String { get }

    /// How many calls the store has answered, by call (``StoreCalls``).
    var calls: StoreCalls { get }

    /// Reads the store once: for a service's readiness check.
    func check() async throws
}

/// What a ``FetchScheduler`` needs of a store: the events, the devices and their settings, the
/// learned models, the kept wakes and plans; not the service's keys, nor the log of imports.
public typealias SchedulingStore = EventKeeping & DeviceSettingsKeeping & ModelCaching & WakeKeeping
    & PlanKeeping

extension DeviceSettingsKeeping where Self: EventKeeping {
    /// The launches, device events and fetches of some of the store's devices, as the backtest
    /// replays them (it plans fetches of its own) and `Freshness` scores them, each in its
    /// own zone.
    ///
    /// - Parameters:
    ///   - names: the devices; `nil` for every device of the store.
    ///   - timeZone: the zone the caller expects the devices in; `nil` for each device's own.
    ///   - start: the earliest event kept (included); `nil` for no bound.
    ///   - end: the time events must be before; `nil` for no bound.
    /// - Throws: ``StoreError/noTimeZone(device:)`` for a device with no zone, and
    ///   ``StoreError/timeZoneConflict(device:stored:given:)`` when `timeZone` is not its zone:
    ///   habits are never read in a zone the device was not in.
    public func backtestDevices(
        _ names: [String]? = nil, timeZone: TimeZone? = nil, from start: Milliseconds? = nil,
        to end: Milliseconds? = nil
    ) async throws -> [BacktestDevice] {
        var devices: [BacktestDevice] = []
        let all: [String]
        if let names { all = names } else { all = try await self.devices() }
        for name in all {
            guard let zone = try await self.timeZone(device: name) else { throw StoreError.noTimeZone(device: name) }
            try StoreRules.checkZone(timeZone, of: name, against: zone)
            let read = try await events(device: name, from: start, to: end)
            devices.append(
                BacktestDevice(
                    name: name, timeZone: zone, launches: read.filter { $0.kind == .launch },
                    deviceEvents: read.filter { $0.kind.isDeviceEvent || $0.kind == .notification },
                    fetches: read.filter { $0.kind == .fetch }))
        }
        return devices
    }
}
