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
}

extension Persona: CustomTestStringConvertible {
    public var testDescription: String { name }
}
