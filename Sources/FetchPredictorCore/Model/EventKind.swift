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

    /// The kind its name (as written in the csv and jsonl formats) names, in any case.
    public init?(parsing text: String) {
        guard let kind = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            return nil
        }
        self = kind
    }

    /// The names of the kinds, for messages: "launch, fetch, unlock, screenOn or screenOff".
    public static var names: String {
        allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
    }

    /// Whether events of this kind belong to the device rather than to an app.
    public var isDeviceEvent: Bool {
        switch self {
        case .launch, .fetch, .notification: false
        case .unlock, .screenOn, .screenOff: true
        }
    }
}
