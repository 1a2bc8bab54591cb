/// The kinds of event the store records.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user brought an app to the foreground.
    case launch
    /// A background fetch of an app started, and ended with a ``FetchResult``.
    case fetch
    /// The device was unlocked.
    case unlock
    /// The screen was turned on.
    case screenOn
    /// The screen was turned off.
    case screenOff

    /// Whether events of this kind belong to the device rather than to an app.
    public var isDeviceEvent: Bool {
        switch self {
        case .launch, .fetch: false
        case .unlock, .screenOn, .screenOff: true
        }
    }
}
