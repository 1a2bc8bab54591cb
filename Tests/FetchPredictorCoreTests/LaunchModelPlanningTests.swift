import Foundation
import Testing

@testable import FetchPredictorCore

/// The planner on the launch model (issue 28): its rates are the model's chances read at the
/// minutes ahead, the traces its features read survive the store's cache, and a plan from it
/// keeps the interval.
struct LaunchModelPlanningTests {
    static let zone = TimeZone(identifier: "Europe/Warsaw")!

    static func isMoved(_ reason: WakeReason) -> Bool { if case .movedEarlier = reason { true } else { false } }
    static func isModelChance(_ reason: WakeReason) -> Bool { if case .launchModel = reason { true } else { false } }

    /// A commuter's predictor after two weeks, with unlocks before some launches and
    /// notifications of one app, so that every trace has something in it.
    static func predictor(days: Int = 14) throws -> (Predictor, [Event]) {
        let log = SyntheticLog(
            persona: .commuter, start: DateFields(year: 2024, month: 1, day: 1), days: days, timeZone: zone, seed: 5,
            fetchPeriodMinutes: 0)
        var events: [Event] = []
        for (index, launch) in log.events().filter({ $0.kind == .launch }).enumerated() {
            if index % 3 == 0 {
                events.append(Event(kind: .notification, app: launch.app, time: launch.time - 90_000))
                events.append(Event(kind: .unlock, app: "", time: launch.time - 20_000))
            }
            events.append(launch)
        }
        var predictor = Predictor(forecaster: TreesForecaster(model: .prior))
        predictor.defaultInterval = .minimum
        predictor.setTimeZone(zone, device: "phone")
        for event in events { try predictor.observe(event, device: "phone") }
        return (predictor, events)
    }

    /// Each rate is the chance the model gives at the reading half a window before it, as the
    /// expected launches −ln(1 − p) spread over the window: computed here from the features
    /// directly, not through the planner.
    @Test func theRatesAreTheModelsChancesAtTheMinutesAhead() throws {
        let (predictor, events) = try Self.predictor()
        let device = try #require(predictor.devices["phone"])
        let configuration = predictor.configuration
        let first = (events.last!.time / 60_000 + 1) * 60_000
        let clock = HorizonClock.forPlanning(from: first, minutes: 240, configuration: configuration, zone: Self.zone)
        let planner = Planner(device: device, clock: clock, configuration, forecaster: TreesForecaster(model: .prior))
        let app = "com.example.news"
        let profiles = device.planningProfiles(app: app, configuration)
        let habits = device.habitProfiles(app: app, configuration)
        let start = 7
        let expected = planner.modelLaunches(
            app, launchModel: .prior, startIndex: start, endIndex: 200, profiles: profiles, habits: habits)
        let window = configuration.windowMinutes, shift = (window + 1) / 2
        let span = Double(window - configuration.leadMinutes + 1)
        var checked = 0
        var chances: [Double] = []
        for reading in stride(from: start, to: 200 - shift, by: Planner.launchModelStepMinutes) {
            let time = clock.time(reading)
            let (day, minute) = DeviceModel.local(time, utcOffset: nil, zone: Self.zone)
            let kind: DayKind = DeviceModel.isWeekend(day: day) ? .weekend : .weekday
            let features = device.traces.features(
                of: app, at: time, local: (day, minute), zone: Self.zone,
                profiles: LaunchTraces.Profiles(
                    planning: device.planningProfile(app: app, for: kind, configuration),
                    habit: device.profile(app: app, for: kind, configuration)),
                rates: device.traces.ownRates(configuration), configuration)
            let chance = LaunchModel.prior.probability(features)
            chances.append(chance)
            let rate = expected.usual[reading + shift] + expected.returning[reading + shift]
            #expect(abs(rate - -log(1 - chance) / span) < 1e-12, "at minute \(reading)")
            checked += 1
        }
        #expect(checked >= 30)
        // Between two readings, the straight line between them: two minutes after the first.
        for (place, pair) in zip(chances, chances.dropFirst()).enumerated() {
            let minute = start + place * Planner.launchModelStepMinutes + 2 + shift
            let line = (-log(1 - pair.0) * 0.6 - log(1 - pair.1) * 0.4) / span
            #expect(abs(expected.total[minute] - line) < 1e-12, "at minute \(minute)")
        }
        // Before the first reading's minutes, the first reading.
        #expect(abs(expected.total[start] - -log(1 - chances[0]) / span) < 1e-12)
        // The model's chances change over the hours ahead: the rates are read, not a constant.
        let rates = expected.total[(start + shift)..<200]
        #expect(rates.max()! > 2 * rates.min()!)
    }

