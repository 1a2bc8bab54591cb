import FetchPredictorCore
import Foundation
import Synchronization

/// A forecaster as a user of the library would write one, from its public API alone (this file
/// imports it without `@testable`): the same chance of a cold launch of every app in every
/// window, whatever its history. It counts the apps of each batch it is asked for.
struct FixedChanceForecaster: LaunchForecaster {
    /// The chance of a cold launch of an app in any window, 0 to 1...
    var chance: Double
    /// ...but for these apps.
    var byApp: [String: Double] = [:]
    /// The apps of each batch asked, in order.
    let asked = Asked()

    final class Asked: Sendable {
        let batches = Mutex<[[String]]>([])
    }

    var name: String { "fixed" }
    var inputs: ForecastInputs { [] }

    func forecast(_ requests: [ForecastRequest]) -> [LaunchForecast] {
        asked.batches.withLock { $0.append(requests.map(\.app)) }
        return requests.map { request in
            let configuration = request.configuration
            // A wake serves the launches from its lead to the end of its window: spread over
            // those minutes, the rates add up to the chance's expected launches.
            let span = (configuration.freshnessWindow - configuration.lead) / 60 + 1
            let chance = byApp[request.app] ?? chance
            var expected = ExpectedLaunches(minutes: request.endIndex)
            for minute in request.startIndex..<request.endIndex { expected.usual[minute] = -log(1 - chance) / span }
            let name = name
            return LaunchForecast(expected: expected) { _, _ in [.forecast(forecaster: name, chance: chance)] }
        }
    }
}
