import Foundation

extension Planner {
    /// Groups app wakes into device wakes: an app wake joins the device wake before it when that
    /// is at most the coalescing window earlier, keeps enough of its value, and breaks no interval.
    func coalesce(_ plans: [String: AppPlan], device name: String, from: Date, to: Date) -> [DeviceWake] {
        var all = plans.values.flatMap(\.wakes).filter { $0.plannedTime > from && $0.plannedTime < to }
        all.sort { ($0.plannedTime, $0.app) < ($1.plannedTime, $1.app) }
        var lastTime: [String: Milliseconds] = [:]
        var deviceWakes: [DeviceWake] = []
        for wake in all {
            let plan = plans[wake.app]!
            let planned = wake.plannedTime.milliseconds
            if var current = deviceWakes.last, !current.apps.contains(where: { $0.app == wake.app }),
                mayJoin(plan, planned: planned, at: current.time.milliseconds, lastTime: lastTime[wake.app])
            {
                let anchor = current.time.milliseconds
                current.apps.append(anchor == planned ? wake : moved(wake, of: plan, to: anchor))
                deviceWakes[deviceWakes.count - 1] = current
                lastTime[wake.app] = anchor
                continue
            }
            deviceWakes.append(DeviceWake(device: name, time: wake.plannedTime, apps: [wake]))
            lastTime[wake.app] = planned
        }
        return capPerDay(namingCoalesced(deviceWakes))
    }

    /// Whether an app's wake planned at `planned` may join the device wake at `anchor`: at most
    /// the coalescing window earlier, keeping enough of its value, its interval since the app's
    /// last wake (`lastTime`) and its chance of the state it needs.
    private func mayJoin(_ plan: AppPlan, planned: Milliseconds, at anchor: Milliseconds, lastTime: Milliseconds?)
        -> Bool
    {
        guard planned - anchor <= configuration.coalescingMilliseconds else { return false }
        let keepsValue =
            plan.coldStart || anchor == planned
            || coalescingValue(plan, at: anchor) >= configuration.coalescingMinimumValue
                * coalescingValue(plan, at: planned)
        let keepsInterval = anchor >= plan.earliest && anchor - (lastTime ?? .min / 2) >= plan.floor
        let keepsState =
            plan.constraintChances.map { $0[clockIndex(anchor)].all >= Self.leastConstraintChance } ?? true
        return keepsValue && keepsInterval && keepsState
    }

    /// A wake's value at a time, as coalescing weighs it: the launches its window expects, by the
    /// value of a fetch at that hour.
    private func coalescingValue(_ plan: AppPlan, at time: Milliseconds) -> Double {
        let window = configuration.windowMinutes, lead = configuration.leadMinutes
        let index = time.minutes(since: clock.start)
        guard index >= 0, index + window < plan.rates.count else { return 0 }
        var sum = 0.0
        for minute in (index + lead)...(index + window) { sum += plan.rates[minute] }
        return sum * plan.factors[Int(clock.minuteOfDay[index]) / DayMinute.perHour]
    }

    /// The minute of the plan's clock that holds a time, within the clock.
    private func clockIndex(_ time: Milliseconds) -> Int {
        max(0, min(clock.count - 1, time.minutes(since: clock.start)))
    }

    /// An app wake moved earlier to `anchor` to share a device wake: its expected launches are
    /// those it serves from there, named by what expects them, and its other reasons are true of
    /// the new time (``movedReasons(_:plannedMinute:by:parts:)``), the state it counts on read at it.
    private func moved(_ wake: AppWake, of plan: AppPlan, to anchor: Milliseconds) -> AppWake {
        var wake = wake
        let planned = wake.plannedTime.milliseconds
        let anchorIndex = clockIndex(anchor)
        var parts: [WakeReason] = []
        // A cold start's wake expects as much at any time of the day: it keeps its figure.
        if !plan.coldStart {
            let span = Self.servedSpan(
                at: anchorIndex, servedBefore: plan.servedBefore[planned] ?? -1, minutes: plan.rates.count,
                configuration)
            let total = Self.sum(plan.rates, over: span)
            let returning = Self.sum(plan.returning, over: span)
            wake.expectedLaunches = total
            if plan.namesParts {
                parts = partReasons(
                    (usual: max(0, total - returning), returning: returning), at: anchorIndex,
                    lastLaunch: plan.lastLaunch)
            }
        }
        wake.reasons = movedReasons(
            wake.reasons, plannedMinute: Int(clock.minuteOfDay[clockIndex(planned)]), by: planned - anchor,
            parts: parts)
        if let chance = plan.constraintChances?[anchorIndex] {
            wake.reasons = wake.reasons.map {
                guard case .requiredState = $0 else { return $0 }
                return .requiredState(
                    onPower: chance.power, unmetered: chance.unmetered, batteryNotLow: chance.batteryNotLow)
            }
        }
        return wake
    }

