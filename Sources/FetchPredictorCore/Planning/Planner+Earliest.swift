import Foundation

extension Planner {
    /// The earliest moment an app may fetch, and what holds it back when that is not now.
    struct Earliest {
        var time: Milliseconds
        var heldBy: WakeReason?
    }

    /// The earliest fetch that the app's interval, counted from its last fetch, and a backoff
    /// after failed fetches allow, from `now` on; planned by chance, not within the last
    /// fetch's window either, which its chance was of.
    func earliestFetch(_ model: AppModel, interval: FetchInterval, floor: Milliseconds, from now: Milliseconds)
        -> Earliest
    {
        var earliest = Earliest(time: now, heldBy: nil)
        if let last = model.lastFetch, last + floor > earliest.time {
            earliest.time = last + floor
            earliest.heldBy = .intervalHeldBack(until: Date(milliseconds: earliest.time), interval: interval)
        }
        // The window, not the interval, holds it then: no reason says the interval does.
        if configuration.planning.byChance, let last = model.lastFetch,
            last + configuration.windowMilliseconds > earliest.time
        {
            earliest = Earliest(time: last + configuration.windowMilliseconds, heldBy: nil)
        }
        if configuration.usesFetchResults, model.consecutiveFailures > 0, let failure = model.lastFailure {
            let wait = min(
                configuration.backoffBase * pow(2, Double(model.consecutiveFailures - 1)), configuration.backoffCap)
            let until = failure + .seconds(wait)
            if until >= earliest.time {
                earliest.time = until
                earliest.heldBy = .backoff(failures: model.consecutiveFailures, until: Date(milliseconds: until))
            }
        }
        return earliest
    }
}
