import FetchPredictor
import FetchPredictorPostgres
import FetchPredictorTestSupport
import Foundation
import Testing

/// What every store does, run against each backend: the SQLite store and PostgreSQL.
@Suite struct StoreContractTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    let base: Milliseconds = 1_800_000_000_000

    @Test(arguments: Backend.available)
    func aBatchIsStoredOnceAndEachWriteBumpsTheVersion(backend: Backend) async throws {
        let store = try backend.makeStore()
        let events: [Event] = [
            .launch("alpha", at: base + 2_000),
            Event(kind: .fetch, app: "alpha", time: base, result: .noData, duration: 12.5),
            .launch("Zeta", at: base),
            .launch("alpha", at: base),
            Event(kind: .unlock, app: "", time: base + 1_000),
            Event(kind: .notification, app: "Ärger", time: base + 3_000, utcOffset: 3600),
        ]
        let first = try await store.record(events, device: "phone")
        #expect(first.stored == 6 && first.duplicates == 0 && first.version == 1)
        let again = try await store.record(
            Array(events.prefix(2)) + [.launch("alpha", at: base + 5_000)], device: "phone")
        #expect(again.stored == 1 && again.duplicates == 2 && again.version == 2)
        let nothingNew = try await store.record(Array(events.prefix(1)), device: "phone")
        #expect(nothingNew.stored == 0 && nothingNew.version == 2)
        // Launches and fetches, by time, a launch before a fetch, apps in byte order.
        let learned = try await store.learningEvents(device: "phone", after: .min).map {
            "\($0.kind.rawValue) \($0.app) \($0.time - base)"
        }
        #expect(
            learned == ["launch Zeta 0", "launch alpha 0", "fetch alpha 0", "launch alpha 2000", "launch alpha 5000"])
        let fetch = try await store.learningEvents(device: "phone", after: base - 1, through: base).last {
            $0.kind == .fetch
        }
        #expect(fetch?.result == .noData && fetch?.duration == 12.5)
        await #expect(try store.hasEvents(device: "phone", after: base + 2_000))
        await #expect(try !store.hasEvents(device: "phone", after: base + 5_000))
        await #expect(try !store.hasEvents(device: "phone", after: base, through: base + 1_999))
        // Counted as learned, and no further than asked.
        await #expect(try store.eventCount(device: "phone", after: .min, through: .max, atMost: 100) == learned.count)
        await #expect(try store.eventCount(device: "phone", after: .min, through: .max, atMost: 3) == 3)
        await #expect(try store.eventCount(device: "phone", after: base, through: .max, atMost: 100) == 2)
        await #expect(try store.eventCount(device: "phone", after: base, through: base + 1_999, atMost: 100) == 0)
        await #expect(try store.eventCount(device: "phone", after: .min, through: .max, atMost: 0) == 0)
        await #expect(try store.eventCount(device: "tablet", after: .min, through: .max, atMost: 100) == 0)
        await #expect(try store.devices() == ["phone"])
    }

    @Test(arguments: Backend.available)
    func aBatchWithAnInvalidEventStoresNothing(backend: Backend) async throws {
        let store = try backend.makeStore()
        let events: [Event] = [.launch("ok", at: base), Event(kind: .fetch, app: "no result", time: base)]
        await #expect {
            try await store.record(events, device: "phone")
        } throws: { error in
            guard case InvalidFieldError.invalidInBatch(1, "result", _) = error else { return false }
            return true
        }
        await #expect(try !store.hasDevice("phone"))
        await #expect(try store.apps().isEmpty)
        // Nor does an empty batch make the device, and a wall clock 19 hours off UTC is refused.
        #expect(try await store.record([], device: "phone").stored == 0)
        await #expect(try !store.hasDevice("phone"))
        await #expect(throws: InvalidFieldError.self) {
            try await store.record([Event(kind: .launch, app: "a", time: base, utcOffset: 19 * 3600)], device: "phone")
        }
        await #expect(throws: InvalidFieldError.self) {
            try await store.record(
                [Event(kind: .fetch, app: "a", time: base, result: .newData, bytes: -1)], device: "phone")
        }
        await #expect(try !store.hasDevice("phone"))
    }

    @Test(arguments: Backend.available)
    func settingsIntervalsAndZonesAreKept(backend: Backend) async throws {
        let store = try backend.makeStore()
        await #expect(try store.defaultInterval() == .never)
        await #expect(try store.timeZone(device: "phone") == nil)
        try await store.setTimeZone(zone, device: "phone")
        await #expect(try store.timeZone(device: "phone") == zone)
        // A device made with its zone starts at version 0, as one made by its first events.
        await #expect(try store.planningSettings(device: "phone").version == 0)
        // The same zone again changes nothing; another moves the version on, for every process.
        let version = try await store.planningSettings(device: "phone").version
        try await store.setTimeZone(zone, device: "phone")
        await #expect(try store.planningSettings(device: "phone").version == version)
        try await store.setTimeZone(TimeZone(identifier: "Asia/Tokyo")!, device: "phone")
        await #expect(try store.planningSettings(device: "phone").version == version + 1)
        try await store.setTimeZone(zone, device: "phone")
        try await store.setDefaultInterval(.minimum)
        try await store.setDefaultInterval(.seconds(3600), device: "phone")
        await #expect(try store.defaultInterval(device: "phone") == .seconds(3600))
        await #expect(try store.defaultInterval(device: "tablet") == .minimum)
        try await store.setInterval(.seconds(900), app: "news", device: "phone")
        try await store.setEnabled(false, app: "mail", device: "phone")
        try await store.createApp("maps", device: "phone")
        await #expect(try store.settings(app: "news", device: "phone").interval == .seconds(900))
        await #expect(
            try store.settings(app: "unknown", device: "phone")
                == AppSettings(device: "phone", app: "unknown", interval: nil, enabled: true))
        await #expect(try store.appSettings(device: "phone").map(\.app) == ["mail", "maps", "news"])
        let planning = try await store.planningSettings(device: "phone")
        #expect(planning.exists && planning.timeZone == zone && planning.defaultInterval == .seconds(3600))
        #expect(planning.policies.keys.sorted() == ["mail", "news"])
        await #expect(try !store.planningSettings(device: "tablet").exists)
        try await store.setDefaultInterval(nil, device: "phone")
        await #expect(try store.defaultInterval(device: "phone") == .minimum)
        try await store.createDevice("tablet")
        await #expect(try store.devices() == ["phone", "tablet"])
        await #expect(throws: InvalidFieldError.self) {
            try await store.setInterval(.minimum, app: "", device: "phone")
        }
    }

    @Test(arguments: Backend.available)
    func appsSummarizeTheirEventsAsOfATime(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setDefaultInterval(.minimum)
        try await store.record(
            [
                .launch("news", at: base), .launch("news", at: base + 60_000), .launch("mail", at: base + 30_000),
                Event(kind: .fetch, app: "mail", time: base + 90_000, result: .newData),
                Event(kind: .fetch, app: "mail", time: base + 95_000, result: .failed),
            ], device: "phone")
        try await store.setEnabled(false, app: "quiet", device: "phone")
        let apps = try await store.apps(device: "phone")
        #expect(apps.map(\.app) == ["news", "mail", "quiet"])
        #expect(apps[0].launches == 2 && apps[0].interval == .minimum && apps[0].intervalIsDefault)
        #expect(
            apps[1].fetchesNewData == 1 && apps[1].fetchesFailed == 1
                && apps[1].lastSeen == Date(milliseconds: base + 95_000))
        #expect(!apps[2].enabled && apps[2].launches == 0)
        // As of mail's first launch, it is not known yet: only the events before the instant are.
        let atLaunch = try await store.apps(device: "phone", asOf: Date(milliseconds: base + 30_000))
        #expect(atLaunch.map(\.app) == ["news", "quiet"])
        let earlier = try await store.apps(device: "phone", asOf: Date(milliseconds: base + 30_001))
        #expect(earlier.map(\.app) == ["mail", "news", "quiet"] || earlier.map(\.app) == ["news", "mail", "quiet"])
        #expect(earlier.first { $0.app == "news" }?.launches == 1)
        #expect(earlier.first { $0.app == "mail" }?.launches == 1)
        #expect(earlier.first { $0.app == "mail" }?.fetchesNewData == 0)
    }

    @Test(arguments: Backend.available)
    func keysSpeakForTheirTenantUntilRevoked(backend: Backend) async throws {
        let store = try backend.makeStore()
        let now = Date(milliseconds: base)
        let (key, info) = try await store.createKey(tenant: "acme", now: now)
        #expect(try await store.tenant(forKey: key) == "acme")
        #expect(try await store.tenant(forKey: key + "0") == nil)
        #expect(try await store.keys() == [info])
        #expect(try await store.revokeKey(id: info.id, now: now))
        #expect(try await !store.revokeKey(id: info.id, now: now))
        #expect(try await store.tenant(forKey: key) == nil)
        await #expect(throws: StoreError.self) { try await store.revokeKey(id: info.id + 100, now: now) }
        await #expect(throws: InvalidFieldError.self) { try await store.createKey(tenant: "a/b", now: now) }
    }

    /// A model is cached only when no write came after the version it was learned at, and an
    /// event older than the cache drops it.
    @Test(arguments: Backend.available)
    func aCachedModelNeverMissesAnEvent(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        try await store.record(
            (0..<20).map { .launch("news", at: base + Milliseconds($0) * 86_400_000) }, device: "phone")
        let version = try await store.planningSettings(device: "phone").version
        var model = DeviceModel(timeZone: zone)
        for event in try await store.learningEvents(device: "phone", after: .min) {
            model.observe(event, PredictorConfiguration())
        }
        let asOf = base + 19 * 86_400_000
        #expect(
            try await !store.cacheModel(model, asOf: asOf, device: "phone", configuration: "k", version: version - 1))
        await #expect(try store.cachedModel(device: "phone", configuration: "k") == nil)
        #expect(try await store.cacheModel(model, asOf: asOf, device: "phone", configuration: "k", version: version))
        let cached = try await #require(try store.cachedModel(device: "phone", configuration: "k"))
        #expect(cached.asOf == asOf && cached.model.encodedHeader() == model.encodedHeader())
        #expect(cached.model.apps.mapValues { $0.encoded() } == model.apps.mapValues { $0.encoded() })
        await #expect(try store.cachedModel(device: "phone", configuration: "other") == nil)
        // Where a learn starts, in one read: from the cache when it is as of the end or before,
        // with the events after it counted, and whether any comes after the end.
        for end in [asOf, asOf - 1, base + 3 * 86_400_000] {
            let start = try await store.learningStart(
                device: "phone", configuration: "k", through: end, counting: .atMost(.max))
            let from = end >= asOf ? asOf : Milliseconds.min
            #expect(start.cached?.asOf == (end >= asOf ? asOf : nil))
            #expect(
                try await start.pending == store.eventCount(device: "phone", after: from, through: end, atMost: .max))
            #expect(try await start.hasLaterEvents == store.hasEvents(device: "phone", after: end))
            let uncounted = try await store.learningStart(
                device: "phone", configuration: "k", through: end, counting: .atMost(nil))
            #expect(uncounted.pending == nil)
            // Counted only as far as asked for the case the end falls in: a learn as of an
            // earlier time (events after it) counts no further than its admission asks.
            let all = try await store.eventCount(device: "phone", after: from, through: end, atMost: .max)
            let split = try await store.learningStart(
                device: "phone", configuration: "k", through: end,
                counting: LearningStart.Counting(whenLatest: .max, whenLater: 2))
            #expect(split.pending == (start.hasLaterEvents ? min(2, all) : all))
        }
        try await store.record([.launch("news", at: base + 86_400_000 + 5)], device: "phone")
        await #expect(try store.cachedModel(device: "phone", configuration: "k") == nil)
        // A new event after the model's last one leaves it (it is learned on from the cache),
        // and moves the version.
        var current = try await store.planningSettings(device: "phone").version
        try await store.cacheModel(model, asOf: asOf, device: "phone", configuration: "k", version: current)
        try await store.record([.launch("news", at: asOf + 60_000)], device: "phone")
        await #expect(try store.cachedModel(device: "phone", configuration: "k")?.asOf == asOf)
        await #expect(try store.planningSettings(device: "phone").version == current + 1)
        // An import of an event older than the model drops it too, and moves the version.
        current = try await store.planningSettings(device: "phone").version
        try await store.cacheModel(model, asOf: asOf + 60_000, device: "phone", configuration: "k", version: current)
        let file = TestFiles.write("timestamp,app,event\n\(Self.iso(base + 3 * 86_400_000 + 60_000)),news,launch\n")
        _ = try await store.importFile(file, options: ImportOptions(device: "phone", timeZone: zone), now: Date())
        await #expect(try store.cachedModel(device: "phone", configuration: "k") == nil)
        await #expect(try store.planningSettings(device: "phone").version == current + 1)
    }

    /// A time as the csv format reads it.
    static func iso(_ time: Milliseconds) -> String {
        ISO8601DateFormatter().string(from: Date(milliseconds: time))
    }

    /// Erasing a device takes every trace of it, and of nothing else: events of every kind,
    /// apps and their settings, the device's settings, its cached model and its imports' records;
    /// a device made again under its name starts past the erased one's version.
    @Test(arguments: Backend.available)
    func erasingADeviceLeavesNothingOfItAndTouchesNoOther(backend: Backend) async throws {
        let store = try backend.makeStore()
        for device in ["phone", "tablet"] {
            try await store.setTimeZone(zone, device: device)
            try await store.setDefaultInterval(.minimum, device: device)
            try await store.setInterval(.seconds(3600), app: "news", device: device)
            try await store.record(
                [
                    .launch("news", at: base), Event(kind: .fetch, app: "news", time: base + 1, result: .newData),
                    Event(kind: .unlock, app: "", time: base + 2),
                    Event(kind: .notification, app: "chat", time: base + 3),
                ], device: device)
            // Files of their own: the same file is imported once.
            let file = TestFiles.write("timestamp,app,event\n2024-01-01T08:00:00Z,com.example.\(device),launch\n")
            _ = try await store.importFile(file, options: ImportOptions(device: device, timeZone: zone), now: Date())
            var model = DeviceModel(timeZone: zone)
            for event in try await store.learningEvents(device: device, after: .min) {
                model.observe(event, PredictorConfiguration())
            }
            try await store.cacheModel(
                model, asOf: base + 3, device: device, configuration: "k",
                version: try store.planningSettings(device: device).version)
        }
        let version = try await store.planningSettings(device: "phone").version
        let tabletBefore = try await store.events(device: "tablet")
        let dry = try await store.eraseDevice("phone", dryRun: true)
        await #expect(try store.hasDevice("phone"))
        let report = try await store.eraseDevice("phone", dryRun: false)
        #expect(dry == report)
        #expect(report.launches == 2 && report.fetches == 1 && report.deviceEvents == 1 && report.notifications == 1)
        await #expect(try !store.hasDevice("phone"))
        await #expect(try store.devices() == ["tablet"])
        await #expect(try store.imports().map(\.device) == ["tablet"])
        await #expect(try store.apps().allSatisfy { $0.device == "tablet" })
        await #expect(try store.cachedModel(device: "tablet", configuration: "k") != nil)
        await #expect(try store.events(device: "tablet") == tabletBefore)
        await #expect {
            try await store.eraseDevice("phone", dryRun: false)
        } throws: { error in
            guard case StoreError.unknownDevice("phone") = error else { return false }
            return true
        }
        // Made again, it starts anew, past the erased device's version.
        try await store.record([.launch("news", at: base + 10)], device: "phone")
        await #expect(try store.planningSettings(device: "phone").version > version)
        await #expect(try store.events(device: "phone").count == 1)
        await #expect(try store.settings(app: "news", device: "phone").interval == nil)
        // Both erased, no row of any device is left.
        _ = try await store.eraseDevice("phone", dryRun: false)
        _ = try await store.eraseDevice("tablet", dryRun: false)
        let leftovers = try await backend.count(
            in: store,
            sqlite: """
                SELECT (SELECT count(*) FROM launch) + (SELECT count(*) FROM fetch) + (SELECT count(*) FROM deviceEvent)
                    + (SELECT count(*) FROM notification) + (SELECT count(*) FROM app) + (SELECT count(*) FROM modelCache)
                    + (SELECT count(*) FROM appModelCache) + (SELECT count(*) FROM alsoImported)
                    + (SELECT count(*) FROM importLog) + (SELECT count(*) FROM device)
                """,
            postgres: """
                SELECT (SELECT count(*) FROM event) + (SELECT count(*) FROM app) + (SELECT count(*) FROM model_cache)
                    + (SELECT count(*) FROM app_model_cache) + (SELECT count(*) FROM also_imported)
                    + (SELECT count(*) FROM import_log) + (SELECT count(*) FROM device)
                """)
        #expect(leftovers == 0)
    }

    /// A device's push budget is kept, read with its planning settings, and cleared.
    @Test(arguments: Backend.available)
    func aPushBudgetIsKeptPerDevice(backend: Backend) async throws {
        let store = try backend.makeStore()
        await #expect(try store.wakesPerHour(device: "phone") == nil)
        try await store.setWakesPerHour(2, device: "phone")
        try await store.createDevice("tablet")
        await #expect(try store.wakesPerHour(device: "phone") == 2)
        #expect(try await store.planningSettings(device: "phone").wakesPerHour == 2)
        #expect(try await store.planningSettings(device: "tablet").wakesPerHour == nil)
        try await store.setWakesPerHour(nil, device: "phone")
        #expect(try await store.planningSettings(device: "phone").wakesPerHour == nil)
    }

    /// A device's forecaster is kept, read with its planning settings, and cleared; an unknown
    /// name is refused and changes nothing, not even the rest of its change.
    @Test(arguments: Backend.available)
    func aForecasterIsKeptPerDevice(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.createDevice("tablet")
        try await store.changeDevice(DeviceSettingsChange(forecaster: .some("profile")), device: "phone")
        #expect(try await store.planningSettings(device: "phone").forecaster == "profile")
        #expect(try await store.planningSettings(device: "tablet").forecaster == nil)
        do {
            try await store.changeDevice(
                DeviceSettingsChange(wakesPerHour: .some(3), forecaster: .some("cubic")), device: "phone")
            Issue.record("an unknown forecaster was kept")
        } catch let error as StoreError {
            #expect("\(error)".contains("no forecaster 'cubic'"), "\(error)")
        }
        #expect(try await store.planningSettings(device: "phone").forecaster == "profile")
        #expect(try await store.planningSettings(device: "phone").wakesPerHour == nil)
        try await store.changeDevice(DeviceSettingsChange(forecaster: .some(nil)), device: "phone")
        #expect(try await store.planningSettings(device: "phone").forecaster == nil)
    }

    /// A listing goes page by page through a tenant's devices, in byte order, and never past
    /// them; the devices of no tenant (no '/', or one first) are a listing of their own.
    @Test(arguments: Backend.available)
    func aTenantsDevicesArePagedInByteOrder(backend: Backend) async throws {
        let store = try backend.makeStore()
        let names = [
            "acme/b", "acme/a", "acme/Z", "acme/é", "acme/a0", "acme/x/y", "acme0", "acm", "other/a", "acme", "/acme/c",
        ]
        for name in names { try await store.createDevice(name) }
        var pages: [[String]] = []
        var after: String?
        repeat {
            let page = try await store.devices(tenant: "acme", after: after, limit: 2)
            if page.isEmpty { break }
            pages.append(page)
            after = page.last
        } while true
        #expect(pages == [["acme/Z", "acme/a"], ["acme/a0", "acme/b"], ["acme/x/y", "acme/é"]])
        await #expect(try store.devices(tenant: "", after: nil, limit: 100) == ["/acme/c", "acm", "acme", "acme0"])
        await #expect(try store.devices(tenant: "other", after: nil, limit: 100) == ["other/a"])
        #expect(try await store.devices(tenant: "acme", after: "acme/é", limit: 5).isEmpty)
    }

    /// Two schedulers on one store, as two service instances on one database: what one
    /// records, the other learns before it answers.
    @Test(arguments: Backend.available)
    func aSecondSchedulerLearnsWhatTheFirstRecorded(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setTimeZone(zone, device: "phone")
        try await store.setDefaultInterval(.minimum)
        let log = SyntheticLog(persona: .commuter, days: 14, timeZone: zone, seed: 3)
        let events = log.events().filter { !$0.kind.isDeviceEvent }
        let half = events.count / 2
        let writer = FetchScheduler(store: store)
        let reader = FetchScheduler(store: store)
        try await writer.record(Array(events[..<half]), device: "phone")
        let before = try await reader.apps(device: "phone", asOf: .distantFuture)
        try await writer.record(
            Array(events[half...]) + [.launch("brand.new", at: events[half - 1].time)], device: "phone")
        let after = try await reader.apps(device: "phone", asOf: .distantFuture)
        #expect(!before.contains("brand.new") && after.contains("brand.new"))
        // The reader's next wake is the one a fresh scheduler gives from every event.
        let end = Date(milliseconds: events.last!.time + 1)
        await #expect(
            try reader.nextWake(after: end, device: "phone")
                == FetchScheduler(store: store).nextWake(after: end, device: "phone"))
    }
}
