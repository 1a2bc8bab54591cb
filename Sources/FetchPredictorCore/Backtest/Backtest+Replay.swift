import Foundation

/// One device's log, ready to be replayed by each strategy.
struct PreparedDevice: Sendable {
    let name: String
    let zone: TimeZone
    /// All launches, in time order.
    let launches: [Event]
    /// Launches, device events and notifications, in time order: what the replay feeds the
    /// predictor, as the protocol says.
    let logged: [Event]
    /// Launch times of each app, in order.
    let appLaunches: [String: [Milliseconds]]
    /// The apps in scope and their intervals.
    private(set) var scope: [String: FetchInterval]
    /// The local days the periodic baselines fetch on: the log's, or with a period, its days
    /// and one either side (a fetch just before the period serves a launch in it, one just
    /// after wastes the one before), so that a period's figures are the sum of its days'.
    let periodicDays: ClosedRange<Int>?
    /// The first and last scored local days, and their number.
    let firstScoredDay: Int
    let lastDay: Int
    var scoredDays: Int { max(0, lastDay - firstScoredDay + 1) }
    /// The instants scored, within the scored days; `nil` for all of them.
    private(set) var period: Range<Milliseconds>?
    /// The fetches that happened (``BacktestDevice/fetches``), in time order.
    let observed: [SimulatedFetch]
    /// The end of the log's last local day.
    let end: Milliseconds
    let seeds: [String: UInt64]
    /// The device's state as its events tell it; empty for a log with none.
    let state: ReplayedState
    /// The constraints of the apps in scope that have some.
    let constraints: [String: AppConstraints]
    /// The settings' forecaster, sharing what it reads of the launches alone between this
    /// device's replays at every level when it can (``SharesReplayReadings``).
    let forecaster: any LaunchForecaster

    /// A device as the backtest protocol scores it (`period` `nil`): its apps with enough cold
    /// launches, its days after the warm-up. With a period, what happened in it: every app
    /// launched or fetched in it, every local day it touches, no warm-up.
    init(_ device: BacktestDevice, _ settings: BacktestSettings, period: Range<Milliseconds>? = nil) {
        name = device.name
        zone = device.timeZone
        launches = device.launches.filter { $0.kind == .launch }.sorted { ($0.time, $0.app) < ($1.time, $1.app) }
        logged = (launches + device.deviceEvents.filter { $0.kind.isDeviceEvent || $0.kind == .notification }).sorted {
            ($0.time, $0.kind.rawValue, $0.app) < ($1.time, $1.kind.rawValue, $1.app)
        }
        var byApp: [String: [Milliseconds]] = [:]
        for launch in launches { byApp[launch.app, default: []].append(launch.time) }
        appLaunches = byApp
        let window = Milliseconds.seconds(settings.window)
        if let apps = settings.apps {
            scope = apps
        } else if let period {
            let apps = (launches + device.fetches).filter { period.contains($0.time) }.map(\.app)
            scope = Dictionary(apps.map { ($0, FetchInterval.minimum) }) { first, _ in first }
        } else {
            var chosen: [String: FetchInterval] = [:]
            for (app, times) in byApp {
                var cold = 0
                for (index, time) in times.enumerated() where index == 0 || times[index - 1] < time - window {
                    cold += 1
                }
                if cold >= settings.minimumColdLaunches { chosen[app] = .minimum }
            }
            scope = chosen
        }
        let model = DeviceModel(timeZone: device.timeZone)
        if let period, !period.isEmpty {
            let firstDay = model.local(period.lowerBound, utcOffset: nil).day
            lastDay = model.local(period.upperBound - 1, utcOffset: nil).day
            firstScoredDay = firstDay
            periodicDays = (firstDay - 1)...(lastDay + 1)
        } else {
            let firstDay = launches.first.map { model.local($0.time, utcOffset: nil).day } ?? 0
            lastDay = launches.last.map { model.local($0.time, utcOffset: nil).day } ?? -1
            firstScoredDay = period == nil ? firstDay + settings.warmupDays : lastDay + 1
            periodicDays = lastDay >= firstDay ? firstDay...lastDay : nil
        }
        self.period = period
        observed = device.fetches.filter { $0.kind == .fetch }.map {
            SimulatedFetch(device: device.name, app: $0.app, start: $0.time, result: $0.result ?? .newData)
        }.sorted { ($0.start, $0.app) < ($1.start, $1.app) }
        end = DateFields.midnight(ofDay: lastDay + 1, in: device.timeZone).0
        var seeds: [String: UInt64] = [:]
        for app in scope.keys {
            // FNV-1a: a hash that is the same in every process, unlike Hasher.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (device.name + "/" + app).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            seeds[app] = hash ^ (settings.scenario?.seed ?? 0)
        }
        self.seeds = seeds
        state = ReplayedState(device.deviceEvents)
        let scope = self.scope
        constraints = settings.constraints.filter { scope[$0.key] != nil && !$0.value.isEmpty }
        forecaster = (settings.forecaster as? any SharesReplayReadings)?.sharingReadings() ?? settings.forecaster
    }

