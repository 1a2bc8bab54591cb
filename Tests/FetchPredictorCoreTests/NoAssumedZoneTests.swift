import Foundation
import Testing

@testable import FetchPredictorCore

/// The predictor never assumes a time zone: a device without one is an error its caller handles,
/// and a device it knows nothing of has nothing planned, in any zone.
struct NoAssumedZoneTests {
    let now = Date(timeIntervalSince1970: 1_704_103_200)

    @Test func aDeviceWithAPolicyButNoZoneIsAnErrorNotAPlanInUTC() {
        // Given a device known only by an app's policy, with no time zone.
        var predictor = Predictor()
        predictor.setPolicy(AppPolicy(interval: .minimum), app: "news", device: "phone")
        let missing = PredictorError.noTimeZone(device: "phone")
        // When it is asked to plan, or to learn an event, then it throws and learns nothing.
        #expect(throws: missing) { try predictor.nextWake(after: now, device: "phone") }
        #expect(throws: missing) { try predictor.nextWake(after: now, before: nil, device: "phone") }
        #expect(throws: missing) { try predictor.nextWake(after: now, device: "phone", app: "news") }
        #expect(throws: missing) {
            try predictor.schedule(from: now, to: now.addingTimeInterval(86_400), device: "phone")
        }
        #expect(throws: missing) {
            try predictor.observe(Event(kind: .launch, app: "news", time: now.milliseconds), device: "phone")
        }
        #expect(predictor.devices["phone"] == nil)
        #expect("\(missing)".contains("phone has no time zone"))
        // Once it has a zone, the same questions are answered.
        predictor.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
        #expect(throws: Never.self) { try predictor.nextWake(after: now, device: "phone") }
        #expect(throws: Never.self) {
            try predictor.observe(Event(kind: .launch, app: "news", time: now.milliseconds), device: "phone")
        }
    }

    @Test func aDeviceThePredictorKnowsNothingOfHasNothingPlanned() throws {
        // Given a predictor that would wake every app, and a device it has never heard of.
        var predictor = Predictor()
        predictor.defaultInterval = .minimum
        // Then it has no wake and no schedule, and its apps have no history, without a zone.
        #expect(try predictor.nextWake(after: now, device: "tablet") == nil)
        #expect(try predictor.nextWake(after: now, device: "tablet", app: "news") == nil)
        let schedule = try predictor.schedule(from: now, to: now.addingTimeInterval(86_400), device: "tablet")
        #expect(schedule.wakes.isEmpty && schedule.coldStartApps.isEmpty)
        #expect(predictor.profile(app: "news", device: "tablet") == .empty)
        #expect(predictor.state(app: "news", device: "tablet", now: now) == .noHistory)
        #expect(predictor.isColdStart(app: "news", device: "tablet"))
        #expect(predictor.devices["tablet"] == nil)
    }
}
