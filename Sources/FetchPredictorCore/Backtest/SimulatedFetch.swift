/// One simulated fetch, as the protocol's wakes CSV lists it.
public struct SimulatedFetch: Sendable, Hashable {
    /// The device.
    public var device: String
    /// The app.
    public var app: String
    /// When the fetch started.
    public var start: Milliseconds
    /// How the fetch ended.
    public var result: FetchResult
    /// The predictor's forecast of the cold launches the fetch serves; `nil` for the baselines.
    public var forecast: Double?

    /// Creates a value with every field given.
    public init(device: String, app: String, start: Milliseconds, result: FetchResult, forecast: Double? = nil) {
        self.device = device
        self.app = app
        self.start = start
        self.result = result
        self.forecast = forecast
    }
}
