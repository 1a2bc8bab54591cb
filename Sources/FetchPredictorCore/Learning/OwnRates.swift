import Foundation

/// The person's own rates (issue 71): how often a cold launch of an app came in the window after
/// a decision time, counted on the device's own past, in the situations the ``LaunchFeatures``
/// read them in.
///
/// Two kinds of decision rows are counted, as the backtest protocol decides:
/// - **every 2 minutes** (``gridMinutes``) after an app's first launch, by the time since the
///   app's last launch before it, in the buckets of ``bucketEdges``: the app's chance by recency,
///   and, over all buckets, its base rate;
/// - **at every launch of any app**: the app's chance after a launch of each other app (by the
///   launched app, and by it and the quarter of the local day), and at a session's start.
///
/// A row counts only once its window has ended: a row at T when an event at T + 31 minutes or
/// later has been observed (``completed(_:)``). A row's label is 1 when a cold launch of the
/// app came in (T + lead, T + window]. The counts are integers, so that the rates are exact
/// functions of the events observed, whatever order the reads come in.
///
/// The rows every 2 minutes are not walked one by one: between two launches of an app the time
/// since its last launch grows with the clock, so the rows of each bucket are counted by
/// arithmetic (``countRows(from:to:anchor:launches:lead:window:coldGap:total:positive:)``), and an app's rows are
/// folded in at its own launches; ``snapshot(lead:window:coldGap:)`` counts the rest.
///
/// Apps are counted by their place, the order in which the device first launched them
/// (``place``), not by name: learning counts every app that came in each launch row's window,
/// and a name hashed for each of them was most of a device's learning.
struct OwnRates: Sendable, Hashable, Codable {
    /// The minutes between two rows of the grid.
    static let gridMinutes = 2
    /// The lower edges of the recency buckets, in minutes since the app's last launch: a row
    /// belongs to the last bucket whose edge it reached.
    static let bucketEdges: [Int] = [0, 1, 5, 15, 25, 30, 35, 45, 60, 90, 120, 180, 300, 480, 720, 1440]
    /// The minutes after a row at which its window counts as ended.
    static let completionMinutes = 31

    /// What is counted of one app.
    struct AppCounts: Sendable, Hashable, Codable {
        /// Grid rows before this instant are counted in ``total`` and ``positive``.
        var foldedUntil: Milliseconds
        /// The app's last launch before ``foldedUntil``.
        var anchor: Milliseconds?
        /// The app's launches from ``foldedUntil`` on, oldest first.
        var launches: [Milliseconds]
        /// Grid rows by recency bucket, and those whose window held a cold launch.
        var total = [Int](repeating: 0, count: OwnRates.bucketEdges.count)
        var positive = [Int](repeating: 0, count: OwnRates.bucketEdges.count)
        /// Launch rows of any app before the app's first launch, and those that began a session.
        var launchRowsBefore: Int
        var sessionRowsBefore: Int
        /// Completed launch rows whose window held a cold launch of the app: all, those that
        /// began a session, and by the launched app's place, all and by quarter of the day.
        var launchHits = 0
        var sessionHits = 0
        var pairHits = PlaceTable<PairHits>()
        /// Completed launch rows at a launch of this app, all and by quarter of the day.
        var ledRows = 0
        var ledRowsByQuarter = [0, 0, 0, 0]

        /// Counts a completed launch row whose window held a cold launch of the app.
        mutating func countHit(by row: LaunchRow) {
            launchHits += 1
            if row.startsSession { sessionHits += 1 }
            pairHits.update(row.app, from: PairHits()) { $0.count(row.quarter) }
        }

        /// Counts a launch of the app at `time`: first the grid rows complete by then (those
        /// before `time` less ``OwnRates/completionMinutes``) are folded into ``total`` and
        /// ``positive``, keeping the launches after them.
        mutating func countLaunch(
            at time: Milliseconds, lead: Milliseconds, window: Milliseconds, coldGap: Milliseconds
        ) {
            let until = time - .minutes(OwnRates.completionMinutes) + 1
            if until > foldedUntil {
                OwnRates.countRows(
                    from: foldedUntil, to: until, anchor: anchor, launches: launches, lead: lead, window: window,
                    coldGap: coldGap, total: &total, positive: &positive)
                let kept = launches.firstIndex { $0 >= until } ?? launches.endIndex
                if kept > 0 { anchor = launches[kept - 1] }
                launches.removeFirst(kept)
                foldedUntil = until
            }
            launches.append(time)
        }
    }

