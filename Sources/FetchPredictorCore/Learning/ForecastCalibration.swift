/// How well the planner's forecasts came true: the cold launches its fetches served against
/// what it forecast of them, learned online, so that a wake's expected launches are a forecast
/// people can check.
///
/// A fetch the predictor planned is bound to its forecast when the fetch is recorded at the
/// planned time; a cold launch of the app from the lead to the end of the window after it was
/// served by it. Both sums decay by ``PredictorConfiguration/habitDecay`` a day.
public struct ForecastCalibration: Sendable, Hashable, Codable {
    /// The forecasts of the fetches bound, decayed.
    public internal(set) var forecast = 0.0
    /// The cold launches those fetches served, decayed.
    public internal(set) var served = 0.0
    /// Forecasts of the wakes planned last, by app: their time and forecast.
    var planned: [String: Planned] = [:]
    /// Fetches bound to a forecast, by app, waiting for a launch to serve.
    var waiting: [String: Milliseconds] = [:]

    struct Planned: Sendable, Hashable, Codable {
        var time: Milliseconds
        var forecast: Double
    }

    /// How strongly the prior of a correct forecast holds, in launches.
    static let priorStrength = 5.0

    /// The factor forecasts are corrected by: served over forecast, shrunk toward 1.
    public var correction: Double { (served + Self.priorStrength) / (forecast + Self.priorStrength) }

    mutating func decay(_ factor: Double) {
        forecast *= factor
        served *= factor
    }

    /// Remembers the forecast of a planned wake of an app.
    mutating func plan(_ app: String, at time: Milliseconds, forecast: Double) {
        planned[app] = Planned(time: time, forecast: forecast)
    }

    /// Binds a fetch to the forecast of the wake planned at its time, if there is one.
    mutating func fetched(_ app: String, at time: Milliseconds) {
        guard let wake = planned[app], wake.time == time else { return }
        planned[app] = nil
        forecast += wake.forecast
        waiting[app] = time
    }

    /// Counts a cold launch as served by the app's waiting fetch when it falls in its window.
    mutating func launched(_ app: String, at time: Milliseconds, cold: Bool, lead: Milliseconds, window: Milliseconds) {
        guard let fetch = waiting[app] else { return }
        if cold, time >= fetch + lead, time <= fetch + window { served += 1 }
        if time >= fetch + lead { waiting[app] = nil }
    }
}
