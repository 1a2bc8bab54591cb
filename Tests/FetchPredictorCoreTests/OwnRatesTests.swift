import Foundation
import Testing

@testable import FetchPredictorCore

/// The person's own rates (issue 71, step 2): the rows every 2 minutes counted by arithmetic
/// equal the rows walked one by one, a row counts only once its window ended, and the rates
/// after a launch find the app that follows another.
struct OwnRatesTests {
    static let minute = Milliseconds.perMinute
    static let lead = minute, window = 30 * minute, gap = 30 * minute

    /// The rows of the grid in [from, to) walked one by one: each row's bucket by the time since
    /// the app's last launch before it, positive when a cold launch came in [row + 1, row + 30] min.
    static func walked(launches: [Milliseconds], from: Milliseconds, to: Milliseconds) -> (
        total: [Int], positive: [Int]
    ) {
        var total = [Int](repeating: 0, count: OwnRates.bucketEdges.count), positive = total
        let colds = launches.indices.filter { $0 == 0 || launches[$0] - launches[$0 - 1] >= gap }.map { launches[$0] }
        let step = Milliseconds(OwnRates.gridMinutes) * minute
        var row = OwnRates.ceilDivide(from, step) * step
        while row < to {
            if let last = launches.last(where: { $0 < row }) {
                let bucket = OwnRates.bucket(row - last)
                total[bucket] += 1
                if colds.contains(where: { $0 >= row + lead && $0 <= row + window }) { positive[bucket] += 1 }
            }
            row += step
        }
        return (total, positive)
    }

