import Foundation

extension Planner {
    /// The chance of a cold launch in the window after each minute, from expected cold launches
    /// per minute: the launches expected from the minute's lead to its window's end, at most 1.
    /// A window holds at most one cold launch of an app (a cold launch comes a whole window after
    /// the app's last launch), so the launches it expects are the chance it holds one.
    static func windowChances(_ rates: [Double], _ configuration: PredictorConfiguration) -> [Double] {
        let (lead, window) = (configuration.leadMinutes, configuration.windowMinutes)
        var prefix = [Double](repeating: 0, count: rates.count + 1)
        for index in rates.indices { prefix[index + 1] = prefix[index] + rates[index] }
        return rates.indices.map { index in
            let first = min(rates.count, index + lead), end = min(rates.count, index + window + 1)
            return min(1, max(0, prefix[end] - prefix[first]))
        }
    }
}

extension Planner.Sweep {
    /// The wakes chosen by the chance of a cold launch in each wake's window, in time order: the
    /// backtest protocol's planner (``WakePlanning/chance``). From the earliest moment allowed, a
    /// wake at the first minute whose chance, weighed as the sweep weighs a wake (its chance of
    /// working, of finding new content, of the state its app asks for), reaches the threshold;
    /// the next a whole window later, or an interval floor when that is longer, so that no two
    /// wakes' windows overlap. With `waits` (``WakePlanning/chanceWaiting``), a minute waits
    /// while a later minute within the window ahead is worth more than 1/0.9 times as much: the
    /// forecast there is the one with nothing happening until then, and the plan is made again at
    /// the next event.
    ///
    /// - Parameters:
    ///   - chances: the chance of a cold launch in the window after each minute, before
    ///     calibration; read a window past `planMinutes` when waiting.
    ///   - rates: expected cold launches per minute, calibrated: what each wake expects.
    /// - Complexity: O(minutes of the horizon), and a window more for each minute that may wait.
    func choose(
        chances: [Double], rates: [Double], from firstIndex: Int, planMinutes: Int, floorMinutes: Int, waits: Bool
    ) -> [Choice] {
        let lastIndex = min(planMinutes, clock.count - window - 1, chances.count - 1)
        let threshold = configuration.threshold
        var choices: [Choice] = []
        let firstDay = clock.localDay.first ?? 0
        var perDay = [Int](repeating: 0, count: Int((clock.localDay.last ?? 0) - firstDay) + 2)
        var previous: Int?
        var coveredUntil = -1
        /// A wake's value at `index`: its chance weighed by what else makes it worth a wake.
        func weigh(_ index: Int) -> (value: Double, contentChance: Double) {
            let met = constraintChances?[index].all ?? 1
            guard met >= Planner.leastConstraintChance else { return (0, 1) }
            let worth = batteryWorth?[index] ?? 1
            let upper = chances[index] * factors[Int(clock.minuteOfDay[index]) / DayMinute.perHour] * met * worth
            guard upper > 0 else { return (0, 1) }
            let contentChance = content.newContentChance(index, lastSelectedBefore: previous)
            return (upper * contentChance, contentChance)
        }
        var index = firstIndex
        while index < lastIndex {
            if perDay[Int(clock.localDay[index] - firstDay)] >= configuration.perAppDailyCap {
                index += 1
                continue
            }
            let weight = weigh(index)
            guard weight.value >= threshold, weight.value > 0 else {
                index += 1
                continue
            }
            if waits {
                let ahead = (index + 1)..<min(chances.count, index + window)
                if ahead.contains(where: { WakePlanning.waitingShare * weigh($0).value > weight.value }) {
                    index += 1
                    continue
                }
            }
            let served = Planner.servedSpan(
                at: index, servedBefore: coveredUntil, minutes: rates.count, configuration)
            choices.append(
                Choice(
                    index: index, expected: Planner.sum(rates, over: served), servedBefore: coveredUntil,
                    newContentChance: weight.contentChance))
            perDay[Int(clock.localDay[index] - firstDay)] += 1
            coveredUntil = index + window
            previous = index
            index += max(1, floorMinutes, window)
        }
        return choices
    }
}
