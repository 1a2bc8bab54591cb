/// Reading the frontier by linear interpolation between measured points.
public enum Frontier {
    /// The fresh rate at a number of wakes per app-day.
    public static func fresh(at wakes: Double, _ points: [(wakes: Double, fresh: Double)]) -> Double? {
        let sorted = points.sorted { $0.wakes < $1.wakes }
        guard let first = sorted.first, let last = sorted.last, first.wakes <= wakes, last.wakes >= wakes else {
            return nil
        }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.wakes <= wakes && b.wakes >= wakes {
            if b.wakes == a.wakes { return max(a.fresh, b.fresh) }
            return a.fresh + (b.fresh - a.fresh) * (wakes - a.wakes) / (b.wakes - a.wakes)
        }
        return sorted.first { $0.wakes == wakes }?.fresh
    }

    /// The wakes per app-day at which the frontier first reaches a fresh rate.
    public static func wakes(forFresh target: Double, _ points: [(wakes: Double, fresh: Double)]) -> Double? {
        let sorted = points.sorted { $0.wakes < $1.wakes }
        if let first = sorted.first, first.fresh >= target { return first.wakes }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.fresh < target && b.fresh >= target {
            return a.wakes + (b.wakes - a.wakes) * (target - a.fresh) / (b.fresh - a.fresh)
        }
        return nil
    }
}