    /// Launches of one app over a few days, at random gaps from seconds to a day.
    static func launches(seed: UInt64, count: Int) -> [Milliseconds] {
        var random = SeededGenerator(seed: seed)
        var time: Milliseconds = 1_704_067_200_000 + Milliseconds(random.next() % 100_000)
        var result: [Milliseconds] = []
        for _ in 0..<count {
            result.append(time)
            let gaps: [Milliseconds] = [20_000, 4 * minute, 29 * minute, 30 * minute, 47 * minute, 3 * 60 * minute]
            time += gaps[Int(random.next() % UInt64(gaps.count))] + Milliseconds(random.next() % 200_000)
        }
        return result
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func rowsCountedByArithmeticEqualRowsWalked(seed: UInt64) {
        let launches = Self.launches(seed: seed, count: 60)
        let from = launches[0] + 1, to = launches.last! + 40 * Self.minute
        var total = [Int](repeating: 0, count: OwnRates.bucketEdges.count), positive = total
        OwnRates.countRows(
            from: from, to: to, anchor: nil, launches: launches, lead: Self.lead, window: Self.window,
            coldGap: Self.gap, total: &total, positive: &positive)
        let expected = Self.walked(launches: launches, from: from, to: to)
        #expect(total == expected.total)
        #expect(positive == expected.positive)
        #expect(positive.reduce(0, +) > 0 && total.reduce(0, +) > positive.reduce(0, +))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func rowsFoldedAtEachLaunchEqualRowsWalked(seed: UInt64) {
        // Given one app's launches observed one by one, then another app's launch much later
        let launches = Self.launches(seed: seed, count: 80)
        var rates = OwnRates()
        var previous: Milliseconds?
        for time in launches {
            rates.completed(time)
            rates.observeLaunch(
                of: "news", at: time, cold: ColdLaunch.isCold(at: time, previous: previous, gap: Self.gap),
                quarter: 0, startsSession: false, lead: Self.lead, window: Self.window, coldGap: Self.gap)
            previous = time
        }
        let end = launches.last! + 5 * 60 * Self.minute
        rates.completed(end)
        // The rows complete by the latest event: those 31 minutes or more before it.
        let counts = rates.gridCounts(lead: Self.lead, window: Self.window, coldGap: Self.gap)[rates.place["news"]!]
        let expected = Self.walked(launches: launches, from: launches[0] + 1, to: end - 31 * Self.minute + 1)
        #expect(counts.total == expected.total)
        #expect(counts.positive == expected.positive)
    }

    @Test
    func aRowCountsOnlyOnceItsWindowEnded() throws {
        var rates = OwnRates()
        let start: Milliseconds = 1_704_067_200_000
        for (app, time) in [("mail", start), ("chat", start + 10 * Self.minute)] {
            rates.completed(time)
            rates.observeLaunch(
                of: app, at: time, cold: true, quarter: 0, startsSession: app == "mail", lead: Self.lead,
                window: Self.window, coldGap: Self.gap)
        }
        // 30 minutes after mail's launch its window has not ended by the rule's minute: not counted.
        rates.completed(start + 30 * Self.minute)
        #expect(rates.launchRows == 0)
        rates.completed(start + 31 * Self.minute)
        #expect(rates.launchRows == 1)
        let mail = try #require(rates.place["mail"])
        #expect(rates.counts(of: "chat")?.pairHits[mail]?.all == 1)
        #expect(rates.counts(of: "chat")?.sessionHits == 1)
        #expect(rates.counts(of: "mail")?.pairHits[mail] == nil)
        #expect(rates.counts(of: "mail")?.ledRows == 1)
    }

    @Test
    func countsReadBackOutOfPlaceAreRefused() throws {
        // Given mail then chat five minutes later, twice, counted
        var rates = OwnRates()
        let start: Milliseconds = 1_704_067_200_000
        for (app, time) in [
            ("mail", start), ("chat", start + 5 * Self.minute), ("mail", start + 2 * .perHour),
            ("chat", start + 2 * .perHour + 5 * Self.minute),
        ] {
            rates.completed(time)
            rates.observeLaunch(
                of: app, at: time, cold: true, quarter: 0, startsSession: app == "mail", lead: Self.lead,
                window: Self.window, coldGap: Self.gap)
        }
        #expect(rates.isConsistent)
        let (mail, chat) = (try #require(rates.place["mail"]), try #require(rates.place["chat"]))
        #expect(rates.counts(of: "chat")?.pairHits[mail]?.all == 1)
        // Then counts naming a place no app has, or a name at another place, are refused
        var outOfRange = rates
        outOfRange.apps[chat].pairHits.update(7, from: OwnRates.PairHits()) { $0.count(0) }
        #expect(!outOfRange.isConsistent)
        var pendingOutOfRange = rates
        pendingOutOfRange.pending[0].hits.append(2)
        #expect(!pendingOutOfRange.isConsistent)
        var swapped = rates
        swapped.names.swapAt(mail, chat)
        #expect(!swapped.isConsistent)
    }

    @Test
    func theAppThatFollowsAnotherIsFound() throws {
        // Given a week where chat is opened 5 minutes after mail, and news alone at other times
        var tracker = FeatureTracker(timeZone: TimeZone(identifier: "UTC")!)
        let start: Milliseconds = 1_704_067_200_000
        for day in 0..<7 {
            let base = start + Milliseconds(day) * .perDay
            for hour in [8, 13, 19] {
                let time = base + Milliseconds(hour) * .perHour
                tracker.observe(Event(kind: .launch, app: "mail", time: time))
                tracker.observe(Event(kind: .launch, app: "chat", time: time + 5 * Self.minute))
                tracker.observe(Event(kind: .launch, app: "news", time: time + 3 * .perHour))
            }
        }
        let last = start + 7 * .perDay + 8 * .perHour
        tracker.observe(Event(kind: .launch, app: "mail", time: last))
        let chat = tracker.features(of: "chat", at: last + Self.minute)
        let news = tracker.features(of: "news", at: last + Self.minute)
        // Then chat's chance after mail is near every time, news' near none
        #expect(chat.followRate > 0.7)
        #expect(news.followRate < 0.2)
        #expect(chat.followRateByQuarter > 0.5)
        #expect(chat.baseRate > 0 && chat.baseRate < 0.2)
        // and chat's chance a few minutes after its own launch is low: it comes once after mail
        #expect(chat.recencyRate < news.recencyRate + 0.5)
    }
}

extension OwnRates {
    /// The counts of an app, by name; none before its first launch.
    func counts(of app: String) -> AppCounts? { place[app].map { apps[$0] } }
}
