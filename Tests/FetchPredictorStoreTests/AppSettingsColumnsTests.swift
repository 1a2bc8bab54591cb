import FetchPredictorTestSupport
import Foundation
import Testing

@testable import FetchPredictor

/// An app's settings are kept in the columns `AppSettingsColumns` names, on both backends: every
/// combination reads back the same by every read, an app is its own exactly when a setting is
/// not unset (the SQL of the rule agrees with the cells), and a new app has every column unset.
struct AppSettingsColumnsTests {
    @Test(arguments: Backend.available)
    func everySettingReadsBackAndIsOwnByTheOneRule(backend: Backend) async throws {
        let store = try backend.makeStore()
        try await store.setTimeZone(TimeZone(identifier: "Europe/Warsaw")!, device: "phone")
        // An app made by an event has every column unset.
        _ = try await store.record([.launch("com.example.seen", at: 1_700_000_000_000)], device: "phone")
        let unset = AppSettingsColumns.columns.map(\.unset)
        let seen = try await store.settings(app: "com.example.seen", device: "phone")
        #expect(AppSettingsColumns.cells(seen) == unset)
        // Every interval kind, both states and every constraint, drawn together.
        var generator = SeededGenerator(seed: 69)
        let intervals: [FetchInterval?] = [nil, .never, .minimum, .seconds(900), .seconds(86_400)]
        var expected: [String: AppSettings] = [:]
        for index in 0..<24 {
            let app = "com.example.app\(index)"
            let bits = Int16.random(in: 0...7, using: &generator)
            let change = AppSettingsChange(
                interval: .some(intervals[index % intervals.count]), enabled: Bool.random(using: &generator),
                requiresPower: bits & 1 != 0, requiresUnmetered: bits & 2 != 0, requiresBatteryNotLow: bits & 4 != 0)
            expected[app] = try await store.changeApp(change, app: app, device: "phone")
        }
        let all = try await store.appSettings(device: "phone")
        let planned = try await store.planningSettings(device: "phone").policies
        let summaries = try await store.apps(device: "phone")
        for (app, settings) in expected {
            #expect(try await store.settings(app: app, device: "phone") == settings, "\(app)")
            #expect(all.first { $0.app == app } == settings, "\(app)")
            // Own exactly when a cell is not unset: the SQL rule and the cells agree.
            let own = AppSettingsColumns.cells(settings) != unset
            #expect((planned[app] != nil) == own, "\(app)")
            if own { #expect(planned[app] == settings, "\(app)") }
            let summary = summaries.first { $0.app == app }
            #expect((summary != nil) == own, "\(app): an app with no event is listed when it is its own")
            if let summary {
                #expect(summary.enabled == settings.enabled && summary.constraints == settings.constraints)
                #expect(summary.intervalIsDefault == (settings.interval == nil))
            }
        }
        #expect(planned["com.example.seen"] == nil)
    }
}