    func timeline(_ app: String, _ settings: BacktestSettings) -> ContentTimeline {
        ContentTimeline(
            scenario: settings.scenario, app: app, zone: zone, from: launches.first?.time ?? 0, to: end,
            seed: seeds[app] ?? 0)
    }

    func isScored(_ time: Milliseconds) -> Bool {
        if let period, !period.contains(time) { return false }
        let day = DeviceModel.local(time, utcOffset: nil, zone: zone).day
        return day >= firstScoredDay && day <= lastDay
    }

    /// The device scored only within a period, as well as on its scored days.
    func scored(within period: Range<Milliseconds>) -> PreparedDevice {
        var device = self
        device.period = period
        return device
    }

    /// The device with only some of its apps in scope: their figures alone.
    func restricted(to apps: Set<String>) -> PreparedDevice {
        var device = self
        device.scope = scope.filter { apps.contains($0.key) }
        return device
    }

    func run(_ strategy: Backtest.Strategy, _ settings: BacktestSettings) -> Backtest.Outcome {
        let fetches: [SimulatedFetch]
        var refused: [Milliseconds] = []
        switch strategy {
        case .predictor, .ignoringState:
            do {
                (fetches, refused) = try replay(
                    budget: strategy.budget ?? settings.reportedBudget, honoursState: strategy != .ignoringState,
                    settings)
            } catch {
                preconditionFailure("The replay gives its device a time zone before its first event: \(error)")
            }
        case .periodic(let period):
            var starts: [Milliseconds] = []
            if let periodicDays {
                for day in periodicDays { starts += DateFields.instants(ofDay: day, every: period, in: zone) }
            }
            fetches = simulateResults(scope.keys.sorted().map { ($0, starts) }, settings)
        case .observed:
            fetches = observed
        case .oracle:
            let window = Milliseconds.seconds(settings.window), lead = Milliseconds.seconds(settings.lead)
            let starts = scope.keys.sorted().map { app -> (String, [Milliseconds]) in
                let times = appLaunches[app] ?? []
                let cold = times.enumerated().filter { $0.offset == 0 || times[$0.offset - 1] < $0.element - window }
                guard !state.isEmpty else { return (app, cold.map { $0.element - lead }) }
                // The last whole minute the state allows, within the window before the launch.
                let constraints = constraints[app] ?? AppConstraints()
                return (
                    app,
                    cold.compactMap { launch in
                        stride(from: launch.element - lead, through: launch.element - window, by: -60_000).first {
                            state.allows(constraints, at: $0)
                        }
                    }
                )
            }
            fetches = simulateResults(starts, settings)
        }
        return score(fetches, refused: refused, strategy: strategy, settings)
    }

    /// Gives each planned fetch its result, in time order with the app's launches.
    func simulateResults(_ starts: [(String, [Milliseconds])], _ settings: BacktestSettings) -> [SimulatedFetch] {
        var fetches: [SimulatedFetch] = []
        for (app, times) in starts {
            var timeline = timeline(app, settings)
            let launchTimes = appLaunches[app] ?? []
            var launchIndex = 0
            var lastRefresh: Milliseconds?
            for start in times.sorted() {
                while launchIndex < launchTimes.count, launchTimes[launchIndex] <= start {
                    lastRefresh = launchTimes[launchIndex]
                    launchIndex += 1
                }
                let result = timeline.result(at: start, lastRefresh: lastRefresh)
                if result != .failed { lastRefresh = start }
                fetches.append(SimulatedFetch(device: name, app: app, start: start, result: result))
            }
        }
        return fetches
    }

