import Foundation
import Testing

@testable import FetchPredictorCore

/// The calibration learned from past wakes scales what a wake forecasts, not which wakes are
/// made: learned from the wakes a budget made, it would change which wakes that budget makes,
/// and a higher budget could make fewer (issue 72: on the Lyon log 282 fetches at 0.905 and 200
/// at 0.91).
struct CalibrationChoiceTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    @Test(arguments: [0.2, 3.0])
    func theCalibrationScalesTheForecastsAndMovesNoWake(factor: Double) throws {
        let learned = try Learned.predictor(.commuter, days: 21, zone: zone, seed: 5)
        var device = try #require(learned.devices["phone"])
        #expect(device.calibration.correction == 1, "nothing was planned yet, so nothing was calibrated")
        // A calibration that says the forecasts came true `factor` times as often as forecast.
        let forecast = 50.0
        device.calibration.forecast = forecast
        device.calibration.served =
            factor * (forecast + ForecastCalibration.priorStrength)
            - ForecastCalibration.priorStrength
        let correction = device.calibration.correction
        #expect(abs(correction - factor) < 1e-9)
        var calibrated = Predictor(configuration: learned.configuration, devices: ["phone": device])
        calibrated.defaultInterval = learned.defaultInterval
        let from = Learned.instant(zone, 2024, 1, 22, 0)
        let plain = try learned.schedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        let scaled = try calibrated.schedule(from: from, to: from.addingTimeInterval(86_400), device: "phone")
        let wakes = plain.wakes.flatMap { wake in wake.apps.map { ($0.app, $0.plannedTime) } }
        #expect(wakes.count > 10)
        #expect(
            scaled.wakes.flatMap { wake in wake.apps.map { ($0.app, $0.plannedTime) } }.elementsEqual(wakes, by: ==))
        for (before, after) in zip(plain.wakes.flatMap(\.apps), scaled.wakes.flatMap(\.apps)) {
            #expect(abs(after.expectedLaunches - before.expectedLaunches * correction) < 1e-9, "\(before) \(after)")
        }
    }
}
