import FetchPredictorTestSupport
import Foundation
import GRDB
import Testing

@testable import FetchPredictor

struct FetchSchedulerTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// A store on disk holding 21 days of the commuter, every app on `minimum`.
    func commuterStore() throws -> EventStore {
        let store = try EventStore(path: TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path)
        let log = SyntheticLog(persona: .commuter, days: 21, timeZone: zone, seed: 4)
        let path = TestFiles.write(EventLogWriter.csv(log.events()))
        _ = try store.importFile(path, options: ImportOptions(device: "phone", timeZone: zone), now: now)
        try store.setDefaultInterval(.minimum)
        return store
    }

    @Test func scheduleMatchesThePurePredictor() async throws {
        let store = try commuterStore()
        let scheduler = FetchScheduler(store: store)
        var predictor = Predictor()
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        for event in try await store.events(device: "phone") { try predictor.observe(event, device: "phone") }
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        let expected = try predictor.plannedSchedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        let actual = try await scheduler.schedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        #expect(actual == expected)
        #expect(actual.wakes.count >= 4)
    }

    /// A next wake asked again while it holds is answered from the plan the scheduler keeps in
    /// memory: always what a fresh scheduler answers, through settings and events between.
    @Test func theWakeKeptInMemoryIsAFreshSchedulersAnswer() async throws {
        let store = try commuterStore()
        let scheduler = FetchScheduler(store: store)
        func fresh(_ time: Date) async throws -> DeviceWake? {
            try await FetchScheduler(store: store).nextWake(after: time, device: "phone")
        }
        let start = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        let first = try #require(try await scheduler.nextWake(after: start, device: "phone"))
        let before = start.addingTimeInterval(first.time.timeIntervalSince(start) / 2)
        await #expect(try scheduler.nextWake(after: before, device: "phone") == fresh(before))
        await #expect(try scheduler.nextWake(after: before, device: "phone") == first)
        // Fetch off for the wake's first app: that app is not in the answer any more
        let app = try #require(first.apps.first).app
        _ = try await store.changeApp(AppSettingsChange(enabled: false), app: app, device: "phone")
        let off = try await scheduler.nextWake(after: before, device: "phone")
        #expect(off == (try await fresh(before)))
        #expect(off?.apps.contains { $0.app == app } != true)
        // A launch recorded: planned again from it
        try await scheduler.recordLaunch("com.example.new", at: before, device: "phone")
        let after = before.addingTimeInterval(60)
        await #expect(try scheduler.nextWake(after: after, device: "phone") == fresh(after))
        // And past the wake it gave: the next one
        let next = try #require(try await scheduler.nextWake(after: after, device: "phone"))
        await #expect(try scheduler.nextWake(after: next.time, device: "phone") == fresh(next.time))
    }

    /// One plan answers every question (issue 56): an app's next wake is the first wake of the
    /// device's plan in force that fetches for it, at the device wake's time, with a push budget
    /// (which drops and moves wakes) and without; none when the plan has none for it.
    @Test func anAppsNextWakeIsItsWakeInTheDevicesPlan() async throws {
        let store = try commuterStore()
        let start = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22, hour: 5).instant(in: zone).0)
        for budget in [nil, 1] {
            try await store.setWakesPerHour(budget, device: "phone")
            let scheduler = FetchScheduler(store: store)
            let plan = try await scheduler.schedule(from: start, to: start.addingTimeInterval(86_400), device: "phone")
            let apps = try await scheduler.apps(device: "phone", asOf: start)
            #expect(apps.count >= 4)
            var answered = 0
            for app in apps {
                let inPlan = plan.wakes.first { $0.apps.contains { $0.app == app } }
                let asked = try await FetchScheduler(store: store).nextWake(after: start, device: "phone", app: app)
                #expect(asked?.time == inPlan?.time, "\(app) with a budget of \(budget.map(String.init) ?? "none")")
                #expect(asked?.apps == inPlan.map { wake in wake.apps.filter { $0.app == app } }, "\(app)")
                if asked != nil { answered += 1 }
            }
            #expect(answered > 0)
        }
    }

    /// A device's own forecaster plans it, whatever the scheduler's; set, it replaces the model
    /// learned for the one before (a model of other inputs), also in the store's cache, and
    /// cleared, the scheduler's plans it again.
    @Test func aDevicesOwnForecasterPlansIt() async throws {
        let store = try commuterStore()
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        func expected(_ forecaster: any LaunchForecaster) async throws -> Schedule {
            var predictor = Predictor(forecaster: forecaster)
            predictor.setTimeZone(zone, device: "phone")
            predictor.defaultInterval = .minimum
            for event in try await store.events(device: "phone") { try predictor.observe(event, device: "phone") }
            return try predictor.plannedSchedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        }
        let scheduler = FetchScheduler(store: store)
        func asked() async throws -> Schedule {
            try await scheduler.schedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        }
        let hazard = try await expected(HazardForecaster()), profile = try await expected(ProfileForecaster())
        #expect(hazard != profile)
        #expect(try await asked() == hazard)
        try await store.changeDevice(DeviceSettingsChange(forecaster: .some("profile")), device: "phone")
        #expect(try await asked() == profile)
        #expect(
            try await FetchScheduler(store: store).schedule(
                from: from, to: from.addingTimeInterval(86_400), device: "phone") == profile)
        let keys = try await store.read { db in try String.fetchAll(db, sql: "SELECT configuration FROM modelCache") }
        #expect(keys == [ProfileForecaster().learningKey(PredictorConfiguration())])
        try await store.changeDevice(DeviceSettingsChange(forecaster: .some(nil)), device: "phone")
        #expect(try await asked() == hazard)
    }

    @Test func learnedModelIsCachedAndOnlyNewEventsAreLearned() async throws {
        let store = try commuterStore()
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        let first = try await FetchScheduler(store: store).schedule(
            from: from, to: from.addingTimeInterval(86_400), device: "phone")
        let cached = try #require(
            try await store.read { db in try Int64.fetchOne(db, sql: "SELECT asOf FROM modelCache") })
        // Cached as it was before its newest events, cacheLag of them unless some share an instant.
        let learned = try await store.events(device: "phone").filter(\.kind.isLearnedFromStore)
        let past = learned.filter { $0.time > cached }.count
        #expect(past > 0 && past <= FetchScheduler.defaultCacheLag)
        // A second scheduler starts from the cache and gives the same answer.
        let second = try await FetchScheduler(store: store).schedule(
            from: from, to: from.addingTimeInterval(86_400), device: "phone")
        #expect(second == first)
        // An event older than the cache drops it; the next scheduler learns again and sees it.
        try await store.record(.launch("com.example.news", at: cached - 86_400_000), device: "phone")
        await #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM modelCache") } == 0)
        _ = try await FetchScheduler(store: store).schedule(
            from: from, to: from.addingTimeInterval(3600), device: "phone")
        await #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM modelCache") } == 1)
    }

    /// With no lag (a command of the CLI), the cache is as of the newest event, and a query of one
    /// app reads the model from it, learning no event.
    @Test func withNoLagTheCacheIsAsOfTheNewestEvent() async throws {
        let store = GatedStore(try commuterStore(), gating: "none")
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        _ = try await FetchScheduler(store: store, cacheLag: 0).nextWake(after: from, device: "phone")
        let learned = try await store.events(device: "phone").filter(\.kind.isLearnedFromStore)
        let cache = try #require(
            try await store.cachedModel(
                device: "phone", configuration: HazardForecaster().learningKey(PredictorConfiguration())))
        #expect(cache.asOf == learned.last?.time)
        let app = try #require(learned.last).app
        let read = store.eventsRead("phone")
        let wake = try await FetchScheduler(store: store, cacheLag: 0).nextWake(after: from, device: "phone", app: app)
        #expect(store.eventsRead("phone") == read, "the model came from the cache, with no event to learn")
        let fresh = try await FetchScheduler(store: try commuterStore()).nextWake(
            after: from, device: "phone", app: app)
        #expect(wake == fresh)
    }

    /// A batch older than the newest event learned, but not than the cache (a device's launches
    /// sent after the fetches its server recorded, two uploads crossing), leaves the cache: the
    /// next query learns only the events after it, and answers as a predictor of every event.
    @Test func aBatchALittleOlderThanTheNewestIsLearnedFromTheCache() async throws {
        let store = GatedStore(try commuterStore(), gating: "none")
        let scheduler = FetchScheduler(store: store)
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        _ = try await scheduler.nextWake(after: from, device: "phone")
        let all = try await store.events(device: "phone").filter(\.kind.isLearnedFromStore)
        #expect(store.eventsRead("phone") == all.count)
        let newest = try #require(all.last).time
        let batch: [Event] = [
            .launch("com.example.news", at: newest - 60_000), .launch("com.example.x", at: newest - 1),
        ]
        try await scheduler.record(batch, device: "phone")
        let cache = try #require(
            try await store.cachedModel(
                device: "phone", configuration: scheduler.forecaster.learningKey(scheduler.configuration)))
        #expect(cache.asOf < newest - 60_000)
        let day = (from, from.addingTimeInterval(86_400))
        let answer = try await scheduler.schedule(from: day.0, to: day.1, device: "phone")
        // Learned again from the cache: the events after it and the batch, not every event.
        let read = store.eventsRead("phone") - all.count
        #expect(read == all.filter { $0.time > cache.asOf }.count + batch.count)
        #expect(read < 2 * FetchScheduler.defaultCacheLag)
        var predictor = Predictor()
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        for event in try await store.events(device: "phone") { try predictor.observe(event, device: "phone") }
        #expect(answer == (try predictor.plannedSchedule(from: day.0, to: day.1, device: "phone")))
    }

    /// The cache is kept only where every event of an instant is learned: several events at the
    /// instant where a learn would keep it move it on to the next instant, and a model learned
    /// from the cache is the one learned from every event, byte for byte.
    @Test func theCacheIsKeptBetweenInstantsNeverWithinOne() async throws {
        let store = try EventStore(path: TestFiles.scratchFolder().appendingPathComponent("events.sqlite").path)
        let start = DateFields(year: 2024, month: 1, day: 1).instant(in: zone).0
        // 20 days, three times a day three apps opened at the same instant: 180 events, and the
        // cache's place, 64 before the newest, falls inside an instant.
        var events: [Event] = []
        for day in 0..<20 {
            for hour in [8, 12, 19] {
                let time = start + Milliseconds(day * 86_400_000 + hour * 3_600_000)
                events += ["a", "b", "c"].map { Event.launch("com.example.\($0)", at: time) }
            }
        }
        try await store.record(events, device: "phone")
        try await store.setTimeZone(zone, device: "phone")
        let scheduler = FetchScheduler(store: store)
        let end = Date(milliseconds: start + 20 * 86_400_000)
        _ = try await scheduler.nextWake(after: end, device: "phone")
        let cache = try #require(
            try store.cachedModel(
                device: "phone", configuration: scheduler.forecaster.learningKey(scheduler.configuration)))
        let past = events.filter { $0.time > cache.asOf }.count
        #expect(past % 3 == 0 && past > 0 && past <= FetchScheduler.defaultCacheLag)
        // A launch older than the newest: learned again, from the cache
        try await scheduler.record([.launch("com.example.a", at: events.last!.time - 1)], device: "phone")
        let model = try await scheduler.withDevice("phone", asOf: end) { $0.devices["phone"] }
        var predictor = Predictor()
        predictor.setTimeZone(zone, device: "phone")
        for event in try await store.events(device: "phone") { try predictor.observe(event, device: "phone") }
        let expected = try #require(predictor.devices["phone"])
        #expect(model?.encodedHeader() == expected.encodedHeader())
        #expect(model?.apps.mapValues { $0.encoded() } == expected.apps.mapValues { $0.encoded() })
    }

    /// A model is learned with the launch hazard only when the forecaster plans from it, and
    /// the cache keeps models learned with and without it apart.
    @Test func aModelCachedWithoutTheHazardIsNotPlannedWithIt() async throws {
        let store = try commuterStore()
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        let off = ProfileForecaster()
        let without = try await FetchScheduler(store: store, forecaster: off).schedule(
            from: from, to: from.addingTimeInterval(86_400), device: "phone")
        let configuration = PredictorConfiguration()
        #expect(Predictor().forecaster.inputs.contains(.launchHazard))
        var predictor = Predictor(configuration: configuration)
        predictor.setTimeZone(zone, device: "phone")
        predictor.defaultInterval = .minimum
        for event in try await store.events(device: "phone") { try predictor.observe(event, device: "phone") }
        #expect(predictor.devices["phone"]?.hazard.isTrained == true)
        let expected = try predictor.plannedSchedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        // The hazard changes this plan: else the test could not tell the two models apart.
        #expect(expected != without)
        // A return is a reason only within the hours after a launch, not a day later.
        for wake in expected.wakes.flatMap(\.apps) {
            for case .returning(let minutes, _) in wake.reasons { #expect(minutes < 4 * 60) }
        }
        let with = try await FetchScheduler(store: store, configuration: configuration).schedule(
            from: from, to: from.addingTimeInterval(86_400), device: "phone")
        #expect(with == expected)
        // Learned without the hazard, a model has none.
        var plain = Predictor(forecaster: off)
        plain.setTimeZone(zone, device: "phone")
        for event in try await store.events(device: "phone") { try plain.observe(event, device: "phone") }
        #expect(plain.devices["phone"]?.hazard.isTrained == false)
    }

    /// Asked for a wake before a limit, the scheduler gives the next wake when it comes by then,
    /// and nothing when it does not.
    @Test func aWakeBeforeALimitIsTheNextWakeOrNone() async throws {
        let store = try commuterStore()
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        let next = try #require(try await FetchScheduler(store: store).nextWake(after: from, device: "phone"))
        let scheduler = FetchScheduler(store: store)
        #expect(try await scheduler.nextWake(after: from, before: next.time, device: "phone") == nil)
        #expect(
            try await scheduler.nextWake(after: from, before: next.time.addingTimeInterval(60), device: "phone") == next
        )
    }

    @Test func schedulerLoopRecordsAndAsksAgain() async throws {
        let store = try commuterStore()
        let scheduler = FetchScheduler(store: store)
        var clock = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        var fetched: [String: Date] = [:]
        for _ in 0..<10 {
            guard let wake = try await scheduler.nextWake(after: clock, device: "phone") else { break }
            #expect(wake.time > clock)
            clock = wake.time
            for app in wake.apps {
                if let last = fetched[app.app] { #expect(clock.timeIntervalSince(last) >= 15 * 60) }
                try await scheduler.recordFetch(app.app, at: clock, result: .newData, duration: 2, device: "phone")
                fetched[app.app] = clock
            }
            // The next question comes when the fetches end: as of their start they are not known.
            clock = clock.addingTimeInterval(2)
        }
        #expect(fetched.count >= 3)
        let summary = try await store.apps(device: "phone")
        #expect(summary.reduce(0) { $0 + $1.fetchesNewData } > 0)
    }

    @Test func neverAndDisabledAppsAreNotWoken() async throws {
        let store = try commuterStore()
        try await store.setInterval(.never, app: "com.example.news", device: "phone")
        try await store.setEnabled(false, app: "com.example.chat", device: "phone")
        let from = Date(milliseconds: DateFields(year: 2024, month: 1, day: 22).instant(in: zone).0)
        let schedule = try await FetchScheduler(store: store).schedule(
            from: from, to: from.addingTimeInterval(3 * 86_400), device: "phone")
        let apps = Set(schedule.wakes.flatMap(\.apps).map(\.app))
        #expect(!apps.contains("com.example.news"))
        #expect(!apps.contains("com.example.chat"))
        #expect(apps.contains("com.example.mail"))
    }
}