    /// The replay of the protocol: launches reach the predictor when the clock reaches them,
    /// fetch results when the fetch ends; the clock moves to the next wake or launch, whichever
    /// comes first, and every app due at a wake fetches.
    ///
    /// - Throws: never in practice: the device is given its zone before anything is asked.
    ///
    /// Where the log tells the device's state, the replay checks it as the system does before it
    /// runs a task: an app due while Low Power Mode is on, or while the state breaks one of its
    /// constraints, is not fetched (the second list: the times of those refused, one an app). Told the state (`honoursState`), the
    /// predictor gets the state events and the apps' constraints; else it gets neither, and
    /// plans as if the device had none.
    func replay(
        budget: Double, honoursState: Bool = true, _ settings: BacktestSettings
    ) throws(PredictorError) -> (fetches: [SimulatedFetch], refused: [Milliseconds]) {
        var predictor = replayPredictor(budget: budget, honoursState: honoursState, settings)
        let logged = honoursState ? self.logged : self.logged.filter { !$0.kind.isDeviceState }
        var timelines: [String: ContentTimeline] = [:]
        for app in scope.keys { timelines[app] = timeline(app, settings) }
        var lastRefresh: [String: Milliseconds] = [:]
        var fetches: [SimulatedFetch] = []
        var refused: [Milliseconds] = []
        var pending: [Event] = []
        let duration = Milliseconds.seconds(settings.fetchDuration)
        guard var now = launches.first.map({ min($0.time, logged.first?.time ?? $0.time) - 1 }) else {
            return ([], [])
        }
        var index = 0
        while true {
            // Results of fetches that have ended come first: wakes fall on whole minutes, after them.
            if !pending.isEmpty {
                let event = pending.removeFirst()
                now = max(now, event.time + duration)
                try predictor.observe(event, device: name)
                continue
            }
            let nextLaunch = index < logged.count ? logged[index].time : nil
            // Only a wake before the next logged event is carried out: the question is asked again then.
            let wake =
                now < end
                ? try predictor.nextWake(
                    after: Date(milliseconds: now), before: Date(milliseconds: min(nextLaunch ?? end, end)),
                    device: name)
                : nil
            let wakeTime = wake.map { $0.time.milliseconds }.flatMap { $0 < end ? $0 : nil }
            if let launchTime = nextLaunch, wakeTime.map({ launchTime <= $0 }) ?? true {
                let launch = logged[index]
                index += 1
                now = max(now, launchTime)
                if launch.kind == .launch, scope[launch.app] != nil { lastRefresh[launch.app] = launchTime }
                try predictor.observe(launch, device: name)
                continue
            }
            guard let wake, let wakeTime else { break }
            predictor.commit(to: wake, device: name)
            now = wakeTime
            for app in wake.apps {
                guard var timeline = timelines[app.app] else { continue }
                if !state.isEmpty, !state.allows(constraints[app.app] ?? AppConstraints(), at: wakeTime) {
                    refused.append(wakeTime)
                    continue
                }
                let result = timeline.result(at: wakeTime, lastRefresh: lastRefresh[app.app])
                timelines[app.app] = timeline
                if result != .failed { lastRefresh[app.app] = wakeTime }
                fetches.append(
                    SimulatedFetch(
                        device: name, app: app.app, start: wakeTime, result: result, forecast: app.expectedLaunches))
                pending.append(
                    Event(kind: .fetch, app: app.app, time: wakeTime, result: result, duration: settings.fetchDuration))
            }
        }
        return (fetches, refused)
    }

    /// The predictor a replay asks: the settings' configuration at a budget level, the device's
    /// zone, and only the apps in scope woken, at their intervals.
    func replayPredictor(budget: Double, honoursState: Bool = true, _ settings: BacktestSettings) -> Predictor {
        var configuration = settings.configuration
        configuration.budget = budget
        configuration.freshnessWindow = settings.window
        configuration.lead = settings.lead
        // Nothing reads the reasons of a replay's wakes.
        configuration.explainsWakes = false
        var predictor = Predictor(configuration: configuration, forecaster: forecaster)
        predictor.setTimeZone(zone, device: name)
        predictor.defaultInterval = .never
        for (app, interval) in scope {
            let constraints = honoursState ? constraints[app] ?? AppConstraints() : AppConstraints()
            predictor.setPolicy(AppPolicy(interval: interval, constraints: constraints), app: app, device: name)
        }
        return predictor
    }

