import Foundation
import Testing

@testable import FetchPredictorCore

/// The learning key says which settings change what is learned: a model cached under it serves
/// every configuration with the same key, so that a setting learning reads and the key leaves
/// out would serve a model learned otherwise.
struct LearningKeyTests {
    /// One value of a configuration's field, as its JSON holds it.
    enum Value: Codable, Equatable {
        case bool(Bool)
        case number(Double)
        case list([Int])
        /// The one field of text, ``WakePlanning``'s name.
        case planning(WakePlanning)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(WakePlanning.self) {
                self = .planning(value)
            } else {
                self = .list(try container.decode([Int].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .list(let value): try container.encode(value)
            case .planning(let value): try container.encode(value)
            }
        }

        /// Another value, far enough from this one to change what reads it: a share (between 0
        /// and 1) a fifth smaller, a count or a length three times larger (still whole), a flag
        /// turned over, a list one shorter, the next way of planning.
        var changed: Value {
            switch self {
            case .bool(let value): .bool(!value)
            case .number(let value): .number(value == 0 ? 1 : value < 1 ? value * 0.8 : value * 3)
            case .list(let value): .list(value.isEmpty ? [0] : Array(value.dropLast()))
            case .planning(let value):
                .planning(
                    WakePlanning.allCases[
                        (WakePlanning.allCases.firstIndex(of: value)! + 1) % WakePlanning.allCases.count])
            }
        }
    }

    /// The configuration with each of its fields changed alone, by the field's name.
    static func eachFieldChanged(_ configuration: PredictorConfiguration) throws -> [(
        field: String, configuration: PredictorConfiguration
    )] {
        let fields = try JSONDecoder().decode([String: Value].self, from: JSONEncoder().encode(configuration))
        // Every stored field is in the JSON: a field left out of it would be left out here too.
        #expect(fields.count == Mirror(reflecting: configuration).children.count)
        return try fields.keys.sorted().map { name in
            var changed = fields
            changed[name] = fields[name]!.changed
            let other = try JSONDecoder().decode(PredictorConfiguration.self, from: JSONEncoder().encode(changed))
            #expect(other != configuration, "\(name) did not change")
            return (name, other)
        }
    }

    /// Four weeks of a commuter's launches, with fetches before some of them: two minutes
    /// before (inside a lead of three minutes, outside one of one), and three quarters of an hour
    /// before (inside a window of 90 minutes, outside one of 30).
    static let events: [Event] = {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let launches = SyntheticLog(persona: .commuter, days: 28, timeZone: zone, seed: 7, fetchPeriodMinutes: 0)
            .events().filter { $0.kind == .launch }
        var events = launches
        for (index, launch) in launches.enumerated() where index % 3 != 2 {
            let before: Milliseconds = index % 3 == 0 ? 120_000 : 45 * 60_000
            events.append(
                Event(kind: .fetch, app: launch.app, time: launch.time - before, result: .newData, duration: 2))
        }
        // In the order the store gives when learning: by time, launches before fetches.
        return events.sorted { ($0.time, $0.kind == .launch ? 0 : 1) < ($1.time, $1.kind == .launch ? 0 : 1) }
    }()

    /// The model learned from ``events`` under a configuration for a forecaster's inputs, every
    /// fetch planned as the predictor plans its wakes, so that the calibration binds fetches to
    /// launches.
    static func learned(_ configuration: PredictorConfiguration, _ inputs: ForecastInputs) -> DeviceModel {
        var model = DeviceModel(timeZone: TimeZone(identifier: "Europe/Warsaw")!)
        for event in events {
            if event.kind == .fetch { model.calibration.plan(event.app, at: event.time, forecast: 0.5) }
            model.observe(event, configuration, learning: inputs)
        }
        return model
    }

    /// The inputs of the built-in forecasters: the hazard's, the profile's (none), the trees'.
    static let inputs: [ForecastInputs] = [.launchHazard, [], [.launchHazard, .launchFeatures]]

    @Test(arguments: inputs)
    func theKeyChangesExactlyWhenLearningDoes(inputs: ForecastInputs) throws {
        let base = PredictorConfiguration()
        let model = Self.learned(base, inputs)
        for (field, configuration) in try Self.eachFieldChanged(base) {
            let keyChanged = configuration.learningKey(learning: inputs) != base.learningKey(learning: inputs)
            let learningChanged = Self.learned(configuration, inputs) != model
            #expect(
                keyChanged == learningChanged,
                "\(field) changes \(learningChanged ? "learning but not the key" : "the key but not learning")")
        }
    }

    /// Each forecaster's inputs learn another model, under another key.
    @Test func theKeyChangesExactlyWhenTheInputsDo() {
        let base = PredictorConfiguration()
        for first in Self.inputs {
            for second in Self.inputs where second != first {
                #expect(base.learningKey(learning: first) != base.learningKey(learning: second))
                #expect(Self.learned(base, first) != Self.learned(base, second))
            }
        }
    }

    @Test func theKeyOfTheDefaultsIsTheOneModelsWereCachedUnder() {
        // Models cached before the key moved to the configuration, and before the forecaster
        // chose what is learned, stay valid.
        #expect(
            HazardForecaster().learningKey(PredictorConfiguration())
                == "v2 decay=0.75 habits=0.97 fetch=0.9 gap=1800.0 window=1800.0 lead=60.0 hazard=true smoothing=10.0 weekends=true coldStart=3.0,5"
        )
    }
}
