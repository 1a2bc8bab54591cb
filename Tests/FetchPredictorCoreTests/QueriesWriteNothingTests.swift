import Foundation
import Testing

@testable import FetchPredictorCore

/// A question never changes what was learned: only events and a scheduler's commitment to a
/// wake do.
struct QueriesWriteNothingTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    @Test func nextWakeLeavesTheModelAndItsCalibrationAsTheyWere() throws {
        // Given a predictor that learned two weeks of a commuter, and carried out a day of wakes,
        // so that its calibration has forecasts bound to fetches.
        var predictor = try Learned.predictor(.commuter, days: 14, zone: zone, seed: 3)
        var now = Learned.instant(zone, 2024, 1, 15, 0)
        while let wake = try predictor.nextWake(after: now, device: "phone"),
            wake.time < Learned.instant(zone, 2024, 1, 16, 0)
        {
            predictor.commit(to: wake, device: "phone")
            for app in wake.apps {
                try predictor.observe(
                    Event(kind: .fetch, app: app.app, time: wake.time.milliseconds, result: .newData), device: "phone")
            }
            now = wake.time
        }
        let learned = try #require(predictor.devices["phone"])
        #expect(learned.calibration.forecast > 0)
        // When it is asked for its next wake, in every way.
        let wake = try #require(try predictor.nextWake(after: now, device: "phone"))
        #expect(try predictor.nextWake(after: now, before: wake.time.addingTimeInterval(60), device: "phone") == wake)
        _ = try predictor.nextWake(after: now, device: "phone", app: "com.example.news")
        _ = try predictor.schedule(from: now, to: now.addingTimeInterval(86_400), device: "phone")
        // Then its model is the same, to the forecasts it waits to bind, and encodes the same.
        #expect(predictor.devices["phone"] == learned)
        #expect(predictor.devices["phone"]?.calibration == learned.calibration)
        #expect(predictor.devices["phone"]?.encodedHeader() == learned.encodedHeader())
        // And committing to the wake is what records its forecasts.
        predictor.commit(to: wake, device: "phone")
        #expect(predictor.devices["phone"]?.calibration != learned.calibration)
    }
}
