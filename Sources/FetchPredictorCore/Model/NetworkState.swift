/// The network a device is on, as a `network` event's ``Event/value`` names it.
///
/// The kinds of network that background work asks for: Android's WorkManager's `UNMETERED`, iOS's
/// discretionary transfers that wait for Wi-Fi.
public enum NetworkState: String, Sendable, Hashable, Codable, CaseIterable {
    /// A network not charged by the byte: Wi-Fi, Ethernet.
    case unmetered
    /// A network charged by the byte, or limited: cellular, a phone's hotspot.
    case metered
    /// No network.
    case none

    /// The state its name names, in any case.
    public init?(parsing text: String) {
        guard let state = Self.named(ignoringCase: text) else { return nil }
        self = state
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The case whose name is `text`, in any case: `Unmetered` is `unmetered`.
    static func named(ignoringCase text: String) -> Self? {
        let folded = text.lowercased()
        return allCases.first { $0.rawValue.lowercased() == folded }
    }
}
