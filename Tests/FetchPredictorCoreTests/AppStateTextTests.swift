import Foundation
import Testing

@testable import FetchPredictorCore

/// The sentence `peaks` and the report show of an app's state reads right for small numbers.
struct AppStateTextTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    let now = Date(milliseconds: 1_717_200_000_000)

    @Test func oneLaunchIsSingularAndMinutesAreSaidUnderAnHour() {
        let state = AppState(
            lastLaunch: now.addingTimeInterval(-10 * 60), coldLaunchesLastWeek: 1, usualLastWeek: nil,
            launchSpanDays: 1, expectedShare: 1)
        let text = state.description(now: now, zone: zone)
        #expect(text.contains(", 10 min ago;"), "\(text)")
        #expect(text.contains("1 cold launch in the last 7 days"), "\(text)")
        #expect(!text.contains("launches in"), "\(text)")
        #expect(text.contains("(launched over 1 day)"), "\(text)")
    }

    @Test func hoursAndPluralsAsBefore() {
        let state = AppState(
            lastLaunch: now.addingTimeInterval(-3 * 3600 - 5), coldLaunchesLastWeek: 12, usualLastWeek: 14,
            launchSpanDays: 20, expectedShare: 1)
        let text = state.description(now: now, zone: zone)
        #expect(text.contains(", 3 h ago;"), "\(text)")
        #expect(text.contains("12 cold launches in the last 7 days, usually 14"), "\(text)")
    }
}