    /// The traces the features read are in the model the store caches: read back, the model
    /// has the same traces and gives the same wake.
    @Test func theTracesSurviveTheCache() throws {
        let (predictor, events) = try Self.predictor()
        let device = try #require(predictor.devices["phone"])
        #expect(
            device.traces.notifies && device.traces.lastUnlock != nil
                && device.traces.followed.contains { !$0.places.isEmpty })
        let apps = try device.apps.mapValues { try #require(AppModel(encoded: $0.encoded())) }
        let read = try #require(DeviceModel(encodedHeader: device.encodedHeader(), apps: apps, timeZone: Self.zone))
        #expect(read.traces == device.traces)
        var cached = Predictor(
            configuration: predictor.configuration, devices: ["phone": read], forecaster: TreesForecaster(model: .prior)
        )
        cached.defaultInterval = .minimum
        var learned = predictor
        let now = Date(milliseconds: events.last!.time)
        let wake = try #require(try learned.nextWake(after: now, device: "phone"))
        #expect(try cached.nextWake(after: now, device: "phone") == wake)
        // A header cut short is refused, not read with traces half there.
        let header = device.encodedHeader()
        #expect(DeviceModel(encodedHeader: Array(header.dropLast(3)), apps: apps, timeZone: Self.zone) == nil)
        // So is one whose traces' flag of notifications is no Bool.
        let name = [UInt8(8)] + Array("notifies".utf8)
        let flag = try #require(header.indices.first { header[$0...].starts(with: name) }) + name.count
        var corrupt = header
        corrupt[flag] = 7
        #expect(DeviceModel(encodedHeader: corrupt, apps: apps, timeZone: Self.zone) == nil)
        corrupt[flag] = header[flag]
        #expect(DeviceModel(encodedHeader: corrupt, apps: apps, timeZone: Self.zone) != nil)
    }

    /// Over a day of wakes planned from the model, no app is woken twice within its interval:
    /// an hour for one app, the minimum for the others.
    @Test func aPlanFromTheModelKeepsTheInterval() throws {
        var (predictor, events) = try Self.predictor()
        // Eager, so that the interval is what holds its wakes apart.
        predictor.configuration.budget = 0.97
        predictor.setPolicy(AppPolicy(interval: .seconds(3600)), app: "com.example.news", device: "phone")
        let start = Date(milliseconds: events.last!.time)
        let schedule = try predictor.schedule(from: start, to: start.addingTimeInterval(86_400), device: "phone")
        for app in predictor.apps(device: "phone") {
            let times = schedule.wakes.filter { wake in wake.apps.contains { $0.app == app } }.map(\.time)
            let floor: TimeInterval = app == "com.example.news" ? 3600 : 15 * 60
            if app == "com.example.news" { #expect(times.count >= 2) }
            // Planned from the model: each unmoved wake gives its chance.
            for wake in schedule.wakes {
                for planned in wake.apps where !planned.reasons.contains(where: Self.isMoved) {
                    #expect(planned.reasons.contains(where: Self.isModelChance), "\(planned.reasons)")
                }
            }
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(later.timeIntervalSince(earlier) >= floor, "\(app) woken twice within its interval")
            }
        }
    }

