/// Wakes grouped by their forecast of the cold launches they serve, against what they served:
/// a row of the reliability table.
public struct ReliabilityBin: Sendable, Hashable, Codable {
    /// The forecasts of the bin are from this ...
    public var lower: Double
    /// ... up to, not including, this; `nil` for the last bin, which has no upper bound.
    public var upper: Double?
    /// Fetches of apps in scope on scored days whose forecast fell in the bin.
    public var wakes: Int
    /// The sum of their forecasts.
    public var forecast: Double
    /// The fresh cold launches they served: each counts for the last fetch before it, within its window.
    public var served: Int

    /// The edges of the bins, in expected cold launches.
    public static let edges: [Double] = [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1]
}
