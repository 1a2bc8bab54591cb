import Foundation
import Testing

@testable import FetchPredictorCore

/// How often a device is on power and on an unmetered network at each time of day is learned
/// from the spans between its state events, weekdays and weekends apart, as of a time.
struct StateHabitsTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// An instant of local wall-clock time in 2024-01 (the 1st is a Monday).
    func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Milliseconds {
        Learned.instant(zone, 2024, 1, day, hour, minute).milliseconds
    }

    /// A model that charged every night from 23:00 to 07:00 and was on Wi-Fi from 18:00 to 08:30,
    /// on the nights from Monday 1 to `lastDay`.
    func nights(through lastDay: Int) -> DeviceModel {
        var model = DeviceModel(timeZone: zone)
        for day in 1...lastDay {
            for event in [
                Event.state(.powerDisconnected, at: at(day, 7)), .network(.metered, at: at(day, 8, 30)),
                .network(.unmetered, at: at(day, 18)), .state(.powerConnected, at: at(day, 23)),
            ] {
                model.observe(event, PredictorConfiguration())
            }
        }
        return model
    }

    @Test func theNightsOnPowerAndTheEveningsOnWiFiAreLearned() throws {
        let model = nights(through: 12)
        let habits = model.stateHabits
        let bin = { (hour: Int, minute: Int) in (hour * 60 + minute) / StateHabits.binMinutes }
        let power = habits.powerChances(weekend: false)
        let unmetered = habits.unmeteredChances(weekend: false)
        #expect(power[bin(2, 0)] == 1)
        #expect(power[bin(23, 5)] == 1)
        #expect(power[bin(12, 0)] == 0)
        #expect(power[bin(6, 55)] == 1 && power[bin(7, 0)] == 0)
        #expect(unmetered[bin(20, 0)] == 1 && unmetered[bin(10, 0)] == 0 && unmetered[bin(8, 25)] == 1)
        // Weekends (the 6th, 7th) are apart, and learned as well.
        #expect(habits.powerChances(weekend: true)[bin(3, 0)] == 1)
        // The last state since the last event: on power since the 12th at 23:00.
        let now = Date(milliseconds: at(13, 1))
        let summary = model.stateSummary(device: "phone", now: now)
        #expect(summary.power == .init(isOn: true, since: Date(milliseconds: at(12, 23))))
        #expect(summary.network == .init(state: .unmetered, since: Date(milliseconds: at(12, 18))))
        #expect(summary.weekday.powerDays >= 8 && summary.weekday.powerDays <= 10)
    }

    /// Before the first event of a kind nothing is known; the span since the last event is not
    /// counted (as of its time, it has not ended); a span longer than two days counts two.
    @Test func onlyClosedSpansOfAtMostTwoDaysCount() throws {
        var model = DeviceModel(timeZone: zone)
        model.observe(.state(.powerConnected, at: at(1, 12)), PredictorConfiguration())
        #expect(model.stateHabits.powerChances(weekend: false).allSatisfy { $0 == nil })
        model.observe(.state(.powerDisconnected, at: at(8, 12)), PredictorConfiguration())
        let known = model.stateHabits.powerKnown.reduce(0, +)
        #expect(known == Double(2 * 1440))
        #expect(model.stateHabits.powerMinutes.reduce(0, +) == known)
        // An event older than the state it would change is ignored.
        model.observe(.state(.powerConnected, at: at(3, 12)), PredictorConfiguration())
        #expect(model.stateHabits.power?.isOn == false)
    }

    /// The habits and the last state come back from a model's cached bytes; a device that never
    /// told any has none.
    @Test func theHabitsSurviveTheCache() throws {
        var model = nights(through: 4)
        model.observe(.battery(42, at: at(5, 6)), PredictorConfiguration())
        let read = try #require(DeviceModel(encodedHeader: model.encodedHeader(), apps: model.apps, timeZone: zone))
        #expect(read == model)
        #expect(read.stateHabits.battery?.percent == 42)
        let none = DeviceModel(timeZone: zone)
        #expect(none.stateHabits.isEmpty && none.stateSummary(device: "phone", now: Date()).isEmpty)
        #expect(DeviceModel(encodedHeader: none.encodedHeader(), apps: [:], timeZone: zone) == none)
    }
}
