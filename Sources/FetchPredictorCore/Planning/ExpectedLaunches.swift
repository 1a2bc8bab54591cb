/// Expected cold launches of one app per minute over a planning horizon, by what expects them,
/// so that each wake's reasons can say what its expected launches come from.
public struct ExpectedLaunches: Sendable {
    /// From the app's daily profile: use at this time of day, less a quiet spell's discount and
    /// today's peaks that passed without a launch.
    public var usual: [Double]
    /// From how soon the app is opened again after its last launch.
    public var returning: [Double]

    /// No launch expected in any of the horizon's first `minutes` minutes.
    public init(minutes: Int) {
        usual = [Double](repeating: 0, count: minutes)
        returning = [Double](repeating: 0, count: minutes)
    }

    /// Multiplies both by a factor.
    mutating func scale(by factor: Double) {
        guard factor != 1 else { return }
        for index in usual.indices {
            usual[index] *= factor
            returning[index] *= factor
        }
    }

    /// Both together, minute by minute.
    var total: [Double] {
        var total = usual
        for index in total.indices { total[index] += returning[index] }
        return total
    }
}