    /// Scores fetches against the cold launches of the apps in scope, as the protocol defines.
    func score(
        _ fetches: [SimulatedFetch], refused: [Milliseconds] = [], strategy: Backtest.Strategy,
        _ settings: BacktestSettings
    ) -> Backtest.Outcome {
        var sheet = ScoreSheet(figures: StrategyFigures(strategy: strategy))
        sheet.figures.scoredDays = scoredDays
        sheet.figures.appDays = scope.count * scoredDays
        var byApp: [String: [SimulatedFetch]] = [:]
        for fetch in fetches { byApp[fetch.app, default: []].append(fetch) }
        let isPredictor: Bool = { if case .predictor = strategy { true } else { false } }()
        if isPredictor {
            sheet.figures.expectedFresh = 0
            let uppers: [Double?] = ReliabilityBin.edges.dropFirst().map { $0 } + [nil]
            sheet.figures.reliability = zip(ReliabilityBin.edges, uppers).map {
                ReliabilityBin(lower: $0, upper: $1, wakes: 0, forecast: 0, served: 0)
            }
        }
        var apps: [String: (figures: StrategyFigures, ages: [Double])] = [:]
        for app in scope.keys.sorted() {
            let appFetches = (byApp[app] ?? []).sorted { $0.start < $1.start }
            let (before, agesBefore, wakesBefore) = (sheet.figures, sheet.ages.count, sheet.appWakes)
            let served = scoreColdLaunches(of: app, appFetches, settings, into: &sheet)
            scoreFetches(of: app, appFetches, served: served, isPredictor: isPredictor, settings, into: &sheet)
            // The app's own figures: what it added to the device's, its wakes those of its fetches.
            var figures = sheet.figures.counts(since: before)
            figures.scoredDays = scoredDays
            figures.appDays = scoredDays
            figures.deviceWakes = sheet.appWakes - wakesBefore
            apps[app] = (figures, Array(sheet.ages[agesBefore...]))
        }
        if !state.isEmpty {
            sheet.figures.state = stateFigures(byApp, settings)
            sheet.figures.state?.refusedByState = refused.count(where: isScored)
        }
        sheet.figures.deviceWakes = sheet.wakeInstants.count
        sheet.figures.medianContentAgeMinutes = sheet.ages.median
        return Backtest.Outcome(
            figures: sheet.figures, fetches: fetches.sorted { ($0.start, $0.app) < ($1.start, $1.app) },
            launches: sheet.scored, ages: sheet.ages, apps: apps)
    }

    /// What fetches did where the state forbade them, and the cold launches of apps with
    /// constraints served by fetches the state allowed.
    func stateFigures(_ byApp: [String: [SimulatedFetch]], _ settings: BacktestSettings) -> StateFigures {
        var figures = StateFigures()
        for app in scope.keys.sorted() {
            let appFetches = (byApp[app] ?? []).sorted { $0.start < $1.start }
            let constraints = constraints[app]
            for fetch in appFetches where isScored(fetch.start) {
                if state.lowPowerMode(at: fetch.start) { figures.fetchesInLowPowerMode += 1 }
                guard let constraints else { continue }
                figures.constrainedFetches += 1
                if state.breaks(constraints, at: fetch.start) { figures.fetchesBreakingConstraints += 1 }
            }
            guard let constraints else { continue }
            let allowed = appFetches.filter { state.allows(constraints, at: $0.start) }
            var sheet = ScoreSheet(figures: StrategyFigures(strategy: .oracle))
            _ = scoreColdLaunches(of: app, allowed, settings, into: &sheet)
            figures.constrainedColdLaunches += sheet.figures.coldLaunches
            figures.constrainedFreshLaunches += sheet.figures.freshLaunches
        }
        return figures
    }

