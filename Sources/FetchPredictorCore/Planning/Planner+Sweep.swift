import Foundation

extension Planner {
    /// The choice of one app's wakes over a horizon, in time order: from the earliest moment
    /// allowed, the first minute whose fetch would serve enough expected cold launches that no
    /// earlier wake serves (weighed by its chance of working and of finding new content) starts a
    /// wake, placed at the best minute within the next half window; the next may come one
    /// interval floor later.
    ///
    /// - Complexity: O(minutes of the horizon), so that a plan made again after every event
    ///   stays cheap.
    struct Sweep {
        var clock: HorizonClock
        /// The value factor of a fetch at each local hour.
        var factors: [Double]
        var content: ContentOutlook
        var configuration: PredictorConfiguration
        /// For an app with constraints, the chance they are met at each minute: a minute below
        /// ``Planner/leastConstraintChance`` takes no wake, and a wake is worth its chance.
        var constraintChances: [ConstraintChances]? = nil
        /// What a wake is worth at each minute for the battery (``Planner/batteryWorth(from:to:)``).
        var batteryWorth: [Double]? = nil
        /// The calibration the rates were scaled by: the budget's threshold is scaled alike, so
        /// that a wake is chosen on the forecast before calibration. A correction learned from
        /// the wakes a budget made would otherwise change which wakes that budget makes, and a
        /// higher budget could make fewer (issue 72: Lyon 282 fetches at 0.905, 200 at 0.91).
        var correction = 1.0

        var window: Int { configuration.windowMinutes }
        var lead: Int { configuration.leadMinutes }

        /// A chosen wake, before its reasons.
        struct Choice {
            var index: Int
            /// The cold launches it serves: those expected from its lead, or after `servedBefore`, to
            /// the end of its window.
            var expected: Double
            /// The last minute whose launches the app's wake before serves (−1 when none):
            /// this one serves from its lead or the minute after, whichever is later.
            var servedBefore: Int
            var newContentChance: Double
        }

        /// The wakes chosen from expected cold launches per minute, in time order.
        ///
        /// - Parameters:
        ///   - rates: expected cold launches per minute of the horizon, at least a window past
        ///     `planMinutes`.
        ///   - firstIndex: the earliest minute a wake may take.
        ///   - planMinutes: the minutes planned.
        ///   - floorMinutes: the least distance between two wakes, in minutes.
        func choose(rates: [Double], from firstIndex: Int, planMinutes: Int, floorMinutes: Int) -> [Choice] {
            var prefix = [Double](repeating: 0, count: rates.count + 1)
            for index in rates.indices { prefix[index + 1] = prefix[index] + rates[index] }
            let lastIndex = min(planMinutes, clock.count - window - 1)
            let threshold = configuration.threshold * correction
            var choices: [Choice] = []
            // Wakes per local day, by the day's offset from the horizon's first.
            let firstDay = clock.localDay.first ?? 0
            var perDay = [Int](repeating: 0, count: Int((clock.localDay.last ?? 0) - firstDay) + 2)
            var coveredUntil = -1
            var previous: Int?
            /// The launches a wake at `index` serves that no earlier wake serves, and its value;
            /// the chance of new content (at most 1) is weighed only when the rest could beat `floor`.
            func weigh(_ index: Int, above floor: Double) -> (expected: Double, chance: Double, value: Double) {
                let from = max(index + lead, coveredUntil + 1)
                let expected = from > index + window ? 0 : prefix[index + window + 1] - prefix[from]
                let met = constraintChances?[index].all ?? 1
                guard met >= Planner.leastConstraintChance else { return (expected, 1, 0) }
                let worth = batteryWorth?[index] ?? 1
                let upper = expected * factors[Int(clock.minuteOfDay[index]) / DayMinute.perHour] * met * worth
                guard upper > 0, upper >= floor else { return (expected, 1, upper) }
                let chance = content.newContentChance(index, lastSelectedBefore: previous)
                return (expected, chance, upper * chance)
            }
            var index = firstIndex
            while index < lastIndex {
                if perDay[Int(clock.localDay[index] - firstDay)] >= configuration.perAppDailyCap {
                    index += 1
                    continue
                }
                var best = (index: index, weight: weigh(index, above: threshold))
                guard best.weight.value >= threshold, best.weight.value > 0 else {
                    index += 1
                    continue
                }
                // The best minute within half a window: a wake that waits a little may catch more.
                var candidate = index + 1
                while candidate < min(lastIndex, index + window / 2),
                    clock.localDay[candidate] == clock.localDay[index]
                {
                    let weight = weigh(candidate, above: best.weight.value)
                    if weight.value > best.weight.value { best = (candidate, weight) }
                    candidate += 1
                }
                // Summed in order over the minutes it serves, not read from the prefix sums,
                // whose rounding depends on the minute the horizon starts from.
                let served = Planner.servedSpan(
                    at: best.index, servedBefore: coveredUntil, minutes: rates.count, configuration)
                choices.append(
                    Choice(
                        index: best.index, expected: Planner.sum(rates, over: served), servedBefore: coveredUntil,
                        newContentChance: best.weight.chance))
                perDay[Int(clock.localDay[best.index] - firstDay)] += 1
                coveredUntil = best.index + window
                previous = best.index
                index = best.index + max(1, floorMinutes)
            }
            return choices
        }
    }
}
