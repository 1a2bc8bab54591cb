import ArgumentParser
import FetchPredictor
import Foundation

// Typed values of the command line: each is read in one place, and its error is one sentence.

/// A time: `now`, ISO 8601 with Z or an offset, Unix seconds, or a local `YYYY-MM-DD HH:MM[:SS]`.
enum TimeArgument {
    /// Reads `now`, an instant, or a local time read in `zone`.
    ///
    /// - Parameter zone: the device's zone; `nil` when it has none, and then a local time is
    ///   refused rather than read in a zone nobody named.
    static func parse(_ text: String, option: String, zone: TimeZone?, now: Date) throws -> Date {
        if text == "now" { return now }
        switch TimestampParser.parse(text) {
        case .success(let stamp): return Date(milliseconds: stamp.milliseconds)
        case .failure(.missingOffset), .failure(.unreadable):
            if let fields = TimestampParser.parseLocal(text) {
                guard let zone else {
                    throw ValidationError(
                        "\(option) '\(text)' is a local time, and no time zone is named for it: write it with Z or an offset, such as 2024-05-01T08:30:00+02:00."
                    )
                }
                return Date(milliseconds: fields.instant(in: zone).0)
            }
        case .failure: break
        }
        throw ValidationError(
            "\(option) '\(text)' is not a time: write now, 2024-05-01T08:30:00Z, 2024-05-01 08:30 (device time) or Unix seconds."
        )
    }
}

/// An IANA time zone name, or `UTC`: abbreviations and offsets are refused, with the zones they
/// likely meant (``TimeZoneName``).
enum TimeZoneArgument {
    static func parse(_ name: String) throws -> TimeZone {
        try TimeZoneName.zone(named: name)
    }
}

/// A fetch interval: `never`, `minimum` or seconds; its errors are ``FetchIntervalError``'s sentences.
enum IntervalArgument {
    static func parse(_ text: String) throws -> FetchInterval {
        try FetchInterval(parsing: text)
    }
}

/// A budget level, from 0 to 1.
enum BudgetArgument {
    struct OutOfRange: Error, CustomStringConvertible {
        var description: String { "a budget is a number from 0 to 1, such as 0.85." }
    }

    static func parse(_ text: String) throws -> Double {
        guard let value = Double(text), (0...1).contains(value) else { throw OutOfRange() }
        return value
    }
}

/// What forecasts the cold launches: a name of ``Forecasters/names``, or `trees=FILE` for the
/// trees' JSON that `scripts/fit-launch-model.py --model trees` wrote.
struct ForecasterArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The option's text.
    var description: String

    init?(argument text: String) {
        guard Forecasters.named(text) != nil || (text.hasPrefix("trees=") && text.count > 6) else { return nil }
        description = text
    }

    static let defaultValue = ForecasterArgument(argument: Forecasters.names[0])!

    static var allValueStrings: [String] { Forecasters.names + ["trees=FILE"] }

    /// The forecaster, with the trees read from their file for `trees=FILE`.
    ///
    /// - Throws: a ``ValidationError`` naming the option and the file when it cannot be read as trees.
    func forecaster() throws -> any LaunchForecaster {
        if let named = Forecasters.named(description) { return named }
        let path = String(description.dropFirst("trees=".count))
        let option = "--forecaster \(description)"
        do {
            return TreesForecaster(model: try LaunchModel(json: EvaluateCommand.read(path, option: "--forecaster")))
        } catch let error as LaunchModel.ReadError {
            throw ValidationError("\(option): \(error)")
        }
    }

    /// The help of the planning commands' option: the forecaster of a device that sets none.
    static let planHelp = ArgumentHelp(
        "What forecasts the cold launches, when the device sets no forecaster of its own (as the service's PUT /v1/devices/{device} sets): hazard, profile, daily, trees or trees=FILE, as evaluate takes them.",
        valueName: "name")

    /// The help of `serve`'s option: the forecaster of the devices that set none.
    static let serveHelp = ArgumentHelp(
        "What forecasts the cold launches of the devices that set no forecaster of their own (PUT /v1/devices/{device} with forecaster): hazard, profile, daily, trees or trees=FILE, as evaluate takes them.",
        valueName: "name")

    /// The option's help, shared by every command that takes it.
    static let help = ArgumentHelp(
        "What forecasts each app's cold launches: hazard (the launch hazard learned from the device's apps), profile (the daily profile and the return after a launch, weighed by hand), daily (the daily profile alone), trees (the launch model shipped with fetchpredict, an experiment: docs/experiments.md) or trees=FILE (the trees' JSON that scripts/fit-launch-model.py --model trees wrote).",
        valueName: "name")
}