    /// The reasons of a wake the model made are true of it: the chance it names is the model's
    /// chance at the wake from the features then; an app it follows is the app opened last, and
    /// the chance is lower by a quarter or more with the session signals at rest; usual use at
    /// this time names the expected launches the daily profile's signals add (a quarter of the
    /// chance or more); a signal below a quarter is named only alone, as the one that adds most.
    @Test func theReasonsOfAModelsWakeAreTrueOfIt() throws {
        let (_, events) = try Self.predictor()
        var configuration = PredictorConfiguration()
        configuration.budget = 0.95
        var replayed = Predictor(configuration: configuration, forecaster: TreesForecaster(model: .prior))
        replayed.defaultInterval = .minimum
        replayed.setTimeZone(Self.zone, device: "phone")
        let lastDays = events.last!.time - 3 * 86_400_000
        var chances = 0, follows = 0, usual = 0
        for (position, event) in events.enumerated() {
            try replayed.observe(event, device: "phone")
            guard event.time >= lastDays, event.kind == .launch,
                let wake = try replayed.nextWake(after: Date(milliseconds: event.time), device: "phone")
            else { continue }
            let device = try #require(replayed.devices["phone"])
            for app in wake.apps where !app.reasons.contains(where: Self.isMoved) {
                #expect(app.reasons.contains(where: Self.isModelChance), "\(app.reasons)")
                let time = app.plannedTime.milliseconds
                let (day, minute) = DeviceModel.local(time, utcOffset: nil, zone: Self.zone)
                let kind: DayKind = DeviceModel.isWeekend(day: day) ? .weekend : .weekday
                let features = device.traces.features(
                    of: app.app, at: time, local: (day, minute), zone: Self.zone,
                    profiles: LaunchTraces.Profiles(
                        planning: device.planningProfile(app: app.app, for: kind, configuration),
                        habit: device.profile(app: app.app, for: kind, configuration)),
                    rates: device.traces.ownRates(configuration), configuration)
                for reason in app.reasons {
                    switch reason {
                    case .launchModel(let chance):
                        #expect(abs(chance - LaunchModel.prior.probability(features)) < 1e-12)
                        chances += 1
                    case .follows(let leader, let share):
                        #expect(leader == device.traces.lastApp && leader != app.app)
                        let counted = LaunchFeaturesTests.follows(app.app, after: leader, in: events[...position])
                        #expect(share == Double(counted.follows) / Double(counted.launches))
                        var atRest = features
                        (atRest.followsLastApp, atRest.wasLastApp, atRest.launchesLast30Min) = (0, 0, 0)
                        atRest.minutesSinceAnyLaunch = LaunchFeatures.capMinutes
                        atRest.minutesSinceSessionStart = LaunchFeatures.capMinutes
                        let afterAny =
                            device.traces.ownRates(configuration).apps[app.app]?.afterLaunch ?? OwnRates.launchPrior
                        (atRest.followRate, atRest.followRateByQuarter) = (afterAny, afterAny)
                        let chance = LaunchModel.prior.probability(features)
                        let share = chance - LaunchModel.prior.probability(atRest)
                        #expect(share >= 0.25 * chance || (share > 0 && Self.signals(app.reasons) == 1))
                        follows += 1
                    case .usualTime(let expected):
                        // The chance with no use of the app at this time of day, in its daily
                        // profile, yesterday or a week ago.
                        var noUseNow = features
                        (noUseNow.profileRate, noUseNow.profileSlope) = (0, 0)
                        (noUseNow.profileNext30, noUseNow.habitRate) = (0, 0)
                        (noUseNow.sameWindowYesterday, noUseNow.sameWindowLastWeek) = (0, 0)
                        let chance = LaunchModel.prior.probability(features)
                        let without = LaunchModel.prior.probability(noUseNow)
                        #expect(abs(expected - (log(1 - without) - log(1 - chance))) < 1e-9)
                        #expect(chance - without >= 0.25 * chance || (expected > 0 && Self.signals(app.reasons) == 1))
                        usual += 1
                    default:
                        break
                    }
                }
            }
        }
        #expect(chances > 10)
        #expect(follows > 0 && usual > 0)
    }

    /// How many signals a model's wake names as what its chance comes from.
    static func signals(_ reasons: [WakeReason]) -> Int {
        reasons.count {
            switch $0 {
            case .follows, .returning, .usualTime: true
            default: false
            }
        }
    }

