import Foundation
import Testing

@testable import FetchPredictor

/// Every transition of a device's scheduling state (``DeviceScheduling``), with no store, no
/// lock and no predictor: what a query, a learn, a batch, an answer and an eviction do.
struct DeviceSchedulingTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func settings(version: Int64 = 3, zone: Bool = true, exists: Bool = true, forecaster: String? = nil)
        -> PlanningSettings
    {
        PlanningSettings(
            defaultInterval: .minimum, timeZone: zone ? self.zone : nil, exists: exists,
            policies: [:], version: version, forecaster: forecaster)
    }

    /// A state whose model of every event up to `newest` is loaded at `version`, policies set.
    func loaded(newest: Milliseconds = 1_000, version: Int64 = 3) -> DeviceScheduling {
        var state = DeviceScheduling()
        _ = state.query(asOf: newest, settings: settings(version: version))
        _ = state.learned(LoadedModel(extent: .everything(newest: newest), version: version))
        _ = state.policiesSet(from: settings(version: version))
        return state
    }

    @Test func aFirstQueryLearnsThenSetsThePoliciesThenAnswers() {
        var state = DeviceScheduling()
        #expect(
            state.query(asOf: 5_000, settings: settings())
                == .init(next: .learn(through: 5_000, version: 3, zone: zone)))
        #expect(state.model == .learning(limit: 5_000, version: 3))
        let model = LoadedModel(extent: .everything(newest: 4_000), version: 3)
        #expect(state.learned(model) == .setPolicies)
        #expect(state.policiesSet(from: settings()) == .answer)
        #expect(state.loaded == model)
        #expect(state.answered(mayStay: true) == false)
        #expect(state.loaded == model)
    }

    @Test func aLoadedModelAnswersLaterQueriesAtItsVersionWithNothingToDo() {
        var state = loaded()
        #expect(state.query(asOf: 9_000, settings: settings()) == .init(next: .answer))
        #expect(state.query(asOf: 1_000, settings: settings()) == .init(next: .answer))
    }

    @Test func otherSettingsAtTheSameVersionSetThePoliciesAgain() {
        var state = loaded()
        var other = settings()
        other.policies = ["news": AppSettings(device: "phone", app: "news", interval: .never, enabled: true)]
        #expect(state.query(asOf: 9_000, settings: other) == .init(next: .setPolicies))
        #expect(state.policiesSet(from: other) == .answer)
        #expect(state.query(asOf: 9_000, settings: other) == .init(next: .answer))
    }

    @Test func aWriteOrAnEarlierTimeIsLearnedAgain() {
        var state = loaded(newest: 1_000, version: 3)
        #expect(
            state.query(asOf: 9_000, settings: settings(version: 4))
                == .init(forgetModel: true, next: .learn(through: 9_000, version: 4, zone: zone)))
        state = loaded(newest: 1_000, version: 3)
        #expect(
            state.query(asOf: 999, settings: settings())
                == .init(forgetModel: true, next: .learn(through: 999, version: 3, zone: zone)))
        // A model of the events up to a limit (the store held later ones) serves that instant only.
        state = DeviceScheduling()
        _ = state.query(asOf: 500, settings: settings())
        _ = state.learned(LoadedModel(extent: .through(limit: 500), version: 3))
        _ = state.policiesSet(from: settings())
        #expect(state.query(asOf: 500, settings: settings()) == .init(next: .answer))
        #expect(
            state.query(asOf: 501, settings: settings())
                == .init(forgetModel: true, next: .learn(through: 501, version: 3, zone: zone)))
    }

    @Test func anotherForecasterIsLearnedAgainWithIt() {
        var state = loaded()
        #expect(
            state.query(asOf: 9_000, settings: settings(forecaster: "trees"))
                == .init(
                    forgetModel: true, forecaster: .some("trees"), next: .learn(through: 9_000, version: 3, zone: zone))
        )
        #expect(state.forecaster == "trees")
        _ = state.learned(LoadedModel(extent: .everything(newest: 1_000), version: 3))
        _ = state.policiesSet(from: settings(forecaster: "trees"))
        #expect(
            state.query(asOf: 9_000, settings: settings())
                == .init(
                    forgetModel: true, forecaster: .some(nil), next: .learn(through: 9_000, version: 3, zone: zone)))
    }

    @Test func anAbsentDeviceIsAnsweredAsEmptyAndLeavesTheTable() {
        var state = loaded()
        #expect(
            state.query(asOf: 9_000, settings: settings(exists: false))
                == .init(forgetModel: true, next: .answerAsAbsent))
        #expect(state.model == .none)
        #expect(state.release() == true)
        #expect(state.isRetired)
    }

    @Test func aDeviceWithNoZoneFailsAndKeepsWhatItHas() {
        var state = loaded()
        let before = state
        #expect(state.query(asOf: 9_000, settings: settings(zone: false)) == .init(next: .failNoTimeZone))
        #expect(state == before)
    }

    @Test func aFailedLearnLeavesNothingLoaded() {
        var state = DeviceScheduling()
        _ = state.query(asOf: 5_000, settings: settings())
        state.learnFailed()
        #expect(state.model == .none)
        #expect(state.release() == true)
    }

    @Test func aModelLearnedWhileTheDeviceWasWrittenDoesNotStay() {
        var state = DeviceScheduling()
        _ = state.query(asOf: 5_000, settings: settings())
        _ = state.learned(LoadedModel(extent: .everything(newest: 4_000), version: 3))
        _ = state.policiesSet(from: settings())
        #expect(state.answered(mayStay: false) == true)
        #expect(state.model == .none && state.policies == nil)
    }

    @Test func aBatchOfNewEventsIsLearnedIntoTheModelAndAnyOtherForgetsIt() {
        var state = loaded(newest: 1_000, version: 3)
        #expect(state.recorded(version: 4, duplicates: 0, times: [1_500, 1_200]) == .learn(newest: 1_500, version: 4))
        #expect(state.loaded == LoadedModel(extent: .everything(newest: 1_500), version: 4))
        // New apps may have come: the policies are set again.
        #expect(state.query(asOf: 2_000, settings: settings(version: 4)) == .init(next: .setPolicies))
        for (version, duplicates, times) in [(5, 0, [1_400]), (5, 1, [2_000]), (6, 0, [2_000])]
            as [(Int64, Int, [Milliseconds])]
        {
            var copy = loaded(newest: 1_500, version: 4)
            #expect(copy.recorded(version: version, duplicates: duplicates, times: times) == .forgetModel)
            #expect(copy.model == .none)
        }
        var empty = DeviceScheduling()
        #expect(empty.recorded(version: 1, duplicates: 0, times: [1]) == nil)
    }

    @Test func evictionAndErasureForgetTheModel() {
        var state = loaded()
        #expect(state.release() == false)
        state.evict()
        #expect(state.isRetired && state.loaded == nil)
        state = loaded()
        #expect(state.erased() == true)
        #expect(state.model == .none)
        #expect(state.erased() == false)
    }
}
