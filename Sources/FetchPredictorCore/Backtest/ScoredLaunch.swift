/// One scored cold launch, as the protocol's launches CSV lists it.
public struct ScoredLaunch: Sendable, Hashable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// When the launch happened.
    public var time: Milliseconds
    /// Whether it found fresh content.
    public var fresh: Bool
}