    /// An app's hits after launches of one other app, the leader: all, and by quarter of the
    /// day; an app keeps them by the leader's place.
    struct PairHits: Sendable, Hashable, Codable {
        var all = 0
        var byQuarter = [0, 0, 0, 0]

        mutating func count(_ quarter: Int) {
            all += 1
            byQuarter[quarter] += 1
        }
    }

    /// A launch row whose window has not ended yet.
    struct LaunchRow: Sendable, Hashable, Codable {
        var time: Milliseconds
        /// The launched app's place.
        var app: Int
        var quarter: Int
        var startsSession: Bool
        /// The places of the apps whose cold launch came in the row's window so far.
        var hits: [Int] = []
    }

    /// Each app's counts, by place, and its name.
    var apps: [AppCounts] = []
    var names: [String] = []
    /// Each app's place, by name.
    var place: [String: Int] = [:]
    var pending: [LaunchRow] = []
    /// Launch rows observed (completed or not), and those that began a session.
    var launchRowsSeen = 0
    var sessionRowsSeen = 0
    /// Completed launch rows, and those that began a session.
    var launchRows = 0
    var sessionRows = 0
    /// The latest event observed: the rows complete by it are counted.
    var observedUntil: Milliseconds?

    /// The bucket of a time since the app's last launch, in milliseconds.
    static func bucket(_ elapsed: Milliseconds) -> Int {
        var bucket = 0
        for (index, edge) in bucketEdges.enumerated() where elapsed >= Milliseconds.minutes(edge) { bucket = index }
        return bucket
    }

    /// Completes the launch rows whose window ended by `time`.
    mutating func completed(_ time: Milliseconds) {
        observedUntil = max(observedUntil ?? time, time)
        let done = pending.prefix { $0.time + .minutes(Self.completionMinutes) <= time }
        guard !done.isEmpty else { return }
        for row in done {
            launchRows += 1
            apps[row.app].ledRows += 1
            apps[row.app].ledRowsByQuarter[row.quarter] += 1
            if row.startsSession { sessionRows += 1 }
            // In place: a copy taken out and put back would copy the app's tables of every
            // other app at each row (three quarters of learning a device of 200 apps).
            for app in row.hits { apps[app].countHit(by: row) }
        }
        pending.removeFirst(done.count)
    }

    /// Counts a launch of the app `name` at `time` (after ``completed(_:)`` at that time): a cold one is
    /// the label of the launch rows before it and of the app's grid rows, and the launch is a
    /// row of its own. Returns the app's place.
    @discardableResult
    mutating func observeLaunch(
        of name: String, at time: Milliseconds, cold: Bool, quarter: Int, startsSession: Bool, lead: Milliseconds,
        window: Milliseconds, coldGap: Milliseconds
    ) -> Int {
        // Counted in place; an app seen for the first time gets the next place.
        let app: Int
        if let known = place[name] {
            app = known
            apps[app].countLaunch(at: time, lead: lead, window: window, coldGap: coldGap)
        } else {
            app = apps.count
            place[name] = app
            names.append(name)
            apps.append(
                AppCounts(
                    foldedUntil: time + 1, anchor: nil, launches: [time], launchRowsBefore: launchRowsSeen,
                    sessionRowsBefore: sessionRowsSeen))
        }
        if cold {
            for index in pending.indices
            where pending[index].time + lead <= time && time <= pending[index].time + window
                && !pending[index].hits.contains(app)
            {
                pending[index].hits.append(app)
            }
        }
        pending.append(LaunchRow(time: time, app: app, quarter: quarter, startsSession: startsSession))
        launchRowsSeen += 1
        if startsSession { sessionRowsSeen += 1 }
        return app
    }

