/// One event as an importer or a recorder hands it to the store.
///
/// Device events (``EventKind/isDeviceEvent``) have an empty ``app``.
public struct Event: Sendable, Hashable {
    /// What happened.
    public var kind: EventKind
    /// The app it happened to; empty for device events.
    public var app: String
    /// When it happened (for a fetch, when it started), in UTC.
    public var time: Milliseconds
    /// The UTC offset in seconds of the wall clock where it happened, when the source gives one.
    public var utcOffset: Int?
    /// For a fetch, how it ended.
    public var result: FetchResult?
    /// For a launch, how long the app stayed in the foreground; for a fetch, how long it took.
    public var duration: Double?
    /// For a fetch, how many bytes it transferred.
    public var bytes: Int64?
    /// For a `battery` event, the charge as a whole percent (`"57"`); for a `network` event, the
    /// ``NetworkState`` by name (`"unmetered"`); `nil` for every other kind. Read it typed with
    /// ``batteryPercent`` and ``networkState``.
    public var value: String?
    /// The device's name when the source names it per event; else the import's device.
    public var device: String?

    /// Creates a value with every field given.
    public init(
        kind: EventKind, app: String, time: Milliseconds, utcOffset: Int? = nil,
        result: FetchResult? = nil, duration: Double? = nil, bytes: Int64? = nil,
        device: String? = nil, value: String? = nil
    ) {
        self.kind = kind
        self.app = app
        self.time = time
        self.utcOffset = utcOffset
        self.result = result
        self.duration = duration
        self.bytes = bytes
        self.device = device
        self.value = value
    }

    /// A launch of `app` at `time`.
    public static func launch(_ app: String, at time: Milliseconds, duration: Double? = nil) -> Event {
        Event(kind: .launch, app: app, time: time, duration: duration)
    }

    /// A fetch of `app` started at `time` that ended with `result`.
    public static func fetch(
        _ app: String, at time: Milliseconds, result: FetchResult, duration: Double? = nil
    ) -> Event {
        Event(kind: .fetch, app: app, time: time, result: result, duration: duration)
    }

    /// A device-state event that carries no value: power connected or disconnected, Low Power
    /// Mode on or off.
    public static func state(_ kind: EventKind, at time: Milliseconds) -> Event {
        Event(kind: kind, app: "", time: time)
    }

    /// The battery's charge at `time`, a whole percent from 0 to 100.
    public static func battery(_ percent: Int, at time: Milliseconds) -> Event {
        Event(kind: .battery, app: "", time: time, value: String(percent))
    }

    /// The network the device is on from `time`.
    public static func network(_ state: NetworkState, at time: Milliseconds) -> Event {
        Event(kind: .network, app: "", time: time, value: state.rawValue)
    }

    /// A `battery` event's charge in percent; `nil` for other kinds.
    public var batteryPercent: Int? { kind == .battery ? value.flatMap { Int($0) } : nil }

    /// A `network` event's network; `nil` for other kinds.
    public var networkState: NetworkState? { kind == .network ? value.flatMap(NetworkState.init(rawValue:)) : nil }
}
