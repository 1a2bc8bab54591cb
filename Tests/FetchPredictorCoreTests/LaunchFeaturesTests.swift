import Foundation
import Testing

@testable import FetchPredictorCore

/// The launch model's features (issue 28): computed from the events up to the decision time
/// alone, and equal to values worked out by hand.
struct LaunchFeaturesTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    /// An instant of a UTC wall-clock time.
    static func at(_ day: Int, _ hour: Int, _ minute: Int, month: Int = 1) -> Milliseconds {
        DateFields(year: 2024, month: month, day: day, hour: hour, minute: minute).instant(in: utc).0
    }

    /// A synthetic persona's launches, with an unlock before some and notifications of one app,
    /// as a device of the backtest.
    static func device(days: Int = 12, seed: UInt64 = 3) -> BacktestDevice {
        let log = SyntheticLog(
            persona: .commuter, start: DateFields(year: 2024, month: 1, day: 1), days: days, timeZone: warsaw,
            seed: seed, fetchPeriodMinutes: 0)
        let launches = log.events().filter { $0.kind == .launch }
        var context: [Event] = []
        for (index, launch) in launches.enumerated() where index % 3 == 0 {
            context.append(Event(kind: .unlock, app: "", time: launch.time - 20_000))
            context.append(Event(kind: .notification, app: launch.app, time: launch.time - 90_000))
        }
        return BacktestDevice(name: "phone", timeZone: warsaw, launches: launches, deviceEvents: context)
    }

    static func rows(_ device: BacktestDevice, apps: [String]? = nil) -> [LaunchFeatureRow] {
        var rows: [LaunchFeatureRow] = []
        device.launchFeatureRows(everyMinutes: 20, apps: apps) { rows.append($0) }
        return rows
    }

    /// Counted from the events alone: the launches of `leader` that a later launch of `app`
    /// followed within ``LaunchTraces/followMinutes``, and all the launches of `leader`.
    static func follows(_ app: String, after leader: String, in events: ArraySlice<Event>) -> (
        follows: Int, launches: Int
    ) {
        let launches = events.filter { $0.kind == .launch }
        let window = Milliseconds.minutes(LaunchTraces.followMinutes)
        var follows = 0, leaderLaunches = 0
        for (index, launch) in launches.enumerated() where launch.app == leader {
            leaderLaunches += 1
            let within = launches[(index + 1)...].prefix { $0.time - launch.time <= window }
            if within.contains(where: { $0.app == app }) { follows += 1 }
        }
        return (follows, leaderLaunches)
    }

    @Test func whichAppFollowsWhichIsCountedFromTheLaunches() throws {
        // Given a commuter's launches, with bursts of the same apps in the same millisecond
        let configuration = PredictorConfiguration()
        var launches = Self.device(days: 9).launches
        for index in stride(from: 0, to: launches.count, by: 17) {
            launches.insert(launches[index], at: index)
            launches.insert(.launch("burst", at: launches[index].time), at: index + 1)
        }
        var traces = LaunchTraces()
        for launch in launches { traces.observe(launch, zone: Self.warsaw, configuration) }
        // Then each app's launches and the launches of each other app it followed within the
        // half hour are those counted from the events
        let apps = Set(launches.map(\.app)).sorted()
        #expect(apps.count > 4)
        for leader in apps {
            for app in apps {
                let counted = Self.follows(app, after: leader, in: launches[...])
                #expect(traces.follows(app, after: leader) == counted.follows, "\(app) after \(leader)")
                #expect(traces.launches(of: leader) == counted.launches)
            }
        }
        #expect(traces.isConsistent)
        // and counts naming a place no app has are refused
        var outOfRange = traces
        outOfRange.followed[0].update(apps.count + 3, from: 0) { $0 += 1 }
        #expect(!outOfRange.isConsistent)
        var unsorted = traces
        let busiest = try #require(traces.followed.firstIndex { $0.places.count > 1 })
        unsorted.followed[busiest].places.reverse()
        #expect(!unsorted.isConsistent)
        var uneven = traces
        uneven.followed[busiest].values.removeLast()
        #expect(!uneven.isConsistent)
        var shorter = traces
        shorter.launchCounts.removeLast()
        #expect(!shorter.isConsistent)
    }

    enum FutureChange: String, CaseIterable {
        case removed, moved, added
    }

    /// The "never reads the future" test the issue demands: the rows' features before an instant
    /// are the same, to the last bit, whatever happens after it.
    @Test(arguments: FutureChange.allCases)
    func featuresNeverReadTheFuture(change: FutureChange) {
        // Given a log, and the same log changed after a cut on its 10th day
        let original = Self.device()
        let cut = DateFields(year: 2024, month: 1, day: 10, hour: 13, minute: 7).instant(in: Self.warsaw).0
        var changed = original
        let after = changed.launches.filter { $0.time > cut }
        changed.launches.removeAll { $0.time > cut }
        changed.deviceEvents.removeAll { $0.time > cut }
        switch change {
        case .removed:
            break
        case .moved:
            // Each later launch an hour earlier (none before the cut), another app's name for some.
            changed.launches += after.enumerated().map { index, launch in
                var moved = launch
                moved.time = max(cut + 1, launch.time - 3_600_000)
                if index % 4 == 0 { moved.app = after[(index + 1) % after.count].app }
                return moved
            }
        case .added:
            // The later launches, and a burst of launches, unlocks and notifications right after the cut.
            changed.launches += after
            for step in 1...40 {
                let time = cut + Milliseconds(step) * 45_000
                changed.launches.append(.launch(after[step % after.count].app, at: time))
                changed.deviceEvents.append(Event(kind: .unlock, app: "", time: time - 1))
                changed.deviceEvents.append(Event(kind: .notification, app: after[step % 3].app, time: time - 2))
            }
        }
        // When both are replayed, for the same apps
        // (rows end at the last event: with the later events removed, at the last before the cut)
        let end = min(cut, (changed.launches + changed.deviceEvents).map(\.time).max()!)
        let before = Self.rows(original).filter { $0.time <= end }
        let scope = Set(before.map(\.app))
        let changedRows = Self.rows(changed, apps: Array(scope)).filter { $0.time <= end }
        // Then every row up to the cut has the same features
        #expect(changedRows.count == before.count)
        #expect(before.count > 500)
        let changedByKey = Dictionary(uniqueKeysWithValues: changedRows.map { ("\($0.app)@\($0.time)", $0) })
        var compared = 0
        for row in before {
            guard let other = changedByKey["\(row.app)@\(row.time)"] else { continue }
            compared += 1
            #expect(row.features == other.features, "\(row.app) at \(TimestampFormatter.iso(row.time))")
        }
        #expect(compared == before.count)
    }

    /// The tracker refuses no event it is given, but the replay asks for features only at times
    /// no earlier than the last event observed.
    @Test func featuresComeAfterTheEventsUpToTheDecisionTime() {
        let device = Self.device(days: 9)
        var last: Milliseconds = .min
        var times: [Milliseconds] = []
        device.launchFeatureRows(everyMinutes: 60) { row in
            #expect(row.time >= last)
            last = row.time
            times.append(row.time)
        }
        // The first decision time is local midnight of the 8th day.
        let first = DateFields(year: 2024, month: 1, day: 8, hour: 0, minute: 0).instant(in: Self.warsaw).0
        #expect(times.first == first)
    }

    /// A tiny log whose features are worked out by hand.
    @Test func featuresOfATinyLogAreTheHandComputedOnes() {
        // Given: Monday 1 January 2024, UTC
        //   08:00 news (cold), 08:10 chat (cold), 08:20 news (not cold: 20 min),
        //   08:55 unlock, 08:58 a notification of news, 09:00 news (cold: 40 min after 08:20);
        // Tuesday 2 January: 08:05 news (cold).
        var tracker = FeatureTracker(timeZone: Self.utc)
        let events: [Event] = [
            .launch("news", at: Self.at(1, 8, 0)), .launch("chat", at: Self.at(1, 8, 10)),
            .launch("news", at: Self.at(1, 8, 20)), Event(kind: .unlock, app: "", time: Self.at(1, 8, 55)),
            Event(kind: .notification, app: "news", time: Self.at(1, 8, 58)), .launch("news", at: Self.at(1, 9, 0)),
            .launch("news", at: Self.at(2, 8, 5)),
        ]
        for event in events { tracker.observe(event) }
        // When asked at Tuesday 08:30
        let time = Self.at(2, 8, 30)
        let news = tracker.features(of: "news", at: time)
        let chat = tracker.features(of: "chat", at: time)
        // Then
        #expect(news.weekend == 0)
        #expect(news.minuteOfDay == 510)
        #expect(news.minutesSinceLaunch == 25)
        #expect(news.minutesSinceColdLaunch == 25)
        #expect(news.coldLaunchesToday == 1)
        #expect(news.coldLaunchesLast24h == 2)  // Monday 09:00 and Tuesday 08:05
        #expect(news.coldLaunchesLast3h == 1)
        #expect(news.sameWindowYesterday == 1)  // Monday 09:00 is in (08:31, 09:00]
        #expect(news.sameWindowLastWeek == 0)
        // news followed news (08:00 → 08:20) and chat followed news (08:00 → 08:10) once each,
        // over news's 4 launches + 1.
        #expect(news.followsLastApp == 0.2)
        #expect(chat.followsLastApp == 0.2)
        #expect(news.wasLastApp == 1)
        #expect(chat.wasLastApp == 0)
        #expect(news.minutesSinceAnyLaunch == 25)
        #expect(news.minutesSinceSessionStart == 25)
        #expect(news.launchesLast30Min == 1)
        #expect(news.minutesSinceUnlock == 23 * 60 + 35)
        #expect(news.minutesSinceNotification == 23 * 60 + 32)
        #expect(chat.minutesSinceNotification == LaunchFeatures.capMinutes)
        #expect(chat.minutesSinceLaunch == 24 * 60 + 20)
        #expect(chat.coldLaunchesLast24h == 0)
        // The profile: news was opened around 08:00-09:00, chat once; neither at 03:00.
        #expect(news.profileRate > 0)
        #expect(news.coldLaunchesPerDay > chat.coldLaunchesPerDay)
        #expect(news.usualColdLaunchesByNow > 0)
        #expect(news.usualColdLaunchesByNow < news.coldLaunchesPerDay)
        let night = tracker.features(of: "news", at: Self.at(2, 20, 0))
        #expect(night.profileRate < news.profileRate)
        // An app never seen has nothing expected and every time since at the cap.
        let unknown = tracker.features(of: "maps", at: time)
        #expect(unknown.profileRate == 0 && unknown.coldLaunchesPerDay == 0 && unknown.followsLastApp == 0)
        #expect(unknown.minutesSinceLaunch == LaunchFeatures.capMinutes)
    }

    /// What the log cannot tell is unknown: a time since an unlock, or a notification, before the
    /// device has reported any.
    @Test func whatTheLogCannotTellIsUnknown() {
        var tracker = FeatureTracker(timeZone: Self.utc)
        tracker.observe(.launch("news", at: Self.at(1, 8, 0)))
        let before = tracker.features(of: "news", at: Self.at(1, 9, 0))
        #expect(before.minutesSinceUnlock.isNaN && before.minutesSinceNotification.isNaN)
        #expect(before == before)
        tracker.observe(Event(kind: .notification, app: "chat", time: Self.at(1, 9, 30)))
        let after = tracker.features(of: "news", at: Self.at(1, 10, 0))
        #expect(after.minutesSinceUnlock.isNaN)
        #expect(after.minutesSinceNotification == LaunchFeatures.capMinutes)
    }

    /// A session begins at an unlock, or at a launch 10 minutes or more after the one before.
    @Test func sessionsBeginAtAnUnlockOrAfterAQuietSpell() {
        var tracker = FeatureTracker(timeZone: Self.utc)
        tracker.observe(.launch("a", at: Self.at(1, 10, 0)))
        tracker.observe(.launch("b", at: Self.at(1, 10, 9)))
        #expect(tracker.features(of: "a", at: Self.at(1, 10, 12)).minutesSinceSessionStart == 12)
        tracker.observe(.launch("a", at: Self.at(1, 10, 30)))
        #expect(tracker.features(of: "a", at: Self.at(1, 10, 32)).minutesSinceSessionStart == 2)
        tracker.observe(Event(kind: .screenOn, app: "", time: Self.at(1, 10, 40)))
        tracker.observe(.launch("b", at: Self.at(1, 10, 45)))
        #expect(tracker.features(of: "a", at: Self.at(1, 10, 50)).minutesSinceSessionStart == 10)
    }

    /// One name for each value, all different: the CSV's columns.
    @Test func everyFeatureHasOneName() {
        #expect(LaunchFeatures.names.count == LaunchFeatures().values.count)
        #expect(Set(LaunchFeatures.names).count == LaunchFeatures.names.count)
    }

    /// The values written out are in the order of the names: each feature given its own value
    /// shows up at its own name's place.
    @Test func valuesAreInTheOrderOfTheNames() {
        var features = LaunchFeatures()
        for (place, field) in LaunchFeatures.fields.enumerated() {
            guard let writable = field.value as? WritableKeyPath<LaunchFeatures, Double> else {
                Issue.record("\(field.name) cannot be set")
                continue
            }
            features[keyPath: writable] = Double(place) + 0.5
        }
        #expect(features.values == features.valuesByKeyPath)
        #expect(features.values == LaunchFeatures.names.indices.map { Double($0) + 0.5 })
    }

    /// The label is 1 exactly when a cold launch starts in (T + 1 min, T + 30 min].
    @Test func labelsAreTheColdLaunchesOfTheNextWindow() {
        let device = Self.device(days: 10)
        let colds = device.coldLaunches(gap: 30 * 60_000)
        var positives = 0
        device.launchFeatureRows(everyMinutes: 10) { row in
            let expected = colds[row.app]!.contains { $0 > row.time + 60_000 && $0 <= row.time + 30 * 60_000 }
            #expect(row.label == expected)
            if row.label { positives += 1 }
        }
        #expect(positives > 20)
    }
}
