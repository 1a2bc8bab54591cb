import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// When a kept plan holds, is due or must be made again is written once
/// (`PlannedWake.holding(at:)`, `moved(at:)`, `due(at:before:)`): what each backend's indexes
/// answer is what the rule, evaluated in Swift, says of every plan.
struct KeptWakeRuleTests {
    @Test(arguments: Backend.available)
    func eachStoreAnswersTheRuleOfThePlan(backend: Backend) async throws {
        // Given 40 devices in two scopes whose kept plans hold over spans drawn at random, some
        // held nowhere (as after a change), some with no wake.
        let store = try backend.makeStore()
        var generator = SeededGenerator(seed: 69)
        var plans: [String: PlannedWake] = [:]
        for index in 0..<40 {
            let name = "\(index % 2 == 0 ? "a" : "b")/d\(index)"
            try await store.createDevice(name)
            let plannedAt = Int64.random(in: 0...100, using: &generator)
            let validUntil =
                index % 7 == 0 ? PlannedWake.heldNowhere : plannedAt + Int64.random(in: 1...100, using: &generator)
            let wake =
                index % 5 == 0
                ? nil
                : DeviceWake(
                    device: name, time: Date(milliseconds: max(plannedAt, validUntil - 20)),
                    apps: [
                        AppWake(
                            app: "com.example.news", plannedTime: Date(milliseconds: validUntil), expectedLaunches: 0.5,
                            reasons: [])
                    ])
            let planned = PlannedWake(
                wake: wake, plannedAt: Date(milliseconds: plannedAt), validUntil: Date(milliseconds: validUntil))
            let generation = try #require(try await store.keptWake(device: name)).generation
            #expect(try await store.keepWake(planned, device: name, generation: generation))
            plans[name] = planned
        }
        for time in stride(from: Int64(-1), through: 210, by: 7) {
            let now = Date(milliseconds: time)
            let before = Date(milliseconds: time + 30)
            for scope in [nil, "a/"] as [String?] {
                let mine = plans.filter { scope == nil || $0.key.hasPrefix(scope!) }
                // Then the devices to plan are those whose plan does not hold.
                let toPlan = try await store.devicesToPlan(scope: scope, at: time, after: nil, limit: 100)
                #expect(toPlan == mine.filter { !$0.value.holds(at: now) }.keys.sorted(), "at \(time)")
                // And the due wakes are those that hold, with a wake before `before`, in order.
                let due = try await store.dueWakes(scope: scope, at: time, before: time + 30, after: nil, limit: 100)
                let expected = mine.filter { entry in
                    PlannedWake.due(at: now, before: before).allSatisfy { $0.admits(entry.value) }
                }
                #expect(
                    due.map(\.device)
                        == expected.sorted { ($0.value.wake!.time, $0.key) < ($1.value.wake!.time, $1.key) }.map(\.key))
                #expect(due.allSatisfy { $0.planned.holds(at: now) && $0.planned.wake!.time < before })
            }
            // And the plans behind are those whose time passed, the earliest not held nowhere.
            let behind = try await store.plansBehind(at: time)
            let passed = plans.values.filter { PlannedWake.moved(at: now).passed.admits($0) }
            #expect(behind.count == passed.count)
            #expect(
                behind.since
                    == passed.map(\.validUntil.milliseconds).filter { $0 > PlannedWake.heldNowhere }.min())
        }
    }
}