    /// Whether the counts hold together, as bytes read back must: a place for each app and each
    /// name, every place counted in range, and every table of its size.
    var isConsistent: Bool {
        let places = 0..<apps.count
        return names.count == apps.count && place.count == apps.count
            && names.indices.allSatisfy { place[names[$0]] == $0 }
            && apps.allSatisfy { counts in
                counts.total.count == Self.bucketEdges.count && counts.positive.count == Self.bucketEdges.count
                    && counts.ledRowsByQuarter.count == 4
                    && counts.pairHits.isWellFormed(places: places) { $0.byQuarter.count == 4 }
            }
            && pending.allSatisfy {
                places.contains($0.app) && (0..<4).contains($0.quarter) && $0.hits.allSatisfy(places.contains)
            }
    }

    /// Adds the grid rows in [from, to) to `total` and `positive` by recency bucket: the rows
    /// after the app's first launch, each in the bucket of the time since its last launch
    /// before the row, positive when a cold launch came in (row + lead, row + window].
    ///
    /// - Parameters:
    ///   - anchor: the app's last launch before `from`, if any.
    ///   - launches: the app's launches from `from` on, oldest first, with every cold launch up
    ///     to `to` + `window`.
    static func countRows(
        from: Milliseconds, to: Milliseconds, anchor: Milliseconds?, launches: [Milliseconds], lead: Milliseconds,
        window: Milliseconds, coldGap: Milliseconds, total: inout [Int], positive: inout [Int]
    ) {
        guard from < to else { return }
        let step = Milliseconds.minutes(gridMinutes)
        // Grid rows in [lower, upper).
        func rows(_ lower: Milliseconds, _ upper: Milliseconds) -> Int {
            upper <= lower ? 0 : Int(ceilDivide(upper, step) - ceilDivide(lower, step))
        }
        let all = (anchor.map { [$0] } ?? []) + launches
        let edges = bucketEdges.map { Milliseconds.minutes($0) }
        // Between two launches (L, next] the time since the last launch grows with the row.
        for (index, last) in all.enumerated() {
            let lower = max(last + 1, from)
            let upper = min(index + 1 < all.count ? all[index + 1] + 1 : to, to)
            guard lower < upper else { continue }
            for bucket in edges.indices {
                let start = last + edges[bucket]
                let end = bucket + 1 < edges.count ? last + edges[bucket + 1] : Milliseconds.max
                total[bucket] += rows(max(lower, start), min(upper, end))
            }
        }
        // The rows in the window before each cold launch: no launch of the app came between them
        // and it, so the launch before it is theirs.
        for (index, launch) in all.enumerated() where launch >= from {
            let previous = index > 0 ? all[index - 1] : nil
            guard ColdLaunch.isCold(at: launch, previous: previous, gap: coldGap) else { continue }
            var row = ceilDivide(max(launch - window, from), step) * step
            while row <= launch - lead && row < to {
                if let last = all.last(where: { $0 < row }) { positive[bucket(row - last)] += 1 }
                row += step
            }
        }
    }

    /// The integer above `value / divisor`, for a positive divisor.
    static func ceilDivide(_ value: Milliseconds, _ divisor: Milliseconds) -> Milliseconds {
        let quotient = value / divisor
        return value % divisor > 0 ? quotient + 1 : quotient
    }

    /// The rates as of the latest event observed, each shrunk toward a wider one.
    struct Snapshot: Sendable {
        /// One app's rates.
        struct AppRates: Sendable {
            /// The app's chance by recency bucket, shrunk toward the device's pooled one.
            var recency: [Double]
            /// Its base rate over its grid rows.
            var base: Double
            /// Its chance after any launch, the rate its pair rates are shrunk toward.
            var afterLaunch: Double
            /// Its chance after a launch that began a session.
            var sessionStart: Double
        }

        /// Each app's rates, by name: one lookup for all four.
        var apps: [String: AppRates] = [:]

