import Foundation
import Testing

@testable import FetchPredictorCore

/// Freshness of the fetches that happened, counted as the backtest protocol counts a replay.
struct FreshnessTests {
    let utc = TimeZone(identifier: "UTC")!
    /// 2024-05-06T00:00:00Z, a Monday.
    let day: Milliseconds = 1_714_953_600_000

    func at(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Milliseconds {
        day + Milliseconds(hour) * 3_600_000 + Milliseconds(minute) * 60_000 + Milliseconds(second) * 1000
    }

    /// One app's day, worked by hand: a launch 20 minutes after a fetch is fresh, 40 minutes
    /// after is not, 30 seconds after is not (a fetch must start a minute before); a failed
    /// fetch serves nothing; a launch 10 minutes after another is not cold.
    func handWorked() -> BacktestDevice {
        BacktestDevice(
            name: "phone", timeZone: utc,
            launches: [
                .launch("Mail", at: at(8, 20)), .launch("Mail", at: at(10, 40)), .launch("Mail", at: at(12, 0, 30)),
                .launch("Mail", at: at(14, 10)), .launch("Mail", at: at(14, 20)),
            ],
            fetches: [
                .fetch("Mail", at: at(8, 0), result: .newData), .fetch("Mail", at: at(10, 0), result: .newData),
                .fetch("Mail", at: at(12, 0), result: .newData), .fetch("Mail", at: at(14, 0), result: .failed),
            ])
    }

    @Test func aHandWorkedDayIsCountedAsTheProtocolSays() throws {
        let report = Freshness.measure([handWorked()], from: day, to: day + 86_400_000)
        let observed = report.observed
        #expect(observed.strategy == "observed")
        #expect(observed.coldLaunches == 4)
        #expect(observed.freshColdLaunches == 1)
        #expect(observed.fetches == 4)
        #expect(observed.days == 1 && observed.appDays == 1)
        #expect(observed.deviceWakes == 4)
        #expect(observed.wastedFailed == 1 && observed.wastedNoData == 0 && observed.wastedSuperseded == 0)
        // The content's age at each cold launch, from its last refresh (a fetch not failed, a
        // minute before it at least, or the launch before it): 20 (08:00), 40 (10:00), 80.5
        // (the launch at 10:40), 129.5 (the launch at 12:00:30; the failed fetch refreshes nothing).
        #expect(observed.medianContentAgeMinutes == (40 + 80.5) / 2)
        #expect(report.apps.map(\.app) == ["Mail"])
        #expect(report.apps[0].observed == observed)
        // The oracle fetches a minute before each cold launch: all four fresh.
        let oracle = try #require(report.baselines.first { $0.strategy == "oracle" })
        #expect(oracle.coldLaunches == 4 && oracle.freshColdLaunches == 4 && oracle.fetches == 4)
        #expect(report.baselines.map(\.strategy) == ["periodic-30", "periodic-60", "periodic-120", "oracle"])
        let periodic = try #require(report.baselines.first { $0.strategy == "periodic-60" })
        #expect(periodic.fetches == 24)
        // 08:00 serves 08:20; 10:00 is 40 minutes before 10:40; 12:00 is 30 seconds before
        // 12:00:30; 14:00 serves 14:10.
        #expect(periodic.freshColdLaunches == 2)
    }

    /// A launch just before the period makes the first one in it warm, and a fetch before it
    /// still serves a launch in it; only what is in the period is counted.
    @Test func thePeriodCountsWhatIsInItAndReadsTheWindowBefore() {
        let device = handWorked()
        let report = Freshness.measure([device], from: at(8, 30), to: at(14, 15))
        #expect(report.observed.coldLaunches == 3)
        #expect(report.observed.freshColdLaunches == 0)
        #expect(report.observed.fetches == 3)
        let fromTen = Freshness.measure([device], from: at(10, 41), to: at(12, 1))
        #expect(fromTen.observed.coldLaunches == 1)
        #expect(fromTen.observed.fetches == 1)
        // The day's launch at 08:20 is fresh by the 08:00 fetch, though only the launch is in the period.
        let launchOnly = Freshness.measure([device], from: at(8, 10), to: at(8, 30))
        #expect(launchOnly.observed.coldLaunches == 1 && launchOnly.observed.freshColdLaunches == 1)
        #expect(launchOnly.observed.fetches == 0)
    }

    @Test func aPeriodWithNoEventsGivesZeros() {
        let report = Freshness.measure([handWorked()], from: day + 7 * 86_400_000, to: day + 8 * 86_400_000)
        #expect(report.observed.coldLaunches == 0 && report.observed.fetches == 0)
        #expect(report.observed.freshRate == 0 && report.observed.fetchesPerAppDay == 0)
        #expect(report.observed.days == 1 && report.observed.medianContentAgeMinutes == nil)
        #expect(report.apps.isEmpty)
        let nothing = Freshness.measure([BacktestDevice(name: "new", timeZone: utc, launches: [])])
        #expect(nothing.observed.coldLaunches == 0 && nothing.observed.days == 0)
    }

    /// Without a period, each device's runs from the local day of its first event to the end
    /// of the local day of its last.
    @Test func withoutAPeriodEachDeviceIsScoredOverItsOwnDays() {
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        var other = handWorked()
        other.name = "tablet"
        other.timeZone = warsaw
        let report = Freshness.measure([handWorked(), other])
        #expect(report.devices.map(\.device) == ["phone", "tablet"])
        #expect(report.devices[0].from == Date(milliseconds: day))
        #expect(report.devices[1].from == Date(milliseconds: day - 2 * 3_600_000))
        #expect(report.observed.coldLaunches == 8 && report.observed.freshColdLaunches == 2)
        #expect(report.observed.days == 2)
        #expect(report.apps.count == 1 && report.apps[0].observed.coldLaunches == 8)
    }

    /// The fetches a backtest planned, scored as what happened under the protocol's scope, read
    /// the backtest's own figures to the count: one scoring, not two.
    @Test(arguments: [Persona.commuter, .shifting])
    func theProtocolsScopeReadsEvaluatesFigures(persona: Persona) throws {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let log = SyntheticLog(persona: persona, days: 14, timeZone: zone, seed: 3, fetchPeriodMinutes: 0)
        var settings = BacktestSettings()
        settings.budgets = [0.9]
        settings.reportedBudget = 0.9
        settings.warmupDays = 3
        settings.minimumColdLaunches = 5
        var device = BacktestDevice(name: "phone", timeZone: zone, launches: log.events())
        let backtest = Backtest.run([device], settings: settings)
        let predicted = try #require(backtest.reported)
        device.fetches = backtest.fetches.map { .fetch($0.app, at: $0.start, result: $0.result) }
        let report = Freshness.measure([device], scope: .protocol, settings: settings)
        #expect(predicted.fetches > 20)
        #expect(report.observed.coldLaunches == predicted.coldLaunches)
        #expect(report.observed.freshColdLaunches == predicted.freshLaunches)
        #expect(report.observed.fetches == predicted.fetches)
        #expect(report.observed.appDays == predicted.appDays)
        #expect(report.observed.deviceWakes == predicted.deviceWakes)
        #expect(report.observed.wasted == predicted.wasted)
        #expect(report.observed.medianContentAgeMinutes == predicted.medianContentAgeMinutes)
        for baseline in report.baselines {
            let same = try #require(backtest.overall.first { $0.strategy.name == baseline.strategy })
            #expect(baseline.coldLaunches == same.coldLaunches)
            #expect(baseline.freshColdLaunches == same.freshLaunches)
            #expect(baseline.fetches == same.fetches)
        }
        // Scored as what happened, every app and every day count: more cold launches.
        let all = Freshness.measure([device], settings: settings)
        #expect(all.observed.coldLaunches > report.observed.coldLaunches)
        #expect(all.observed.days == report.observed.days + settings.warmupDays)
    }

    /// A period's figures are the sum of its days' figures: what a tenant's days kept one by one
    /// add up to. A refresh wastes a fetch only within a day after it, so that a day's figures
    /// do not wait on the days after it.
    @Test func aPeriodIsTheSumOfItsDays() throws {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let log = SyntheticLog(persona: .commuter, days: 10, timeZone: zone, seed: 5, fetchPeriodMinutes: 0)
        var settings = BacktestSettings()
        settings.budgets = [0.95]
        settings.reportedBudget = 0.95
        settings.warmupDays = 2
        settings.minimumColdLaunches = 5
        var device = BacktestDevice(name: "phone", timeZone: zone, launches: log.events())
        let fetches = Backtest.run([device], settings: settings).fetches
        device.fetches = fetches.enumerated().map {
            // Some fail and some find nothing, so that every kind of waste is counted.
            .fetch($0.element.app, at: $0.element.start, result: [.newData, .noData, .failed][$0.offset % 3])
        }
        // A fetch with nothing after it for two days, then another: not wasted, as no refresh
        // came within a day. A day read alone (the window before it, a day after) sees no more.
        let first = try #require(device.launches.first).time
        device.fetches += [
            .fetch("com.example.rare", at: first + 3 * 86_400_000, result: .newData),
            .fetch("com.example.rare", at: first + 5 * 86_400_000, result: .newData),
        ]
        device.launches.append(.launch("com.example.rare", at: first + 6 * 86_400_000))
        func read(_ from: Milliseconds, _ to: Milliseconds) -> BacktestDevice {
            var read = device
            let kept = (from - 30 * 60_000)..<(to + Freshness.lookAhead)
            read.launches = device.launches.filter { kept.contains($0.time) }
            read.fetches = device.fetches.filter { kept.contains($0.time) }
            return read
        }
        let whole = Freshness.measure([device])
        let midnights = (0...whole.observed.days).map { day -> Milliseconds in
            let (year, month, dayOfMonth) = CivilDate.fromDays(
                DeviceModel(timeZone: zone).local(whole.devices[0].from.milliseconds, utcOffset: nil).day + day)
            return DateFields(year: year, month: month, day: dayOfMonth).instant(in: zone).0
        }
        let days = zip(midnights, midnights.dropFirst()).map {
            Freshness.measure([read($0, $1)], from: $0, to: $1).observed
        }
        #expect(whole.observed.days == 10 && days.count == 10)
        #expect(whole.observed.wastedSuperseded > 0 && whole.observed.wastedFailed > 0)
        #expect(days.map(\.coldLaunches).reduce(0, +) == whole.observed.coldLaunches)
        #expect(days.map(\.freshColdLaunches).reduce(0, +) == whole.observed.freshColdLaunches)
        #expect(days.map(\.fetches).reduce(0, +) == whole.observed.fetches)
        #expect(days.map(\.wastedSuperseded).reduce(0, +) == whole.observed.wastedSuperseded)
        #expect(days.map(\.wasted).reduce(0, +) == whole.observed.wasted)
        #expect(days.map(\.deviceWakes).reduce(0, +) == whole.observed.deviceWakes)
        // One app alone: its figures are the app's row of the whole.
        let app = try #require(whole.apps.max { $0.observed.coldLaunches < $1.observed.coldLaunches })
        let alone = Freshness.measure([device], apps: [app.app])
        #expect(alone.observed.coldLaunches == app.observed.coldLaunches)
        #expect(alone.observed.freshColdLaunches == app.observed.freshColdLaunches)
        #expect(alone.apps.map(\.app) == [app.app])
    }
}
