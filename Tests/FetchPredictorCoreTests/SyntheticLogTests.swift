import Foundation
import Testing

@testable import FetchPredictorCore

struct SyntheticLogTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    @Test func sameSeedGivesTheSameLog() {
        let first = SyntheticLog(persona: .commuter, days: 14, timeZone: zone, seed: 5).events()
        let again = SyntheticLog(persona: .commuter, days: 14, timeZone: zone, seed: 5).events()
        let other = SyntheticLog(persona: .commuter, days: 14, timeZone: zone, seed: 6).events()
        #expect(first == again)
        #expect(first != other)
    }

    @Test(arguments: Persona.all)
    func everyPersonaMakesLaunchesAndFetches(_ persona: Persona) {
        let events = SyntheticLog(persona: persona, days: 21, timeZone: zone, seed: 1).events()
        #expect(events.count(where: { $0.kind == .launch }) > 21 * 2)
        #expect(events.count(where: { $0.kind == .fetch }) == 21 * 8 * persona.apps.count)
        #expect(
            events == events.sorted { $0.time < $1.time }
                || zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(Set(events.filter { $0.kind == .fetch }.compactMap(\.result)).count >= 2)
    }

    @Test func commuterWeekdayHabitsSkipWeekends() {
        // 2024-01-01 was a Monday: days 5 and 6 are a weekend.
        let events = SyntheticLog(persona: .commuter, days: 7, timeZone: zone, seed: 2, fetchPeriodMinutes: 0).events()
        let mail = events.filter { $0.app == "com.example.mail" }
        let weekendStart = DateFields(year: 2024, month: 1, day: 6).instant(in: zone).0
        let weekendEnd = DateFields(year: 2024, month: 1, day: 8).instant(in: zone).0
        let weekendMorningMail = mail.filter { $0.time >= weekendStart && $0.time < weekendEnd }.filter {
            let minute = (($0.time - weekendStart) / 60_000) % 1440
            return (8 * 60 + 15...9 * 60 + 15).contains(minute)
        }
        #expect(mail.count >= 5)
        #expect(weekendMorningMail.count <= 1)
    }

    @Test func shiftingPersonaMovesItsMorningHabit() {
        let events = SyntheticLog(persona: .shifting, days: 28, timeZone: zone, seed: 3, fetchPeriodMinutes: 0).events()
        func minuteOfDay(_ event: Event) -> Int {
            let offset = Int64(zone.secondsFromGMT(for: Date(milliseconds: event.time))) * 1000
            return Int(((event.time + offset) % 86_400_000) / 60_000)
        }
        let start = DateFields(year: 2024, month: 1, day: 15).instant(in: zone).0
        let news = events.filter { $0.app == "com.example.news" }
        let early = news.filter { $0.time < start }.filter { (6 * 60 + 30...7 * 60 + 30).contains(minuteOfDay($0)) }
        let late = news.filter { $0.time >= start }.filter { (9 * 60...10 * 60).contains(minuteOfDay($0)) }
        let lateBefore = news.filter { $0.time < start }.filter { (9 * 60...10 * 60).contains(minuteOfDay($0)) }
        #expect(early.count >= 10)
        #expect(late.count >= 10)
        #expect(lateBefore.count <= 2)
    }

    /// With the device's state, a persona's log holds the same launches and fetches, and a phone
    /// as its routine lives: on the charger most nights (some forgotten), on Wi-Fi and off it,
    /// a battery level that stays a percent and falls off the charger, Low Power Mode on some
    /// evenings and off once plugged in.
    @Test(arguments: Persona.all)
    func deviceStateFollowsThePersonasRoutine(_ persona: Persona) throws {
        let days = 28
        let plain = SyntheticLog(persona: persona, days: days, timeZone: zone, seed: 3).events()
        let log = SyntheticLog(persona: persona, days: days, timeZone: zone, seed: 3, deviceState: true).events()
        #expect(log.filter { !$0.kind.isDeviceState } == plain)
        #expect(log == SyntheticLog(persona: persona, days: days, timeZone: zone, seed: 3, deviceState: true).events())
        let state = log.filter(\.kind.isDeviceState)
        for event in state {
            guard case .success(let value) = EventLimits.value(event.value, for: event.kind) else {
                Issue.record("\(event) has a value the store refuses")
                continue
            }
            #expect(value == event.value)
        }
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.time <= $1.time })
        let plugs = state.filter { $0.kind == .powerConnected }.count
        #expect(plugs >= days - days / 3 && plugs <= days + days / 3 + 1, "\(plugs) charges in \(days) days")
        let networks = Set(state.compactMap(\.networkState))
        #expect(networks == [.unmetered, .metered])
        let levels = state.compactMap(\.batteryPercent)
        #expect(levels.count > days * 8 && levels.contains(100) && levels.contains { $0 < 50 })
        // Low Power Mode on some evenings, each ended by the next charge.
        let lowPower = state.filter { $0.kind == .lowPowerOn || $0.kind == .lowPowerOff }
        let on = lowPower.filter { $0.kind == .lowPowerOn }.count
        #expect(on >= 1 && on <= days / 2, "\(on) evenings in Low Power Mode")
        for (index, event) in lowPower.enumerated() {
            #expect(event.kind == (index % 2 == 0 ? .lowPowerOn : .lowPowerOff))
        }
        // While on the charger the battery only rises; off it, it only falls.
        var onPower = true
        var last: Int?
        for event in state {
            switch event.kind {
            case .powerConnected: onPower = true
            case .powerDisconnected: onPower = false; last = nil
            case .battery:
                if let last, !onPower { #expect(event.batteryPercent! <= last, "\(event)") }
                last = event.batteryPercent
            default: break
            }
        }
    }
}

extension Persona: CustomTestStringConvertible {
    public var testDescription: String { name }
}
