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
    /// An app posted a notification: not a launch, but often the moment before one.
    case notification
    /// The device was put on external power.
    case powerConnected
    /// The device was taken off external power.
    case powerDisconnected
    /// The battery's charge, in ``Event/value`` a whole percent from 0 to 100.
    case battery
    /// The network the device is on, in ``Event/value``: a ``NetworkState``.
    case network
    /// Low Power Mode was turned on: no app is woken in the background until it is turned off.
    case lowPowerOn
    /// Low Power Mode was turned off.
    case lowPowerOff

    /// The kind its name (as written in the csv and jsonl formats) names, in any case.
    public init?(parsing text: String) {
        guard let kind = Self.named(ignoringCase: text) else { return nil }
        self = kind
    }

    /// The names of the kinds, for messages: "launch, fetch, unlock, ... lowPowerOn or lowPowerOff".
    public static var names: String {
        allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
    }

    /// Whether events of this kind belong to the device rather than to an app.
    public var isDeviceEvent: Bool {
        switch self {
        case .launch, .fetch, .notification: false
        case .unlock, .screenOn, .screenOff: true
        case .powerConnected, .powerDisconnected, .battery, .network, .lowPowerOn, .lowPowerOff: true
        }
    }

    /// The device's own kinds, in the order a store numbers them (after the app events' launch,
    /// fetch and notification): a kind added later comes last, so that stored codes never move.
    public static let deviceKinds: [EventKind] = [
        .unlock, .screenOn, .screenOff, .powerConnected, .powerDisconnected, .battery, .network, .lowPowerOn,
        .lowPowerOff,
    ]

    /// Whether events of this kind tell the device's state (power, battery, network, Low Power
    /// Mode), which plans heed, rather than its use.
    public var isDeviceState: Bool {
        switch self {
        case .powerConnected, .powerDisconnected, .battery, .network, .lowPowerOn, .lowPowerOff: true
        case .launch, .fetch, .notification, .unlock, .screenOn, .screenOff: false
        }
    }

    /// Whether a device's model, learned from a store, reads events of this kind: launches,
    /// fetches and the device's state. A model cached before such an event is learned again.
    public var isLearnedFromStore: Bool { self == .launch || self == .fetch || isDeviceState }

    /// Whether ``Freshness`` scores events of this kind: launches and fetches. A new one changes
    /// the figures of its days, which a store marks to be kept again.
    public var isScoredForFreshness: Bool { self == .launch || self == .fetch }

    /// Whether events of this kind carry a ``Event/value``: a battery level or a network.
    public var takesValue: Bool { self == .battery || self == .network }
}
