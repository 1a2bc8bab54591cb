import Foundation

@testable import FetchPredictorCore

/// Helpers that build predictors from synthetic users.
enum Learned {
    /// A predictor that has seen `days` days of a persona, with every app on `interval`.
    static func predictor(
        _ persona: Persona, days: Int, zone: TimeZone, seed: UInt64, interval: FetchInterval = .minimum,
        start: DateFields = DateFields(year: 2024, month: 1, day: 1), fetchPeriod: Int = 0,
        configuration: PredictorConfiguration = PredictorConfiguration(),
        forecaster: any LaunchForecaster = HazardForecaster()
    ) throws -> Predictor {
        var predictor = Predictor(configuration: configuration, forecaster: forecaster)
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = interval
        let log = SyntheticLog(
            persona: persona, start: start, days: days, timeZone: zone, seed: seed, fetchPeriodMinutes: fetchPeriod)
        for event in log.events() { try predictor.observe(event, device: "phone") }
        return predictor
    }

    /// The instant of a local wall-clock time.
    static func instant(_ zone: TimeZone, _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date
    {
        Date(
            milliseconds: DateFields(year: year, month: month, day: day, hour: hour, minute: minute).instant(in: zone).0
        )
    }

    /// The local minute of the day of an instant.
    static func localMinute(_ date: Date, _ zone: TimeZone) -> Int {
        let local = date.milliseconds + Milliseconds(zone.secondsFromGMT(for: date)) * 1000
        return Int(((local % 86_400_000) + 86_400_000) % 86_400_000 / 60_000)
    }

    static func minute(_ text: String) -> Int {
        let parts = text.split(separator: ":").map { Int($0)! }
        return parts[0] * 60 + parts[1]
    }
}

/// Checks what every schedule must satisfy, whatever the history and settings.
enum ScheduleInvariants {
    static func check(
        _ schedule: Schedule, predictor: Predictor, lastFetch: [String: Date] = [:],
        _ configuration: PredictorConfiguration = PredictorConfiguration()
    ) -> [String] {
        var problems: [String] = []
        let times = schedule.wakes.map(\.time)
        if times != times.sorted() { problems.append("device wakes are not in time order") }
        var previous: [String: Date] = lastFetch
        for wake in schedule.wakes {
            if wake.time <= schedule.from || wake.time >= schedule.to {
                problems.append("a wake at \(wake.time) is outside the horizon")
            }
            if Set(wake.apps.map(\.app)).count != wake.apps.count { problems.append("an app twice in one wake") }
            for app in wake.apps {
                let policy = predictor.policy(app: app.app, device: schedule.device)
                if !policy.enabled { problems.append("disabled app \(app.app) woken") }
                guard let floor = Planner.floor(policy.interval, configuration) else {
                    problems.append("never app \(app.app) woken")
                    continue
                }
                if let last = previous[app.app], wake.time.milliseconds - last.milliseconds < floor {
                    problems.append(
                        "\(app.app) woken \(wake.time.timeIntervalSince(last)) s after its last fetch, floor \(floor / 1000) s"
                    )
                }
                previous[app.app] = wake.time
            }
        }
        return problems
    }
}