    /// The traces cost learning time and cache space, so a predictor keeps them only when a
    /// launch model asks for them: by default its devices have none, and their headers are as
    /// small as before.
    @Test func theTracesAreKeptOnlyForALaunchModel() throws {
        let (withModel, events) = try Self.predictor()
        var plain = Predictor()
        plain.setTimeZone(Self.zone, device: "phone")
        for event in events { try plain.observe(event, device: "phone") }
        let kept = try #require(withModel.devices["phone"]), none = try #require(plain.devices["phone"])
        #expect(
            !plain.forecaster.inputs.contains(.launchFeatures) && withModel.forecaster.inputs.contains(.launchFeatures))
        #expect(none.traces == LaunchTraces() && kept.traces != LaunchTraces())
        #expect(none.encodedHeader().count + 1000 < kept.encodedHeader().count)
        #expect(
            plain.forecaster.learningKey(plain.configuration)
                != withModel.forecaster.learningKey(withModel.configuration))
    }

    /// With a window of a few minutes, the last reading of a plan that runs to the end of its
    /// horizon stays on the horizon, from any start minute.
    @Test func aShortWindowPlansToTheEndOfTheHorizon() throws {
        var (predictor, events) = try Self.predictor()
        predictor.configuration.freshnessWindow = 5 * 60
        predictor.configuration.lead = 60
        for offset in 0..<5 {
            let start = Date(milliseconds: events.last!.time + Milliseconds(offset) * 60_000)
            let schedule = try predictor.schedule(from: start, to: start.addingTimeInterval(86_400), device: "phone")
            #expect(!schedule.wakes.isEmpty)
        }
    }

    /// A model that reads the person's own rates names the app it follows for the right reason:
    /// its chance after a launch of that app (the pair's own rate), which is its chance after any
    /// launch when nothing was opened, makes the wake likely; and the time since its own last
    /// launch is not named, though the trees read the recency rate, when that rate a week after a
    /// launch is as high.
    @Test func theReasonsOfTheOwnRatesAreTrueOfThem() throws {
        // One tree: likely after an app the news follows (its pair rate above 0.3), not otherwise.
        let json = """
            {"kind": "trees", "features": ["followRate"], "baseline": -1.0, "trees": [
              {"feature": [0, -1, -1], "threshold": [0.3, -3.0, 1.0], "left": [1, -1, -1],
               "right": [2, -1, -1], "missingLeft": [true, false, false], "value": [0, -3.0, 1.0]}]}
            """
        let model = try LaunchModel(json: Data(json.utf8))
        // Mail at 08:00, 13:00 and 19:00, the news 4 minutes after two of them, a chat ten times a
        // day between: the news after a mail is likely, after any launch not.
        var events: [Event] = []
        let day0 = Milliseconds(1_704_092_400_000)  // 2024-01-01T07:00Z, 08:00 in Warsaw
        for day in 0..<14 {
            let morning = day0 + Milliseconds(day) * 86_400_000
            for (hour, news) in [(0, true), (5, true), (11, false)] {
                let mail = morning + Milliseconds(hour) * 3_600_000
                events.append(.launch("mail", at: mail))
                if news { events.append(.launch("news", at: mail + 240_000)) }
            }
            for chat in 0..<10 {
                events.append(.launch("chat", at: morning + 3_600_000 + Milliseconds(chat) * 2_400_000))
            }
        }
        let last = day0 + 14 * 86_400_000
        events.append(.launch("mail", at: last))
        events.sort { $0.time < $1.time }
        let forecaster = TreesForecaster(model: model)
        var predictor = Predictor(forecaster: forecaster)
        predictor.setTimeZone(Self.zone, device: "phone")
        for event in events { try predictor.observe(event, device: "phone") }
        let device = try #require(predictor.devices["phone"])
        let configuration = predictor.configuration
        let clock = HorizonClock.forPlanning(
            from: last + 60_000, minutes: 240, configuration: configuration, zone: Self.zone)
        let planner = Planner(device: device, clock: clock, configuration, forecaster: forecaster)
        let rates = device.traces.ownRates(configuration)
        // The rates the test is about: after a mail, the news is likely; after any launch, not.
        let (pair, _) = rates.follows("news", after: "mail", in: device.traces.rates)
        #expect(pair > 0.5)
        #expect(try #require(rates.apps["news"]?.afterLaunch) < 0.3)
        let reasons = planner.modelReasons(
            "news", at: 0, launchModel: model, model: try #require(device.apps["news"]),
            profiles: device.planningProfiles(app: "news", configuration),
            habits: device.habitProfiles(app: "news", configuration))
        #expect(reasons.contains { if case .follows(app: "mail", _) = $0 { true } else { false } }, "\(reasons)")
        #expect(!reasons.contains { if case .returning = $0 { true } else { false } }, "\(reasons)")
        let chance = try #require(reasons.lazy.compactMap { if case .launchModel(let p) = $0 { p } else { nil } }.first)
        #expect(abs(chance - 1 / (1 + exp(-0.0))) < 1e-12)
    }
}
