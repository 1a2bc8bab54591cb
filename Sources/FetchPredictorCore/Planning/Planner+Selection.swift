import Foundation

extension Planner {
    /// The greedy choice of one app's wakes over a horizon: again and again, the minute whose
    /// fetch would serve the most expected cold launches that no chosen wake serves yet, weighed
    /// by its chance of working and of finding new content, while that is worth a wake.
    struct Selection {
        var name: String
        var model: AppModel
        var clock: HorizonClock
        /// The value factor of a fetch at each local hour.
        var factors: [Double]
        var content: ContentOutlook
        var profiles: (weekday: DailyProfile, weekend: DailyProfile)
        var configuration: PredictorConfiguration

        var window: Int { Int(configuration.freshnessWindow / 60) }
        var lead: Int { Int((configuration.lead / 60).rounded(.up)) }

        /// The wakes chosen from expected cold launches per minute, in time order.
        ///
        /// - Parameters:
        ///   - rates: expected cold launches per minute of the horizon.
        ///   - firstIndex: the earliest minute a wake may take.
        ///   - planMinutes: the minutes planned.
        ///   - floorMinutes: the least distance between two wakes, in minutes.
        func choose(rates: [Double], from firstIndex: Int, planMinutes: Int, floorMinutes: Int) -> [AppWake] {
            var rates = rates
            var wakes: [AppWake] = []
            var selected: [Int] = []
            var perDay: [Int32: Int] = [:]
            let lastIndex = min(planMinutes, clock.count - window - 1)
            let threshold = configuration.threshold
            var prefix = [Double](repeating: 0, count: clock.count + 1)
            while wakes.count < configuration.perAppDailyCap * (planMinutes / 1440 + 1) {
                for index in 0..<clock.count { prefix[index + 1] = prefix[index] + rates[index] }
                let sorted = selected.sorted()
                var pointer = 0
                var best = -1
                var bestValue = 0.0
                var bestChance = 1.0
                var candidate = firstIndex
                while candidate < lastIndex {
                    if let near = selected.first(where: { abs($0 - candidate) < floorMinutes }) {
                        candidate = near + floorMinutes
                        continue
                    }
                    while pointer < sorted.count, sorted[pointer] < candidate { pointer += 1 }
                    let raw = prefix[candidate + window + 1] - prefix[candidate + lead]
                    let upper = raw * factors[Int(clock.minuteOfDay[candidate]) / 60]
                    if upper > bestValue, upper >= threshold,
                        perDay[clock.localDay[candidate], default: 0] < configuration.perAppDailyCap
                    {
                        let chance = content.newContentChance(
                            candidate, lastSelectedBefore: pointer > 0 ? sorted[pointer - 1] : nil)
                        if upper * chance > bestValue {
                            bestValue = upper * chance
                            bestChance = chance
                            best = candidate
                        }
                    }
                    candidate += 1
                }
                guard best >= 0, bestValue >= threshold, bestValue > 0 else { break }
                selected.append(best)
                perDay[clock.localDay[best], default: 0] += 1
                let expected = prefix[best + window + 1] - prefix[best + lead]
                for index in (best + lead)...(best + window) { rates[index] = 0 }
                wakes.append(
                    AppWake(
                        app: name, plannedTime: Date(milliseconds: clock.time(best)), expectedLaunches: expected,
                        reasons: reasons(at: best, expected: expected, newContentChance: bestChance)))
            }
            return wakes.sorted { $0.plannedTime < $1.plannedTime }
        }

        /// The wakes still worth their cost when walked in time order.
        ///
        /// Greedy picks are made out of time order, so a pick may have counted on new content
        /// that an earlier pick, made after it, will already have fetched. Each wake is weighed
        /// again with the refresh before it, and dropped when no longer worth a wake.
        func dropWakesWithoutNews(_ wakes: [AppWake]) -> [AppWake] {
            var kept: [AppWake] = []
            var previous: Int?
            for wake in wakes {
                let index = Int((wake.plannedTime.milliseconds - clock.start) / 60_000)
                let chance = content.newContentChance(index, lastSelectedBefore: previous)
                let value = wake.expectedLaunches * factors[Int(clock.minuteOfDay[index]) / 60] * chance
                guard value >= configuration.threshold else { continue }
                var updated = wake
                updated.reasons.removeAll { if case .fetchResults = $0 { true } else { false } }
                if model.fetchWeight > 0, chance < 0.9 { updated.reasons.append(.fetchResults(newDataRate: chance)) }
                kept.append(updated)
                previous = index
            }
            return kept
        }
    }
}
