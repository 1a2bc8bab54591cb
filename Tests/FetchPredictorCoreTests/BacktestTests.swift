import Foundation
import Testing

@testable import FetchPredictorCore

struct BacktestTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func device(_ persona: Persona, days: Int = 28, seed: UInt64) -> BacktestDevice {
        let log = SyntheticLog(persona: persona, days: days, timeZone: zone, seed: seed, fetchPeriodMinutes: 0)
        return BacktestDevice(name: "phone", timeZone: zone, launches: log.events())
    }

    func settings(_ budgets: [Double], scenario: ContentScenario? = nil, warmup: Int = 7, baselines: Bool = false)
        -> BacktestSettings
    {
        var settings = BacktestSettings()
        if !baselines { settings.periods = [] }
        settings.budgets = budgets
        settings.reportedBudget = budgets[0]
        settings.scenario = scenario
        settings.warmupDays = warmup
        settings.minimumColdLaunches = 5
        return settings
    }

    /// Changing the events after an instant leaves every wake before it unchanged.
    /// With the launch model, whose features read the session and the recent days, too.
    @Test(
        arguments: [(1, "profile"), (2, "profile"), (1, "hazard"), (2, "hazard"), (1, "trees")] as [(UInt64, String)])
    func noLookAhead(seed: UInt64, forecaster: String) {
        let original = device(.commuter, days: 21, seed: seed)
        let cut = original.launches[original.launches.count / 2].time
        var changed = original
        var random = SeededGenerator(seed: seed)
        changed.launches = original.launches.filter { $0.time < cut || random.unit() < 0.5 }
        for _ in 0..<30 {
            changed.launches.append(.launch("com.example.news", at: cut + Milliseconds(random.unit() * 7 * 86_400_000)))
        }
        var settings = settings([0.85])
        settings.forecaster =
            forecaster == "trees"
            ? TreesForecaster(model: .prior, fallback: ProfileForecaster()) : Forecasters.named(forecaster)!
        let before = Backtest.run([original], settings: settings).fetches.filter { $0.start < cut }
        let after = Backtest.run([changed], settings: settings).fetches.filter { $0.start < cut }
        #expect(before.count > 20)
        #expect(before == after)
    }

    /// Refinement runs budgets between the levels fresh@4 and wakes@50 are read between, for
    /// every device, so that the figures are read between nearer points; the levels it adds
    /// are listed in the frontier in budget order, and nothing else changes.
    @Test func refinementReadsTheFiguresBetweenNearerLevels() throws {
        let devices = [device(.commuter, days: 21, seed: 1), device(.nightOwl, days: 21, seed: 2)].enumerated().map {
            var device = $0.element
            device.name = "phone \($0.offset)"
            return device
        }
        var coarse = settings([0.5, 0.8, 0.9, 0.98])
        coarse.reportedBudget = 0.85
        var refined = coarse
        refined.refinements = 2
        let before = Backtest.run(devices, settings: coarse)
        let after = Backtest.run(devices, settings: refined)

        func frontier(_ report: BacktestReport) -> [StrategyFigures] {
            report.overall.filter { $0.strategy.isPredictor }
        }
        func span(_ report: BacktestReport, _ around: (StrategyFigures) -> Bool) -> Double {
            let points = frontier(report).sorted { $0.wakesPerAppDay < $1.wakesPerAppDay }
            let pair = zip(points, points.dropFirst()).first { !around($0.0) && around($0.1) }!
            return pair.1.wakesPerAppDay - pair.0.wakesPerAppDay
        }
        let added = Set(frontier(after).compactMap(\.budget)).subtracting(coarse.budgets)
        #expect(added.count >= 2 && added.count <= 4, "\(added)")
        #expect(added.allSatisfy { $0 > 0.5 && $0 < 0.98 })
        #expect(span(after) { $0.wakesPerAppDay >= 4 } < span(before) { $0.wakesPerAppDay >= 4 })
        #expect(span(after) { $0.freshRate >= 0.5 } < span(before) { $0.freshRate >= 0.5 })
        for strategies in [after.overall] + after.devices.map(\.strategies) {
            let budgets = strategies.filter { $0.strategy.isPredictor }.compactMap(\.budget)
            #expect(budgets == budgets.sorted() && budgets.count == coarse.budgets.count + added.count)
        }
        // The levels both ran give the same figures; the reported run is the same.
        for level in coarse.budgets {
            #expect(frontier(after).first { $0.budget == level } == frontier(before).first { $0.budget == level })
        }
        #expect(after.fetches == before.fetches)
        // The overall table lists the predictor's levels, then the baselines.
        #expect(after.overall.first?.strategy.isPredictor == true && after.overall.last?.strategy == .oracle)
        // With no device there is nothing to refine, and nothing to report.
        let none = Backtest.run([], settings: refined)
        #expect(none.overall.isEmpty && none.freshAt4 == nil)
    }

    /// The replay feeds the predictor the log's device events and notifications beside its
    /// launches, in time order, as the protocol says; fetches are the replay's own.
    /// Where the log tells the device's state, the replay never fetches while Low Power Mode is
    /// on nor an app while its constraints are broken, at any budget; the predictor told the
    /// state asks for less than half the refused wakes it asks told nothing of it, and its apps
    /// with constraints find content fetched under them about as often, and no more than the
    /// oracle's.
    @Test(arguments: ["commuter", "night-owl"])
    func theReplayHonoursTheDevicesState(persona name: String) throws {
        let persona = try #require(Persona.named(name))
        let log = SyntheticLog(persona: persona, days: 28, timeZone: zone, seed: 2, deviceState: true)
        let events = log.events()
        let device = BacktestDevice(
            name: "phone", timeZone: zone, launches: events.filter { $0.kind == .launch },
            deviceEvents: events.filter(\.kind.isDeviceState))
        var settings = settings([0.9, 0.7])
        let apps = persona.apps.map(\.name)
        settings.apps = Dictionary(uniqueKeysWithValues: apps.map { ($0, FetchInterval.minimum) })
        settings.constraints = [
            apps[0]: AppConstraints(requiresUnmetered: true),
            apps[1]: AppConstraints(requiresPower: true, requiresBatteryNotLow: true),
        ]
        let report = Backtest.run([device], settings: settings)
        let figures = report.overall
        for predictor in figures where predictor.strategy.isPredictor {
            let state = try #require(predictor.state)
            #expect(state.fetchesInLowPowerMode == 0 && state.fetchesBreakingConstraints == 0, "\(predictor)")
            #expect(state.constrainedFetches > 0)
        }
        let blind = try #require(figures.first { $0.strategy == .ignoringState }?.state)
        #expect(blind.fetchesInLowPowerMode == 0 && blind.fetchesBreakingConstraints == 0, "\(blind)")
        let oracle = try #require(figures.first { $0.strategy == .oracle }?.state)
        #expect(oracle.fetchesInLowPowerMode == 0 && oracle.fetchesBreakingConstraints == 0)
        let reported = try #require(report.reported?.state)
        #expect(reported.refusedByState * 2 < blind.refusedByState, "\(reported) against \(blind)")
        // Trying where the state is unlikely and being refused wins a launch now and then: the
        // constrained apps' freshness is about the same, the refused wakes are not.
        #expect(reported.constrainedFreshRate >= 0.85 * blind.constrainedFreshRate, "\(reported) against \(blind)")
        #expect(reported.constrainedFreshRate <= oracle.constrainedFreshRate)
        #expect(reported.constrainedColdLaunches == oracle.constrainedColdLaunches)
        // A log without state has none of this.
        let plain = Backtest.run(
            [BacktestDevice(name: "phone", timeZone: zone, launches: events.filter { $0.kind == .launch })],
            settings: settings)
        #expect(plain.overall.allSatisfy { $0.state == nil && $0.strategy != .ignoringState })
    }

    @Test func theReplayFeedsDeviceEventsAndNotifications() {
        var phone = device(.commuter, days: 3, seed: 1)
        let first = phone.launches[0].time
        phone.deviceEvents = [
            Event(kind: .unlock, app: "", time: first - 60_000),
            Event(kind: .notification, app: "com.example.chat", time: first + 60_000),
            Event(kind: .screenOff, app: "", time: first + 120_000),
            Event(kind: .fetch, app: "com.example.chat", time: first + 180_000, result: .newData),
        ]
        let prepared = PreparedDevice(phone, settings([0.85]))
        let fed = prepared.logged.filter { $0.kind != .launch }.map(\.kind)
        #expect(fed == [.unlock, .notification, .screenOff])
        #expect(prepared.logged.map(\.time) == prepared.logged.map(\.time).sorted())
    }

    @Test func baselinesScoreAsTheProtocolSays() {
        let report = Backtest.run([device(.commuter, seed: 3)], settings: settings([0.85], baselines: true))
        let figures = Dictionary(uniqueKeysWithValues: report.overall.map { ($0.strategy, $0) })
        // The oracle fetches a minute before every cold launch: all fresh, one wake per launch.
        let oracle = figures[.oracle]!
        #expect(oracle.freshRate == 1)
        #expect(oracle.fetches == oracle.coldLaunches)
        // Periodic-P fetches 1440 / P times a day and finds about W / P fresh.
        for period in [30, 60, 120, 240, 480] {
            let periodic = figures[.periodic(period)]!
            #expect(abs(periodic.wakesPerAppDay - 1440 / Double(period)) < 0.01)
            #expect(
                abs(periodic.freshRate - min(1, 29 / Double(period))) < 0.15,
                "periodic-\(period): \(periodic.freshRate)")
        }
        // The predictor beats periodic fetching at the same cost.
        let predictor = figures[.predictor(0.85)]!
        let periodicAtCost = Frontier.fresh(
            at: predictor.wakesPerAppDay,
            [30, 60, 120, 240, 480].map { (1440 / Double($0), figures[.periodic($0)]!.freshRate) }
                + [(0, 0)])
        #expect(predictor.freshRate > 2 * (periodicAtCost ?? 0))
    }

    @Test func frontierIsReadByInterpolation() {
        let points = [(1.0, 0.2), (3.0, 0.4), (5.0, 0.6)]
        #expect(abs(Frontier.fresh(at: 4, points)! - 0.5) < 1e-9)
        #expect(abs(Frontier.wakes(forFresh: 0.5, points)! - 4) < 1e-9)
        #expect(Frontier.fresh(at: 6, points) == nil)
        #expect(Frontier.wakes(forFresh: 0.7, points) == nil)
    }

    /// With content that is published at fixed hours and outages at night, learning from fetch
    /// results at least halves the wasted fetches, for at most 2 points less fresh rate.
    @Test(arguments: ["commuter", "night-owl"])
    func fetchResultsHalveWastedFetches(persona: String) throws {
        let scenario = try ContentScenario.parse(
            Data(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("fixtures/scenarios/\(persona).json")))
        let budgets = [0.75, 0.8, 0.85, 0.9]
        let devices = ([1, 2] as [UInt64]).map { device(Persona.named(persona)!, seed: $0) }
        let learned = Backtest.run(devices, settings: settings(budgets, scenario: scenario)).overall.filter {
            $0.strategy.isPredictor
        }
        // The blind predictor's forecasts come true less often: its like fresh rates lie at
        // lower levels, now that its calibration no longer chooses its wakes.
        var blind = settings([0.5, 0.6, 0.7] + budgets, scenario: scenario)
        blind.configuration.usesFetchResults = false
        let ignoring = Backtest.run(devices, settings: blind).overall.filter { $0.strategy.isPredictor }
        // At 0.85, the predictor that learns from results, against the blind one
        // at its level with the nearest fresh rate not above it + 2 points.
        let point = try #require(learned.first { $0.budget == 0.85 })
        let match = try #require(
            ignoring.filter { $0.freshRate <= point.freshRate + 0.02 }.max { $0.freshRate < $1.freshRate })
        #expect(match.freshRate >= point.freshRate - 0.1, "no comparable blind level: \(ignoring.map(\.freshRate))")
        #expect(
            2 * point.wasted <= match.wasted,
            "learned \(point.wasted) at \(point.freshRate), blind \(match.wasted) at \(match.freshRate)")
    }

    /// On a persona with steady habits, day 5 is already at least 80% as fresh as days 15 to 28
    /// with the time-of-day profile alone. The launch hazard, used once it has learned enough,
    /// slows none of that and is fresher later.
    @Test func learnsWithinFiveDays() {
        let devices = (1...5 as ClosedRange<UInt64>).map { seed in
            var device = device(.nightOwl, seed: seed)
            device.name = "phone-\(seed)"
            return device
        }
        func freshness(hazard: Bool) -> (early: Double, steady: Double) {
            var settings = settings([0.9], warmup: 0)
            settings.forecaster = hazard ? HazardForecaster() : ProfileForecaster()
            let report = Backtest.run(devices, settings: settings)
            var day5 = (0, 0), late = (0, 0)
            for launch in report.launches {
                let day =
                    DeviceModel(timeZone: zone).local(launch.time, utcOffset: nil).day
                    - CivilDate.daysSince1970(year: 2024, month: 1, day: 1) + 1
                if day == 5 { day5 = (day5.0 + 1, day5.1 + (launch.fresh ? 1 : 0)) }
                if (15...28).contains(day) { late = (late.0 + 1, late.1 + (launch.fresh ? 1 : 0)) }
            }
            #expect(day5.0 >= 20)
            return (Double(day5.1) / Double(day5.0), Double(late.1) / Double(late.0))
        }
        let profile = freshness(hazard: false), hazard = freshness(hazard: true)
        #expect(profile.early >= 0.8 * profile.steady, "day 5: \(profile.early), days 15-28: \(profile.steady)")
        #expect(hazard.early >= 0.8 * profile.steady, "day 5: \(hazard.early), days 15-28: \(profile.steady)")
        #expect(
            hazard.steady >= profile.steady, "days 15-28: \(hazard.steady) with the hazard, \(profile.steady) without")
    }

    /// The default level is one a user can rely on across people: on every persona it plans
    /// at least one fetch per app and day and no more than the protocol's reading point twice
    /// over, and the backtest runs it beside any levels asked for, marked once per device and
    /// once overall.
    @Test(arguments: Persona.all)
    func theDefaultLevelPlansEnoughForEveryone(persona: Persona) throws {
        let report = Backtest.run([device(persona, days: 21, seed: 4)], settings: settings([0.5]))
        let defaults = report.overall.filter(\.isDefault)
        #expect(defaults.map(\.budget) == [PredictorConfiguration().budget])
        let figures = try #require(defaults.first)
        #expect(
            (1...8).contains(figures.wakesPerAppDay), "\(persona.name): \(figures.wakesPerAppDay) wakes per app-day")
        for device in report.devices {
            #expect(device.strategies.filter(\.isDefault).map(\.budget) == [PredictorConfiguration().budget])
        }
        #expect(report.overall.filter { $0.budget == 0.5 }.map(\.isDefault) == [false])
    }
}