/// How wakes are chosen from the forecast: `sweep`, `chance` or `chance-waiting`.
extension WakePlanning: ExpressibleByArgument {
    /// The option's help, shared by every command that takes it.
    static let help = ArgumentHelp(
        "How wakes are chosen from the forecast: sweep (the expected launches each wake would serve, waiting up to half a window for the best minute), chance (a wake at the first minute whose chance of a cold launch in its window reaches 1 - budget, the backtest protocol's planner) or chance-waiting (as chance, waiting while a minute within the window ahead looks better by more than 1/0.9).",
        valueName: "rule")
}

/// A device's own forecaster as `config` takes it: a name of ``Forecasters/names``, or `default`
/// for the one each command is given.
struct DeviceForecasterArgument: ExpressibleByArgument {
    /// The name; `nil` for `default`.
    var name: String?

    init?(argument text: String) {
        if text == "default" {
            name = nil
            return
        }
        guard Forecasters.named(text) != nil else { return nil }
        name = text
    }

    static var allValueStrings: [String] { Forecasters.names + ["default"] }
}

/// How long unused a device or an app goes silent after: a number of days, or `never`.
struct SilenceArgument: ExpressibleByArgument {
    /// The limit in seconds; `nil` for `never`.
    var seconds: Double?

    init?(argument text: String) {
        if text == "never" {
            seconds = nil
            return
        }
        guard let days = Double(text), days.isFinite, days > 0, days <= 36_500 else { return nil }
        seconds = days * 86_400
    }

    /// The limit as the option takes it: days, or `never`.
    static func text(_ seconds: Double?) -> String {
        guard let seconds else { return "never" }
        let days = seconds / 86_400
        return days == days.rounded() ? String(Int(days)) : String(days)
    }
}

/// A push budget: a whole number of device wakes an hour from 1 to 60, or `none`.
struct WakesPerHourArgument: ExpressibleByArgument {
    /// The budget; `nil` for `none`.
    var count: Int?

    init?(argument text: String) {
        if text == "none" {
            count = nil
            return
        }
        guard let count = Int(text), (1...60).contains(count) else { return nil }
        self.count = count
    }
}

/// A persona of the synthetic logs, by name.
enum PersonaArgument {
    struct Unknown: Error, CustomStringConvertible {
        var name: String
        var description: String {
            "there is no persona '\(name)': choose one of \(Persona.all.map(\.name).joined(separator: ", "))."
        }
    }

    static func parse(_ name: String) throws -> Persona {
        guard let persona = Persona.named(name) else { throw Unknown(name: name) }
        return persona
    }
}

/// Budget levels separated by commas: `0.5,0.75,0.9`.
struct BudgetLevels: CustomStringConvertible {
    var values: [Double]

    init(_ values: [Double]) {
        self.values = values
    }

    init(parsing text: String) throws {
        values = try text.split(separator: ",").map {
            try BudgetArgument.parse($0.trimmingCharacters(in: .whitespaces))
        }
        if values.isEmpty { throw BudgetArgument.OutOfRange() }
    }

    var description: String { values.map { String($0) }.joined(separator: ",") }

    /// A level as tables print it: two decimals, more where a refined level has them (0.925).
    static func describe(_ level: Double) -> String {
        var text = String(format: "%.4f", level)
        while text.hasSuffix("0"), text.count > 4 { text.removeLast() }
        return text
    }
}

extension ImportFormat: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}

extension FetchResult: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}

/// `LABEL=KIND`: an App Usage pseudo-row in the phone's language, and what it stands for.
struct RowLabelArgument {
    var label: String
    var meaning: RowLabel

    static func parse(_ text: String) throws -> RowLabelArgument {
        guard let (label, meaning) = RowLabel.parse(assignment: text) else {
            throw ValidationError(
                "--device-event-label '\(text)' is not LABEL=KIND, KIND one of \(RowLabel.allCases.map(\.rawValue).joined(separator: ", ")): such as 'Ekran włączony (odblokowany)=unlock'."
            )
        }
        return RowLabelArgument(label: label, meaning: meaning)
    }
}
