/// A small, fast, seedable random number generator (SplitMix64), so that synthetic logs and
/// simulations give the same result for the same seed on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a value with every field given.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A draw from the normal distribution (Box–Muller).
    public mutating func normal(mean: Double = 0, deviation: Double = 1) -> Double {
        let u1 = max(unit(), .leastNonzeroMagnitude)
        let u2 = unit()
        return mean + deviation * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// A draw from the exponential distribution with the given rate.
    public mutating func exponential(rate: Double) -> Double {
        -log(max(1 - unit(), .leastNonzeroMagnitude)) / rate
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
