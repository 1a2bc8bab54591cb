import Foundation
import Testing

@testable import FetchPredictorCore

/// The chance planner (``WakePlanning/chance``) plans an app by the forecaster's chance of a cold
/// launch in each wake's window: a wake at the first minute it reaches `1 − budget`, none in the
/// window of the one before; waiting (``WakePlanning/chanceWaiting``) for a minute within the
/// window ahead that is more than 1/0.9 times as likely.
struct ChancePlanningTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// A forecaster whose chance of a cold launch in the window after each instant is a function
    /// of the instant's local time of day, in minutes.
    struct ScriptedChances: LaunchForecaster {
        var zone: TimeZone
        var chance: @Sendable (_ minuteOfDay: Int) -> Double

        var name: String { "scripted" }
        var inputs: ForecastInputs { [] }

        func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
            requests.map { request in
                var expected = ExpectedLaunches(minutes: request.endIndex)
                var chances = [Double](repeating: 0, count: request.endIndex)
                for minute in request.startIndex..<request.endIndex {
                    chances[minute] = chance(Learned.localMinute(request.time(ofMinute: minute), zone))
                    // Launches that add up to about the chance over a window, which no choice reads.
                    expected.usual[minute] = chances[minute] / 30
                }
                return LaunchForecast(expected: expected, chances: chances)
            }
        }
    }

    /// Three weeks of one app opened at 09:10 every day, and nothing else: no fetch result, so
    /// that nothing but the chance weighs a wake.
    func predictor(
        planning: WakePlanning, budget: Double, interval: FetchInterval = .minimum,
        chance: @escaping @Sendable (Int) -> Double
    ) throws -> Predictor {
        var configuration = PredictorConfiguration()
        configuration.planning = planning
        configuration.budget = budget
        configuration.usesFetchResults = false
        var predictor = Predictor(
            configuration: configuration, forecaster: ScriptedChances(zone: zone, chance: chance))
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .never
        predictor.setPolicy(AppPolicy(interval: interval), app: "news", device: "phone")
        for day in 1...21 {
            try predictor.observe(
                Event(kind: .launch, app: "news", time: Learned.instant(zone, 2024, 1, day, 9, 10).milliseconds),
                device: "phone")
        }
        return predictor
    }

    var from: Date { Learned.instant(zone, 2024, 1, 22, 0, 0) }

    /// The local times of the app's wakes over two days, as "HH:MM".
    func wakeTimes(_ predictor: Predictor) throws -> [String] {
        let schedule = try predictor.schedule(from: from, to: from.addingTimeInterval(2 * 86_400), device: "phone")
        #expect(ScheduleInvariants.check(schedule, predictor: predictor, predictor.configuration).isEmpty)
        return schedule.wakes.flatMap(\.apps).map {
            let minute = Learned.localMinute($0.plannedTime, zone)
            return String(format: "%02d:%02d", minute / 60, minute % 60)
        }
    }

    /// 0.05 all day but from 09:00 to 09:20, where it climbs from 0.25 to 0.5.
    static let morningRamp: @Sendable (Int) -> Double = { minute in
        (540...560).contains(minute) ? 0.25 + 0.25 * Double(minute - 540) / 20 : 0.05
    }

    @Test func aWakeComesAtTheFirstMinuteItsChanceReachesTheThreshold() throws {
        // 1 − 0.8 = 0.2: reached at 09:00; 1 − 0.69 = 0.31: at 09:05 (0.3125), not 09:04 (0.3).
        #expect(
            try wakeTimes(predictor(planning: .chance, budget: 0.8, chance: Self.morningRamp)) == ["09:00", "09:00"])
        #expect(
            try wakeTimes(predictor(planning: .chance, budget: 0.69, chance: Self.morningRamp)) == ["09:05", "09:05"])
        // Nowhere reached: no wake.
        #expect(try wakeTimes(predictor(planning: .chance, budget: 0.4, chance: Self.morningRamp)) == [])
    }

    @Test func waitingWaitsForAMinuteMoreThanATenthBetterWithinTheWindow() throws {
        // The best ahead is 0.5 at 09:20: waited for until 0.9 × 0.5 = 0.45, at 09:16.
        let waiting = try predictor(planning: .chanceWaiting, budget: 0.8, chance: Self.morningRamp)
        #expect(try wakeTimes(waiting) == ["09:16", "09:16"])
        // The sweep reads the same forecaster otherwise.
        #expect(
            try wakeTimes(predictor(planning: .sweep, budget: 0.8, chance: Self.morningRamp)) != ["09:00", "09:00"])
    }

    @Test func noWakeOfAnAppInTheWindowOfItsLastOne() throws {
        // A chance of 0.5 all day: a wake every window, or every interval when it is longer.
        let always: @Sendable (Int) -> Double = { _ in 0.5 }
        let everyWindow = try wakeTimes(predictor(planning: .chance, budget: 0.9, chance: always))
        #expect(
            everyWindow.prefix(3) == ["00:00", "00:30", "01:00"]
                || everyWindow.prefix(3) == ["00:01", "00:31", "01:01"])
        let hourly = try wakeTimes(predictor(planning: .chance, budget: 0.9, interval: .seconds(3600), chance: always))
        #expect(hourly.count >= 40 && hourly.count <= 48, "\(hourly)")
        #expect(Set(hourly.map { $0.suffix(2) }).count == 1, "\(hourly)")
        // A fetch ten minutes before: the next wake comes a window after it, though the
        // interval (`minimum`, 15 minutes) would allow one five minutes later.
        var fetched = try predictor(planning: .chance, budget: 0.9, chance: always)
        try fetched.observe(
            Event(kind: .fetch, app: "news", time: from.milliseconds - 600_000, result: .newData, duration: 2),
            device: "phone")
        let first = try #require(try fetched.nextWake(after: from, device: "phone"))
        #expect(first.time == from.addingTimeInterval(20 * 60))
    }

    /// A forecaster of expected launches is planned by the launches each window expects: a
    /// window holds at most one cold launch of an app, so they are its chance.
    @Test func theChanceOfExpectedLaunchesIsTheirSumOverTheWindow() {
        let configuration = PredictorConfiguration()
        let rates = [Double](repeating: 0.01, count: 100) + [Double](repeating: 0.02, count: 40)
        let chances = Planner.windowChances(rates, configuration)
        #expect(chances.count == rates.count)
        // From the lead (1 minute) to the window's end (30 minutes): 30 minutes.
        #expect(abs(chances[0] - 0.30) < 1e-12)
        #expect(abs(chances[80] - (19 * 0.01 + 11 * 0.02)) < 1e-12)
        // The last minutes see only the rates there are.
        #expect(abs(chances[135] - 4 * 0.02) < 1e-12)
        // At most 1.
        #expect(Planner.windowChances([Double](repeating: 0.1, count: 60), configuration)[0] == 1)
    }
}