    /// What a score gathers app by app.
    struct ScoreSheet {
        var figures: StrategyFigures
        var scored: [ScoredLaunch] = []
        /// The age of the content at each scored cold launch, in minutes.
        var ages: [Double] = []
        var wakeInstants = Set<Milliseconds>()
        /// The distinct instants each app fetched at, added up app by app.
        var appWakes = 0
    }

    /// Scores an app's cold launches on scored days, fresh or not, and counts those its fetches
    /// served; returns the fresh cold launches each fetch served, each counted for the last
    /// fetch before it.
    func scoreColdLaunches(
        of app: String, _ appFetches: [SimulatedFetch], _ settings: BacktestSettings, into sheet: inout ScoreSheet
    ) -> [Int] {
        let window = Milliseconds.seconds(settings.window), lead = Milliseconds.seconds(settings.lead)
        let launchTimes = appLaunches[app] ?? []
        let timeline = timeline(app, settings)
        let refreshing = appFetches.indices.filter { appFetches[$0].result != .failed }
        let refreshes = refreshing.map { appFetches[$0].start }
        var served = [Int](repeating: 0, count: appFetches.count)
        var refreshIndex = 0
        for (index, time) in launchTimes.enumerated() {
            let cold = index == 0 || launchTimes[index - 1] < time - window
            guard cold, isScored(time) else { continue }
            while refreshIndex < refreshes.count, refreshes[refreshIndex] <= time - lead { refreshIndex += 1 }
            let lastFetch = refreshIndex > 0 ? refreshes[refreshIndex - 1] : nil
            let lastLaunch = index > 0 ? launchTimes[index - 1] : nil
            let refresh = [lastFetch, lastLaunch].compactMap { $0 }.max()
            let fresh = refresh.map { !timeline.published(after: $0, upTo: time - window) } ?? false
            sheet.figures.coldLaunches += 1
            if fresh { sheet.figures.freshLaunches += 1 }
            // Served by a fetch: fresh, with that fetch as its last refresh, within its window.
            if fresh, let lastFetch, lastFetch >= lastLaunch ?? .min, lastFetch >= time - window {
                served[refreshing[refreshIndex - 1]] += 1
                sheet.figures.servedLaunches += 1
            }
            if let refresh { sheet.ages.append(time.fractionalMinutes(since: refresh)) }
            sheet.scored.append(ScoredLaunch(device: name, app: app, time: time, fresh: fresh))
        }
        return served
    }

    /// Counts an app's fetches on scored days and the waste among them, and the predictor's
    /// forecasts of them against the launches they served.
    func scoreFetches(
        of app: String, _ appFetches: [SimulatedFetch], served: [Int], isPredictor: Bool,
        _ settings: BacktestSettings, into sheet: inout ScoreSheet
    ) {
        let launchTimes = appLaunches[app] ?? []
        var launchIndex = 0
        var lastStart: Milliseconds?
        for (index, fetch) in appFetches.enumerated() where isScored(fetch.start) {
            // The app's fetches are in time order: one at the instant before is the same wake.
            if fetch.start != lastStart { sheet.appWakes += 1 }
            lastStart = fetch.start
            sheet.figures.fetches += 1
            sheet.wakeInstants.insert(fetch.start)
            if isPredictor, let forecast = fetch.forecast {
                sheet.figures.expectedFresh! += forecast
                let bin = sheet.figures.reliability.lastIndex { $0.lower <= forecast } ?? 0
                sheet.figures.reliability[bin].wakes += 1
                sheet.figures.reliability[bin].forecast += forecast
                sheet.figures.reliability[bin].served += served[index]
            }
            switch fetch.result {
            case .noData: sheet.figures.wastedNoData += 1
            case .failed: sheet.figures.wastedFailed += 1
            case .newData:
                while launchIndex < launchTimes.count, launchTimes[launchIndex] <= fetch.start { launchIndex += 1 }
                let nextLaunch = launchIndex < launchTimes.count ? launchTimes[launchIndex] : nil
                let nextRefresh = appFetches[(index + 1)...].first { $0.result != .failed }?.start
                let horizon = settings.supersededWithin.map { fetch.start + .seconds($0) } ?? .max
                if let nextRefresh, nextRefresh <= horizon, nextLaunch.map({ nextRefresh < $0 }) ?? true {
                    sheet.figures.wastedSuperseded += 1
                }
            }
        }
    }
}
