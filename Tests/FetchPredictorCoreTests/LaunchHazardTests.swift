import Foundation
import Testing

@testable import FetchPredictorCore

/// The launch hazard learns, from a device's history, how the time since an app's last launch
/// changes the chance of its next cold launch, and keeps what it learned through the store's cache.
struct LaunchHazardTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Six weeks of a user who opens a chat app at a scattered time of the morning and of the
    /// evening and, after two launches in three, comes back 40 to 55 minutes later; a news app
    /// opened once a day at a scattered hour.
    func history(seed: UInt64) -> [Event] {
        var random = SeededGenerator(seed: seed)
        var events: [Event] = []
        for day in 0..<42 {
            let midnight = DateFields(year: 2024, month: 3, day: 1).instant(in: zone).0 + Milliseconds(day) * 86_400_000
            for hour in [8.0, 19.0] {
                let first = midnight + Milliseconds((hour + 2 * random.unit()) * 3_600_000)
                events.append(.launch("chat", at: first))
                if random.unit() < 2.0 / 3 {
                    events.append(.launch("chat", at: first + Milliseconds((40 + 15 * random.unit()) * 60_000)))
                }
            }
            events.append(.launch("news", at: midnight + Milliseconds((7 + 14 * random.unit()) * 3_600_000)))
        }
        return events.sorted { $0.time < $1.time }
    }

    func learned(seed: UInt64) throws -> DeviceModel {
        let configuration = PredictorConfiguration()
        var predictor = Predictor(configuration: configuration)
        predictor.setTimeZone(zone, device: "phone")
        for event in history(seed: seed) { try predictor.observe(event, device: "phone") }
        return predictor.devices["phone"]!
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theReturnWithinTheHourIsLearned(seed: UInt64) throws {
        let device = try learned(seed: seed)
        let hazard = device.hazard
        #expect(hazard.isTrained)
        // 30 to 60 minutes after a launch the next is far likelier than one to eight hours
        // after, when this user never comes back.
        let soon = hazard.sinceFactors[LaunchHazard.sinceBin(minutes: 45)]
        for minutes in [90, 180, 300] {
            #expect(soon > 3 * hazard.sinceFactors[LaunchHazard.sinceBin(minutes: minutes)], "\(hazard.sinceFactors)")
        }
        // The chat app comes back within the hour more than the device's apps do on the whole.
        let chat = device.apps["chat"]!, news = device.apps["news"]!
        let soonBin = LaunchHazard.sinceBin(minutes: 45)
        #expect(chat.sinceMultiplier(bin: soonBin) > news.sinceMultiplier(bin: soonBin))
    }

    /// The fitted chances account for the cold launches counted: the model's expected launches
    /// over the exposure it counted are the launches seen, within what the prior holds back.
    @Test(arguments: [1, 2] as [UInt64])
    func theFitAccountsForTheLaunchesCounted(seed: UInt64) throws {
        var hazard = try learned(seed: seed).hazard
        hazard.fit()
        var expected = 0.0
        for profileBin in 0..<LaunchHazard.profileBins {
            for sinceBin in 0..<LaunchHazard.sinceBins {
                let cell = profileBin * LaunchHazard.sinceBins + sinceBin
                expected += hazard.exposure[cell] * hazard.profileRates[profileBin] * hazard.sinceFactors[sinceBin]
            }
        }
        let counted = hazard.launches.reduce(0, +)
        #expect(counted > 40)
        #expect(abs(expected - counted) / counted < 0.1, "expected \(expected), counted \(counted)")
        // Every minute counted lies after the cold-launch gap and before now: no more minutes
        // than six weeks of two apps.
        #expect(hazard.exposure.reduce(0, +) < 2 * 42 * 1440)
    }

    /// An app its profile expected, left unopened for days, is in a quiet spell: a plan from the
    /// hazard expects far fewer of its launches than the hazard alone would.
    @Test func aQuietSpellLowersTheHazardsExpectations() throws {
        let configuration = PredictorConfiguration()
        var predictor = Predictor(configuration: configuration)
        predictor.setTimeZone(zone, device: "phone")
        // The history, then four days on which only the news app is opened.
        let events = history(seed: 1)
        for event in events { try predictor.observe(event, device: "phone") }
        let end = events.last!.time
        for day in 1...4 {
            try predictor.observe(.launch("news", at: end + Milliseconds(day) * 86_400_000), device: "phone")
        }
        let device = predictor.devices["phone"]!
        let profiles = device.planningProfiles(app: "chat", configuration)
        let clock = HorizonClock(start: end + 4 * 86_400_000 + 60_000, minutes: 24 * 60, zone: zone)
        func expected(discounting: Bool) -> Double {
            Planner(device: device, clock: clock, configuration).learnedLaunches(
                model: device.apps["chat"]!, startIndex: 0, endIndex: clock.count, profiles: profiles,
                notColdUntil: 0, discountsQuietSpells: discounting
            ).total.reduce(0, +)
        }
        #expect(device.hazard.isTrained)
        #expect(expected(discounting: false) > 0.2)
        #expect(expected(discounting: true) < 0.5 * expected(discounting: false))
    }

    @Test func whatWasLearnedSurvivesTheCache() throws {
        let device = try learned(seed: 1)
        let apps = try device.apps.mapValues { try #require(AppModel(encoded: $0.encoded())) }
        let read = try #require(
            DeviceModel(encodedHeader: device.encodedHeader(), apps: apps, timeZone: device.timeZone))
        #expect(read.hazard == device.hazard)
        for (name, model) in device.apps {
            #expect(apps[name]!.hazardBins == model.hazardBins)
            #expect(apps[name]!.sinceLaunches == model.sinceLaunches)
            #expect(apps[name]!.sinceExpected == model.sinceExpected)
            #expect(apps[name]!.exposureCountedUntil == model.exposureCountedUntil)
        }
    }

    /// With the hazard on, a plan is made from it, and it wakes the chat app within the hour
    /// after a launch, when it so often comes back.
    @Test func aPlanFromTheHazardWaitsForTheReturn() throws {
        var configuration = PredictorConfiguration()
        configuration.budget = 0.8
        var predictor = Predictor(configuration: configuration)
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        let events = history(seed: 1)
        for event in events { try predictor.observe(event, device: "phone") }
        let last = try #require(events.last { $0.app == "chat" })
        let wake = try #require(
            predictor.schedule(
                from: Date(milliseconds: last.time), to: Date(milliseconds: last.time + 3_600_000), device: "phone"
            )
            .wakes.flatMap(\.apps).first { $0.app == "chat" })
        let minutes = (wake.plannedTime.milliseconds - last.time) / 60_000
        #expect(minutes >= 10 && minutes <= 55, "woken \(minutes) minutes after the launch")
    }
}
