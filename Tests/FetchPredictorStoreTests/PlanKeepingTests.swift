import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// A new process answers the next wake from the plan the store keeps (``PlanKeeping``), without
/// learning the device, and its answer is the one a fresh plan gives; every change that moves
/// a plan, another configuration and a time before the last event are planned afresh (issue 68).
struct PlanKeepingTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// A store with a device of 14 days of the commuter's apps, every app on `minimum`, and, with
    /// `budget`, a push budget of that many wakes an hour.
    func store(_ backend: Backend, budget: Int? = nil) async throws -> (store: any EventStoring, newest: Date) {
        let store = try backend.makeStore()
        try await store.setDefaultInterval(.minimum)
        let log = SyntheticLog(persona: Persona.named("commuter")!, days: 14, timeZone: zone, seed: 7)
        try await store.setTimeZone(zone, device: "phone")
        _ = try await store.record(log.events(), device: "phone")
        if let budget { try await store.setWakesPerHour(budget, device: "phone") }
        let newest = try #require(log.events().map(\.time).max())
        return (store, Date(milliseconds: newest))
    }

    /// What a process that asks once answers at `time`: the device's next wake, and each app's.
    func answers(_ store: any EventStoring, at time: Date, apps: [String], keeping: Bool) async throws
        -> [DeviceWake?]
    {
        let scheduler = FetchScheduler(store: store, cacheLag: 0, keepsPlans: keeping)
        var answers = [try await scheduler.nextWake(after: time, device: "phone")]
        for app in apps { answers.append(try await scheduler.nextWake(after: time, device: "phone", app: app)) }
        try await scheduler.plansKept()
        return answers
    }

    @Test(arguments: Backend.available, [nil, 2])
    func aNewProcessAnswersFromTheKeptPlanAsAFreshPlanWould(backend: Backend, budget: Int?) async throws {
        let (base, newest) = try await store(backend, budget: budget)
        let store = GatedStore(base, gating: "none")
        let apps = try await FetchScheduler(store: base).apps(device: "phone")
        // The first process plans and keeps; every later one, through the next 20 hours, reads.
        let start = newest.addingTimeInterval(0.001)
        _ = try await answers(store, at: start, apps: [], keeping: true)
        #expect(store.learnCount("phone") == 1)
        var woken = 0
        for step in 0..<30 {
            let time = start.addingTimeInterval(Double(step) * 2_400)
            let kept = try await answers(store, at: time, apps: apps, keeping: true)
            let fresh = try await answers(base, at: time, apps: apps, keeping: false)
            #expect(kept == fresh, "at \(time)")
            woken += kept.compactMap(\.self).count
        }
        #expect(store.learnCount("phone") == 1, "a process learned the device though its plan was kept")
        #expect(woken > 100)
    }

    @Test(arguments: Backend.available)
    func everyChangeThatMovesAPlanIsPlannedAfresh(backend: Backend) async throws {
        let (base, newest) = try await store(backend)
        let store = GatedStore(base, gating: "none")
        let apps = try await FetchScheduler(store: base).apps(device: "phone")
        var time = newest.addingTimeInterval(60)
        let changes: [(String, () async throws -> Void)] = [
            (
                "a launch",
                {
                    _ = try await base.record(
                        [Event(kind: .launch, app: apps[0], time: time.milliseconds)], device: "phone")
                }
            ),
            (
                "an app's interval",
                {
                    try await base.changeApp(
                        AppSettingsChange(interval: .seconds(7_200)), app: apps[1], device: "phone")
                }
            ),
            ("a push budget", { try await base.setWakesPerHour(1, device: "phone") }),
            ("the store's default interval", { try await base.setDefaultInterval(.seconds(3_600)) }),
        ]
        _ = try await answers(store, at: time, apps: apps, keeping: true)
        for (name, change) in changes {
            try await change()
            time = time.addingTimeInterval(600)
            let learned = store.learnCount("phone")
            let kept = try await answers(store, at: time, apps: apps, keeping: true)
            #expect(store.learnCount("phone") == learned + 1, "not planned afresh after \(name)")
            #expect(kept == (try await answers(base, at: time, apps: apps, keeping: false)), "after \(name)")
            // Kept again: the next process reads it.
            _ = try await answers(store, at: time.addingTimeInterval(1), apps: apps, keeping: true)
            #expect(store.learnCount("phone") == learned + 1, "not kept again after \(name)")
        }
    }

    @Test(arguments: Backend.available)
    func anotherConfigurationOrAnEarlierTimeIsPlannedAfresh(backend: Backend) async throws {
        let (base, newest) = try await store(backend)
        let store = GatedStore(base, gating: "none")
        let time = newest.addingTimeInterval(60)
        _ = try await answers(store, at: time, apps: [], keeping: true)
        var configuration = PredictorConfiguration()
        configuration.coalescingWindow = 1_200
        let other = FetchScheduler(store: store, configuration: configuration, cacheLag: 0, keepsPlans: true)
        let wake = try await other.nextWake(after: time, device: "phone")
        try await other.plansKept()
        #expect(store.learnCount("phone") == 2)
        #expect(
            wake
                == (try await FetchScheduler(store: base, configuration: configuration).nextWake(
                    after: time, device: "phone")))
        // As of a time before the newest event, only the events before it are read.
        let earlier = newest.addingTimeInterval(-3_600)
        let past = try await answers(store, at: earlier, apps: [], keeping: true)
        #expect(store.learnCount("phone") == 3)
        #expect(past == (try await answers(base, at: earlier, apps: [], keeping: false)))
    }

    @Test(arguments: Backend.available)
    func aStoreAnswersOnlyTheGenerationAndSettingsItKept(backend: Backend) async throws {
        let (store, newest) = try await store(backend)
        let time = newest.milliseconds + 1
        guard
            case .notKept(let generation) = try await store.keptPlanWake(
                device: "phone", settings: "s", at: time, app: nil)
        else { Issue.record("a plan held before one was kept"); return }
        let wake = DeviceWake(
            device: "phone", time: Date(milliseconds: time + 600_000),
            apps: [
                AppWake(
                    app: "mail", plannedTime: Date(milliseconds: time + 600_000), expectedLaunches: 0.5, reasons: []),
                AppWake(
                    app: "news", plannedTime: Date(milliseconds: time + 600_000), expectedLaunches: 0.25, reasons: []),
            ])
        let later = DeviceWake(
            device: "phone", time: Date(milliseconds: time + 7_200_000),
            apps: [
                AppWake(
                    app: "news", plannedTime: Date(milliseconds: time + 7_200_000), expectedLaunches: 0.75, reasons: [])
            ])
        let plan = DevicePlan(plannedAt: time - 1, end: time + 172_800_000, wakes: [wake, later], coldStart: [])
        #expect(
            try await !store.keepPlan(plan, device: "phone", settings: "s", validFrom: time, generation: generation + 1)
        )
        #expect(try await store.keepPlan(plan, device: "phone", settings: "s", validFrom: time, generation: generation))
        #expect(try await store.keptPlanWake(device: "phone", settings: "s", at: time, app: nil) == .wake(wake))
        let newsAlone = DeviceWake(device: "phone", time: wake.time, apps: [wake.apps[1]])
        #expect(try await store.keptPlanWake(device: "phone", settings: "s", at: time, app: "news") == .wake(newsAlone))
        #expect(
            try await store.keptPlanWake(device: "phone", settings: "s", at: time + 600_000, app: "news")
                == .wake(later))
        #expect(
            try await store.keptPlanWake(device: "phone", settings: "s", at: time + 600_000, app: "mail") == .wake(nil))
        #expect(
            try await store.keptPlanWake(device: "phone", settings: "t", at: time, app: nil)
                == .notKept(generation: generation))
        #expect(
            try await store.keptPlanWake(device: "phone", settings: "s", at: time - 1, app: nil)
                == .notKept(generation: generation))
        #expect(
            try await store.keptPlanWake(device: "phone", settings: "s", at: plan.replan, app: nil)
                == .notKept(generation: generation))
        try await store.setWakesPerHour(3, device: "phone")
        guard
            case .notKept(let moved) = try await store.keptPlanWake(device: "phone", settings: "s", at: time, app: nil)
        else { Issue.record("a kept plan held after a change"); return }
        #expect(moved > generation)
        _ = try await store.eraseDevice("phone", dryRun: false)
        #expect(
            try await store.keptPlanWake(device: "phone", settings: "s", at: time, app: nil) == .notKept(generation: 0))
    }
}
