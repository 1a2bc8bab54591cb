/// An app's settings as the store holds them.
public struct AppSettings: Sendable, Hashable, Codable {
    /// The device the app is on.
    public var device: String
    /// The app's name.
    public var app: String
    /// The interval the app set, or `nil` when it set none and the store's default applies.
    public var interval: FetchInterval?
    /// Whether background fetch is enabled for the app.
    public var enabled: Bool

    /// Creates a value with every field given.
    public init(device: String, app: String, interval: FetchInterval?, enabled: Bool) {
        self.device = device
        self.app = app
        self.interval = interval
        self.enabled = enabled
    }
}
