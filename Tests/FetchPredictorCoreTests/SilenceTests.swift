import Foundation
import Testing

@testable import FetchPredictorCore

/// A device, or an app, not launched for longer than the silence limit gets no wake: a phone
/// put away is not woken for ever on the habits it had.
struct SilenceTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// A predictor that saw 28 days of the commuter persona from 2024-01-01, and its last launch.
    func commuter(limit: Double? = 14 * 86_400) throws -> (Predictor, Date) {
        var configuration = PredictorConfiguration()
        configuration.silenceLimit = limit
        let predictor = try Learned.predictor(
            Persona.named("commuter")!, days: 28, zone: zone, seed: 1, configuration: configuration)
        return (predictor, Date(milliseconds: try #require(predictor.devices["phone"]?.lastLaunch)))
    }

    /// A predictor that saw the commuter's 28 days with no launch of `app` from 2024-01-27 on.
    func commuter(without app: String, limit: Double?) throws -> Predictor {
        var configuration = PredictorConfiguration()
        configuration.silenceLimit = limit
        var predictor = Predictor(configuration: configuration)
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        let log = SyntheticLog(
            persona: Persona.named("commuter")!, start: DateFields(year: 2024, month: 1, day: 1), days: 28,
            timeZone: zone, seed: 1, fetchPeriodMinutes: 0)
        let cut = Learned.instant(zone, 2024, 1, 27, 0, 0).milliseconds
        for event in log.events() where !(event.app == app && event.time >= cut) {
            try predictor.observe(event, device: "phone")
        }
        return predictor
    }

    @Test func aDeviceUnusedLongerThanTheLimitGetsNoWakeAndSaysSinceWhen() throws {
        var (silent, lastLaunch) = try commuter()
        var (forever, _) = try commuter(limit: nil)
        let now = lastLaunch.addingTimeInterval(30 * 86_400)
        // Without a limit, the habits of a month before still wake the phone.
        #expect(try forever.nextWake(after: now, device: "phone") != nil)
        #expect(try silent.nextWake(after: now, device: "phone") == nil)
        #expect(try silent.nextWake(after: now, device: "phone", app: "com.example.news") == nil)
        let silence = try #require(silent.silence(device: "phone", at: now))
        #expect(silence.app == nil)
        #expect(silence.lastLaunch == lastLaunch)
        #expect(silence.since == lastLaunch.addingTimeInterval(14 * 86_400))
        let schedule = try silent.schedule(from: now, to: now.addingTimeInterval(86_400), device: "phone")
        #expect(schedule.wakes.isEmpty)
        #expect(schedule.silence == silence)
        // Still in use the minute before it goes silent.
        #expect(silent.silence(device: "phone", at: silence.since.addingTimeInterval(-60)) == nil)
    }

    /// A schedule across the moment the device goes silent stops there, where one without a
    /// limit goes on; every wake before it is the same.
    @Test func wakesStopAtTheLimitAndNotBefore() throws {
        let (silent, lastLaunch) = try commuter()
        let (forever, _) = try commuter(limit: nil)
        let limit = lastLaunch.addingTimeInterval(14 * 86_400)
        let from = limit.addingTimeInterval(-2 * 86_400)
        let to = limit.addingTimeInterval(2 * 86_400)
        let cut = try silent.schedule(from: from, to: to, device: "phone")
        let whole = try forever.schedule(from: from, to: to, device: "phone")
        #expect(whole.wakes.contains { $0.time >= limit }, "a limit that cuts nothing tests nothing")
        #expect(!cut.wakes.isEmpty)
        #expect(cut.wakes.allSatisfy { $0.time < limit })
        #expect(cut.wakes == whole.wakes.filter { $0.time < limit })
    }

    /// An app its user stopped opening goes silent while the device is in use: it has no wake,
    /// and the schedule names it; the apps still used keep theirs.
    @Test func anAppUnusedLongerThanTheLimitGetsNoWake() throws {
        let app = "com.example.news"
        // A short limit, so that the app's profile has not faded away on its own.
        var silent = try commuter(without: app, limit: 1.5 * 86_400)
        let forever = try commuter(without: app, limit: nil)
        let now = Learned.instant(zone, 2024, 1, 28, 22, 0)
        let end = now.addingTimeInterval(86_400)
        let whole = try forever.schedule(from: now, to: end, device: "phone")
        #expect(whole.wakes.flatMap(\.apps).contains { $0.app == app }, "a limit that cuts nothing tests nothing")
        let schedule = try silent.schedule(from: now, to: end, device: "phone")
        #expect(schedule.silence == nil)
        // A weekday app is silent over a weekend too, at a limit this short.
        #expect(schedule.silentApps.contains(app))
        for name in schedule.silentApps { #expect(silent.silence(device: "phone", app: name, at: now)?.app == name) }
        #expect(!schedule.wakes.flatMap(\.apps).contains { $0.app == app })
        #expect(schedule.wakes.flatMap(\.apps).contains { $0.app != app })
        #expect(try silent.nextWake(after: now, device: "phone", app: app) == nil)
        #expect(try silent.nextWake(after: now, device: "phone")?.apps.contains { $0.app == app } == false)
        let silence = try #require(silent.silence(device: "phone", app: app, at: now))
        #expect(silence.app == app)
        #expect(silence.lastLaunch.milliseconds < Learned.instant(zone, 2024, 1, 27, 0, 0).milliseconds)
    }

    /// An app's next launch brings its wakes back, as they are with no limit; the plans cached
    /// for `nextWake` are not kept past a silence that moved.
    @Test func aLaunchBringsBackTheWakesTheSilenceCut() throws {
        let app = "com.example.news"
        // A limit of a day, so that the day of the launch that ends the silence decays little.
        var (silent, lastLaunch) = try commuter(limit: 86_400)
        var (forever, _) = try commuter(limit: nil)
        let now = lastLaunch.addingTimeInterval(86_400)
        #expect(try forever.nextWake(after: now, device: "phone") != nil, "a silence that cuts nothing tests nothing")
        #expect(try silent.nextWake(after: now, device: "phone") == nil)
        let launch = now.addingTimeInterval(60)
        try silent.observe(.launch(app, at: launch.milliseconds), device: "phone")
        try forever.observe(.launch(app, at: launch.milliseconds), device: "phone")
        let wake = try silent.nextWake(after: launch, device: "phone", app: app)
        #expect(wake != nil)
        #expect(wake == (try forever.nextWake(after: launch, device: "phone", app: app)))
        // The device's next wake, planned from the plans cached while it was silent, is the one
        // of plans made anew.
        var fresh = silent
        fresh.caches.removeAll()
        let next = try silent.nextWake(after: launch, device: "phone")
        #expect(next?.apps.contains { $0.app == app } == true)
        #expect(next == (try fresh.nextWake(after: launch, device: "phone")))
    }
}
