extension Event {
    /// What makes an event one event, as the store keeps it: its device, kind, app and instant.
    /// The same identity read twice (in two files, or twice in one) is one event.
    public struct Identity: Sendable, Hashable {
        public var device: String
        public var kind: EventKind
        public var app: String
        public var time: Milliseconds
    }

    /// The event's identity on a device.
    public func identity(device: String) -> Identity {
        Identity(device: device, kind: kind, app: app, time: time)
    }
}
