import Foundation

/// How apps' content changes and how their fetches fail, for the backtest: the "content
/// scenario" of the backtest protocol.
///
/// ```json
/// { "seed": 7,
///   "apps": {
///     "News": { "publish": { "kind": "fixed", "times": ["06:00", "18:00"] },
///               "outages": [ { "from": "01:00", "to": "04:00", "failure": 1.0 } ] },
///     "Chat": { "publish": { "kind": "poisson", "perHour": [0.1, ...24 rates] }, "failureRate": 0.02 } } }
/// ```
/// Times are the device's local time. Apps the scenario does not name publish all the time and
/// never fail.
public struct ContentScenario: Sendable, Hashable, Codable {
    /// How an app publishes content: `fixed` times, or `poisson` rates per hour.
    public struct Publish: Sendable, Hashable, Codable {
        /// `fixed` or `poisson`.
        public var kind: String
        /// For `fixed`: local times, `HH:MM`.
        public var times: [String]?
        /// For `poisson`: 24 rates per hour, or one for every hour.
        public var perHour: [Double]?
    }

    /// A span of the local day when an app's fetches fail.
    public struct Outage: Sendable, Hashable, Codable {
        /// The start, `HH:MM` local time.
        public var from: String
        /// The end, `HH:MM` local time.
        public var to: String
        /// The chance that a fetch fails then, from 0 to 1.
        public var failure: Double
    }

    /// One app of the scenario.
    public struct App: Sendable, Hashable, Codable {
        /// When the app publishes content; `nil` for all the time.
        public var publish: Publish?
        /// Spans of the day when fetches fail.
        public var outages: [Outage]?
        /// The chance that a fetch fails outside outages, from 0 to 1.
        public var failureRate: Double?
    }

    /// The seed of the random draws.
    public var seed: UInt64
    /// The apps, by name.
    public var apps: [String: App]

    /// Creates a value with every field given.
    public init(seed: UInt64, apps: [String: App]) {
        self.seed = seed
        self.apps = apps
    }

    /// Reads a scenario from JSON, checking its times and rates.
    public static func parse(_ data: Data) throws -> ContentScenario {
        let scenario = try JSONDecoder().decode(ContentScenario.self, from: data)
        for (name, app) in scenario.apps {
            if let publish = app.publish {
                switch publish.kind {
                case "fixed":
                    guard let times = publish.times, times.allSatisfy({ minute($0) != nil }) else {
                        throw ScenarioError("app \(name): a fixed publish needs times such as \"06:00\"")
                    }
                case "poisson":
                    guard let rates = publish.perHour, rates.count == 1 || rates.count == 24,
                        rates.allSatisfy({ $0 >= 0 })
                    else {
                        throw ScenarioError("app \(name): a poisson publish needs perHour, 1 or 24 rates of 0 or more")
                    }
                default:
                    throw ScenarioError("app \(name): publish kind '\(publish.kind)' is neither fixed nor poisson")
                }
            }
            for outage in app.outages ?? [] {
                guard minute(outage.from) != nil, minute(outage.to) != nil, (0...1).contains(outage.failure) else {
                    throw ScenarioError("app \(name): an outage needs from and to as HH:MM and a failure from 0 to 1")
                }
            }
            if let rate = app.failureRate, !(0...1).contains(rate) {
                throw ScenarioError("app \(name): failureRate must be from 0 to 1")
            }
        }
        return scenario
    }

    static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...24).contains(hour),
            (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// The content process of a scenario's app, for the generator's machinery.
    func process(_ app: App) -> ContentProcess? {
        guard let publish = app.publish else { return nil }
        switch publish.kind {
        case "fixed": return .fixed(minutes: (publish.times ?? []).compactMap { Self.minute($0).map(Double.init) })
        default:
            let rates = publish.perHour ?? [1]
            return .poissonHourly(rates.count == 24 ? rates : Array(repeating: rates[0], count: 24))
        }
    }
}

/// A content scenario that cannot be used, with the reason.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// A sentence for people.
    public var description: String
    init(_ reason: String) { description = "The content scenario is not valid: \(reason)." }
}

/// The content of one app over a backtest: when it is published and when its fetches fail.
struct ContentTimeline {
    /// Publication instants, sorted; `nil` means content changes all the time.
    let publications: [Milliseconds]?
    let outages: [(from: Int, to: Int, failure: Double)]
    let failureRate: Double
    let zone: TimeZone
    var random: SeededGenerator

    init(scenario: ContentScenario?, app: String, zone: TimeZone, from: Milliseconds, to: Milliseconds, seed: UInt64) {
        self.zone = zone
        let entry = scenario?.apps[app]
        outages = (entry?.outages ?? []).map {
            (ContentScenario.minute($0.from)!, ContentScenario.minute($0.to)!, $0.failure)
        }
        failureRate = entry?.failureRate ?? 0
        random = SeededGenerator(seed: seed)
        if let entry, let scenario, let process = scenario.process(entry) {
            let firstDay = DeviceModel.local(from, utcOffset: nil, zone: zone).day - 1
            let days = Int((to - from) / .perDay) + 3
            let (year, month, day) = CivilDate.fromDays(firstDay)
            let log = SyntheticLog(
                persona: Persona(name: "", summary: "", apps: []),
                start: DateFields(year: year, month: month, day: day),
                days: days, timeZone: zone, seed: seed)
            publications = log.publications(process, random: &random)
        } else {
            publications = nil
        }
    }

    /// The local minute of the day of an instant.
    func localMinute(_ time: Milliseconds) -> Int {
        DeviceModel.local(time, utcOffset: nil, zone: zone).minute
    }

    /// The result of a fetch at `time` when the app's last refresh was at `lastRefresh`.
    mutating func result(at time: Milliseconds, lastRefresh: Milliseconds?) -> FetchResult {
        var failure = failureRate
        // The local minute only where an outage asks it: reading the zone is most of a result's cost.
        let minute = outages.isEmpty ? 0 : localMinute(time)
        for outage in outages {
            let inside =
                outage.from <= outage.to
                ? (minute >= outage.from && minute < outage.to) : (minute >= outage.from || minute < outage.to)
            if inside { failure = outage.failure }
        }
        if failure > 0, random.unit() < failure { return .failed }
        guard let publications else { return .newData }
        return SyntheticLog.anyPublished(publications, after: lastRefresh ?? .min / 2, upTo: time) ? .newData : .noData
    }

    /// Whether anything was published in (after, upTo]; always when content changes all the time.
    func published(after: Milliseconds, upTo: Milliseconds) -> Bool {
        guard upTo > after else { return false }
        guard let publications else { return true }
        return SyntheticLog.anyPublished(publications, after: after, upTo: upTo)
    }
}
