import FetchPredictorCore

extension AppConstraints {
    /// The constraints as a store keeps them, the same in both backends: 1 on power, 2 on an
    /// unmetered network, 4 a battery not low, added; 0 for none.
    public var storeBits: Int16 {
        (requiresPower ? 1 : 0) + (requiresUnmetered ? 2 : 0) + (requiresBatteryNotLow ? 4 : 0)
    }

    /// The constraints of a store's bits; bits it does not know are ignored.
    public init(storeBits: Int16) {
        self.init(
            requiresPower: storeBits & 1 != 0, requiresUnmetered: storeBits & 2 != 0,
            requiresBatteryNotLow: storeBits & 4 != 0)
    }
}