    /// Each app of a device wake shared by several names the others it shares it with.
    private func namingCoalesced(_ wakes: [DeviceWake]) -> [DeviceWake] {
        var wakes = wakes
        for index in wakes.indices where wakes[index].apps.count > 1 {
            let names = wakes[index].apps.map(\.app)
            for appIndex in wakes[index].apps.indices {
                let others = names.filter { $0 != wakes[index].apps[appIndex].app }
                wakes[index].apps[appIndex].reasons.append(.coalesced(with: others))
            }
        }
        return wakes
    }

    /// The index of the first wake after a time, in wakes sorted by time.
    static func firstIndex(_ wakes: [AppWake], after time: Date) -> Int? {
        let after = wakes.partitioningIndex { $0.plannedTime > time }
        return after < wakes.count ? after : nil
    }

    /// Drops the least valuable device wakes of any local day over the device's daily cap.
    func capPerDay(_ wakes: [DeviceWake]) -> [DeviceWake] {
        var byDay: [Int32: [Int]] = [:]
        for (index, wake) in wakes.enumerated() {
            let minute = wake.time.milliseconds.minutes(since: clock.start)
            let day = clock.localDay[max(0, min(clock.count - 1, minute))]
            byDay[day, default: []].append(index)
        }
        var dropped = Set<Int>()
        for indices in byDay.values where indices.count > configuration.perDeviceDailyCap {
            let ranked = indices.sorted {
                wakes[$0].apps.reduce(0) { $0 + $1.expectedLaunches }
                    > wakes[$1].apps.reduce(0) { $0 + $1.expectedLaunches }
            }
            dropped.formUnion(ranked.dropFirst(configuration.perDeviceDailyCap))
        }
        return wakes.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// Keeps at most `perHour` device wakes in any rolling hour (a push budget): the wakes worth
    /// the most expected launches first, each kept when no hour that holds it would then hold
    /// more; the first wake kept after wakes held back says how many, in its reasons. `past`, the
    /// times of wakes carried out before the plan, count in every hour that holds them.
    static func capPerHour(_ wakes: [DeviceWake], perHour: Int, after past: [Milliseconds] = []) -> [DeviceWake] {
        guard perHour > 0, wakes.count + past.count > perHour else { return perHour > 0 ? wakes : [] }
        let hour = Milliseconds.perHour
        let times = wakes.map(\.time.milliseconds)
        let ranked = wakes.indices.sorted {
            let (left, right) = (
                wakes[$0].apps.reduce(0) { $0 + $1.expectedLaunches },
                wakes[$1].apps.reduce(0) { $0 + $1.expectedLaunches }
            )
            return left != right ? left > right : $0 < $1
        }
        var kept = past.sorted()  // sorted; the wakes carried out before count, and are never given
        var keep = Set<Int>()
        for index in ranked {
            let time = times[index]
            // Every hour [start, start + 1 h) that holds `time` starts at a kept wake's time or at
            // `time` itself, at most an hour before it: count each such hour with it.
            let near = kept.filter { $0 > time - hour && $0 < time + hour }
            let starts = near.filter { $0 <= time } + [time]
            let fits = starts.allSatisfy { start in
                near.filter { $0 >= start && $0 < start + hour }.count + 1 <= perHour
            }
            if fits {
                keep.insert(index)
                kept.insert(time, at: kept.firstIndex { $0 > time } ?? kept.count)
            }
        }
        var result: [DeviceWake] = []
        var heldBack = 0
        for (index, wake) in wakes.enumerated() {
            guard keep.contains(index) else {
                heldBack += 1
                continue
            }
            var wake = wake
            if heldBack > 0 {
                for app in wake.apps.indices {
                    wake.apps[app].reasons.append(.budget(wakesPerHour: perHour, heldBack: heldBack))
                }
                heldBack = 0
            }
            result.append(wake)
        }
        return result
    }

    /// The reasons of a wake moved earlier by `shift` to share a device wake: a peak outside
    /// the new time's lead and window is no reason of it any more; the parts of its expected
    /// launches are those it serves from the new time (`parts`, from ``partReasons(_:at:lastLaunch:)``);
    /// the launch model's chance, read for the planned window, is no reason of the earlier one.
    func movedReasons(
        _ reasons: [WakeReason], plannedMinute: Int, by shift: Milliseconds, parts: [WakeReason]
    ) -> [WakeReason] {
        let minutes = Int(shift / .perMinute)
        let window = configuration.windowMinutes
        let lead = configuration.leadMinutes
        var kept: [WakeReason] = []
        var partsAt: Int?
        for reason in reasons {
            switch reason {
            case .peak(let minute, _, _):
                let ahead = DayMinute.ahead(from: plannedMinute, to: minute) + minutes
                if ahead >= lead && ahead <= window { kept.append(reason) }
            case .returning, .usualTime:
                partsAt = partsAt ?? kept.count
            case .launchModel, .forecast:
                // The chance was of the planned window, not of the earlier one.
                continue
            default:
                kept.append(reason)
            }
        }
        kept.insert(contentsOf: parts, at: partsAt ?? kept.count)
        kept.append(.movedEarlier(seconds: Double(shift) / Double(Milliseconds.perSecond)))
        return kept
    }
}