        /// The app's chance after a launch of `leader`, and after one in each quarter of the day.
        func follows(_ app: String, after leader: String, in rates: OwnRates) -> (pair: Double, byQuarter: [Double]) {
            let prior = apps[app]?.afterLaunch ?? OwnRates.launchPrior
            let led = rates.place[leader]
            let hits = led.flatMap { led in rates.place[app].flatMap { rates.apps[$0].pairHits[led] } }
            let rows = led.map { rates.apps[$0].ledRows } ?? 0
            let rowsByQuarter = led.map { rates.apps[$0].ledRowsByQuarter }
            let pair =
                (Double(hits?.all ?? 0) + OwnRates.launchWeight * prior) / (Double(rows) + OwnRates.launchWeight)
            return (
                pair,
                (0..<4).map { quarter in
                    (Double(hits?.byQuarter[quarter] ?? 0) + OwnRates.launchWeight * pair)
                        / (Double(rowsByQuarter?[quarter] ?? 0) + OwnRates.launchWeight)
                }
            )
        }
    }

    /// Each app's grid rows complete by the latest event observed, by recency bucket, and those
    /// whose window held a cold launch: those folded in at its launches and the rest; by place.
    func gridCounts(lead: Milliseconds, window: Milliseconds, coldGap: Milliseconds)
        -> [(total: [Int], positive: [Int])]
    {
        guard let observedUntil else { return [] }
        let until = observedUntil - .minutes(Self.completionMinutes) + 1
        return apps.map { counts in
            var (total, positive) = (counts.total, counts.positive)
            Self.countRows(
                from: counts.foldedUntil, to: until, anchor: counts.anchor, launches: counts.launches, lead: lead,
                window: window, coldGap: coldGap, total: &total, positive: &positive)
            return (total, positive)
        }
    }

    /// The weight, in rows, of the device's pooled rate in an app's rate by recency, and of a
    /// base rate of ``gridPrior`` in the app's base rate; of the pooled bucket's prior.
    static let gridWeight = 50.0
    static let gridPrior = 0.02
    static let pooledWeight = 20.0
    /// The weight, in rows, of a wider rate in the rates counted at launches, and the prior of
    /// an app's chance after any launch.
    static let launchWeight = 5.0
    static let launchPrior = 0.05

    /// The rates as of the latest event observed: the grid rows complete by then counted, those
    /// an app's own launches have not folded in yet included.
    func snapshot(lead: Milliseconds, window: Milliseconds, coldGap: Milliseconds) -> Snapshot {
        var snapshot = Snapshot()
        let counted = gridCounts(lead: lead, window: window, coldGap: coldGap)
        var pooledTotal = [Int](repeating: 0, count: Self.bucketEdges.count), pooledPositive = pooledTotal
        for (total, positive) in counted {
            for bucket in total.indices {
                pooledTotal[bucket] += total[bucket]
                pooledPositive[bucket] += positive[bucket]
            }
        }
        let pooled = pooledTotal.indices.map {
            (Double(pooledPositive[$0]) + Self.gridPrior * Self.pooledWeight)
                / (Double(pooledTotal[$0]) + Self.pooledWeight)
        }
        snapshot.apps.reserveCapacity(counted.count)
        for (app, (total, positive)) in counted.enumerated() {
            let counts = apps[app]
            let afterLaunch =
                (Double(counts.launchHits) + Self.launchWeight * Self.launchPrior)
                / (Double(max(0, launchRows - counts.launchRowsBefore)) + Self.launchWeight)
            snapshot.apps[names[app]] = Snapshot.AppRates(
                recency: total.indices.map {
                    (Double(positive[$0]) + Self.gridWeight * pooled[$0]) / (Double(total[$0]) + Self.gridWeight)
                },
                base: (Double(positive.reduce(0, +)) + Self.gridWeight * Self.gridPrior)
                    / (Double(total.reduce(0, +)) + Self.gridWeight),
                afterLaunch: afterLaunch,
                sessionStart: (Double(counts.sessionHits) + Self.launchWeight * afterLaunch)
                    / (Double(max(0, sessionRows - counts.sessionRowsBefore)) + Self.launchWeight))
        }
        return snapshot
    }
}
