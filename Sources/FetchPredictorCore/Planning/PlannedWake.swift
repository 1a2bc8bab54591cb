import Foundation

/// The wake a device waits for at a time, with when it was planned and until when it holds:
/// what ``Predictor/plannedWake(asOf:device:)`` gives, and what a store keeps of each device so
/// that a fleet can ask which devices are due without planning each of them.
public struct PlannedWake: Sendable, Hashable {
    /// The wake, or `nil` when none is planned until ``validUntil``.
    public var wake: DeviceWake?
    /// From when the plan holds: the millisecond after the device's last event (as of the event's
    /// own instant it is not known yet), a wake before, or a daily re-plan.
    public var plannedAt: Date
    /// The answer holds for every time from ``plannedAt`` until this one (excluded), as long as no
    /// event or setting of the device changes: the wake's time, or the next re-plan.
    public var validUntil: Date

    /// Creates a value with every field given.
    public init(wake: DeviceWake?, plannedAt: Date, validUntil: Date) {
        self.wake = wake
        self.plannedAt = plannedAt
        self.validUntil = validUntil
    }

    /// Whether the answer holds at `time`: every condition of ``holding(at:)``.
    public func holds(at time: Date) -> Bool { Self.holding(at: time).allSatisfy { $0.admits(self) } }
}

/// When a plan holds, is due, or must be made again, as conditions on its fields: the one place
/// these rules are written. ``PlannedWake/holds(at:)`` evaluates them; each store renders them as
/// SQL on the columns it keeps a plan in, and answers them by its indexes.
extension PlannedWake {
    /// A field of a plan that a condition reads, which a store keeps as a column.
    package enum Field: Sendable, CaseIterable {
        case plannedAt, validUntil
        /// The wake's time; a plan with no wake has none, and no condition on it admits the plan
        /// (as SQL's `NULL` fails every comparison).
        case wakeTime
    }

    /// How a condition compares a field with its value.
    package enum Comparison: String, Sendable {
        case below = "<"
        case atMost = "<="
        case above = ">"
    }

    /// A field compared with a value, in milliseconds.
    package struct Condition: Sendable, Hashable {
        package var field: Field
        package var comparison: Comparison
        package var value: Milliseconds

        package init(_ field: Field, _ comparison: Comparison, _ value: Milliseconds) {
            (self.field, self.comparison, self.value) = (field, comparison, value)
        }

        /// Whether `plan` meets the condition.
        package func admits(_ plan: PlannedWake) -> Bool {
            let stored: Milliseconds?
            switch field {
            case .plannedAt: stored = plan.plannedAt.milliseconds
            case .validUntil: stored = plan.validUntil.milliseconds
            case .wakeTime: stored = plan.wake?.time.milliseconds
            }
            guard let stored else { return false }
            switch comparison {
            case .below: return stored < value
            case .atMost: return stored <= value
            case .above: return stored > value
            }
        }
    }

    /// A plan holds at `time` when it meets all of these: made at or before it, valid after it.
    package static func holding(at time: Date) -> [Condition] {
        [Condition(.plannedAt, .atMost, time.milliseconds), Condition(.validUntil, .above, time.milliseconds)]
    }

    /// A plan holds no more at `time` when it meets either of these, which a store finds each by
    /// its own index: its time passed (or a change made it hold nowhere), or it was made for later.
    package static func moved(at time: Date) -> (passed: Condition, plannedLater: Condition) {
        (Condition(.validUntil, .atMost, time.milliseconds), Condition(.plannedAt, .above, time.milliseconds))
    }

    /// A plan is due when it holds at `time` and its wake comes before `before`.
    package static func due(at time: Date, before: Date) -> [Condition] {
        holding(at: time) + [Condition(.wakeTime, .below, before.milliseconds)]
    }

    /// The ``validUntil`` a store writes, in the transaction of a change, to make a device's plan
    /// hold nowhere until it is made again: no time is before it.
    package static let heldNowhere: Milliseconds = 0
}

/// What a predictor keeps of a device's plan in force: the schedule made
/// (``Predictor/keepPlan(asOf:to:device:)``) and the wake last answered
/// (``Predictor/plannedWake(asOf:device:)``), made as the questions need them, and dropped
/// together by every change that may move the plan.
struct PlanInForce: Sendable {
    var schedule: DevicePlan?
    /// The wake last answered, and the instant of the plan it was searched in.
    var wake: (answer: PlannedWake, plannedAt: Milliseconds)?
}

extension Predictor {
    /// The plan in force at `time` (``keepPlan(asOf:to:device:)``), made and kept unless kept,
    /// reaching at least a day past `time`; `nil` for a device the predictor has no model of.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    public mutating func planInForce(asOf time: Date, device: String) throws(PredictorError) -> DevicePlan? {
        try keepPlan(asOf: time, to: time.addingTimeInterval(Self.lookAhead), device: device)
        let (plannedAt, _) = planMoments(asOf: time, device: device)
        guard let kept = plansInForce[device]?.schedule, kept.plannedAt == plannedAt else { return nil }
        return kept
    }

    /// Makes the plan in force at `time` through `end` (at least ``planSpan`` past it) and keeps
    /// it, unless it is kept: the schedules (``plannedSchedule(from:to:device:)``) and the wakes
    /// asked of it until the next change of the device search it.
    public mutating func keepPlan(asOf time: Date, to end: Date, device: String) throws(PredictorError) {
        let (plannedAt, _) = planMoments(asOf: time, device: device)
        let from = Date(milliseconds: plannedAt)
        let to = Date(milliseconds: max(plannedAt + Self.planSpan, end.milliseconds))
        guard keptPlan(device, from: from, to: to) == nil, let model = try planningModel(device) else { return }
        plansInForce[device, default: PlanInForce()].schedule = makePlan(model, device, from: from, to: to)
    }

    /// The wake a device waits for at `time`, by the plan in force then: the day's schedule made
    /// at the device's last launch, fetch or state event up to `time`
    /// (``DeviceModel/lastPlanningTime``), or, a day or more after it, at the last daily
    /// re-plan (which falls at the time of day of that event). Its first wake after `time`, so
    /// that asking again at any time until that wake gives the same wake, and a store can keep it
    /// (``PlannedWake/validUntil``). Asked at an event's time, it is the wake
    /// ``nextWake(after:device:)`` gives then, the schedule's first.
    ///
    /// The plan is made once a day at most between events, so the work of an answer is bounded
    /// however far `time` is from the last event.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    /// - Complexity: one ``nextWake(after:device:)`` while the plan's first wake is to come and the
    ///   device has no push budget (its plans staged and cached, as after every event), else one
    ///   ``schedule(from:to:device:)`` of two days the first time, kept (``keepPlan(asOf:to:device:)``)
    ///   and searched (linear in its wakes) until the next change.
    public mutating func plannedWake(asOf time: Date, device: String) throws(PredictorError) -> PlannedWake {
        // Asked again while the last answer holds, of the same plan, it is the answer. Only a plan
        // made at an event or a daily re-plan after it is one for every time it holds at; one
        // made at the time asked (no event yet, or events after the time) is not kept.
        let moments = planMoments(asOf: time, device: device)
        let anchored = devices[device]?.lastPlanningTime.map { $0 <= time.milliseconds } ?? false
        if anchored, let kept = plansInForce[device]?.wake, kept.plannedAt == moments.plannedAt,
            kept.answer.holds(at: time)
        {
            return kept.answer
        }
        let planned = try planWake(asOf: time, device: device, moments: moments)
        if anchored { plansInForce[device, default: PlanInForce()].wake = (planned, moments.plannedAt) }
        return planned
    }

    /// ``plannedWake(asOf:device:)``'s answer, planned (or searched in the kept schedule), in
    /// the plan in force at `time` (``planMoments(asOf:device:)``'s).
    private mutating func planWake(
        asOf time: Date, device: String, moments: (plannedAt: Milliseconds, replan: Milliseconds)
    ) throws(PredictorError) -> PlannedWake {
        let (plannedAt, replan) = moments
        // A plan made at an event holds from the next millisecond: as of the event's own instant
        // it is not known yet (`Date.knownThrough`), so a store's kept plan never answers for it.
        let event = plannedAt == devices[device]?.lastPlanningTime
        let heldFrom = Date(milliseconds: event ? plannedAt + 1 : plannedAt)
        // In Low Power Mode no wake is planned, until the event that turns it off.
        if let mode = devices[device]?.lowPowerMode(at: time) {
            return PlannedWake(
                wake: nil, plannedAt: max(Date(milliseconds: mode.since.milliseconds + 1), heldFrom),
                validUntil: Date(milliseconds: replan))
        }
        let span = (from: Date(milliseconds: plannedAt), to: Date(milliseconds: plannedAt + Self.planSpan))
        // The schedule's first wake is nextWake's at the same time (as PlanningStageTests check):
        // while it is to come, it is the answer, found at a fraction of a schedule's work.
        if budgets[device] == nil, keptPlan(device, from: span.from, to: span.to) == nil,
            let first = try nextWake(after: span.from, device: device), first.time > time
        {
            return PlannedWake(
                wake: first, plannedAt: heldFrom, validUntil: Date(milliseconds: min(first.time.milliseconds, replan)))
        }
        // Past it (or under a budget), a search of the whole plan, made once and kept.
        try keepPlan(asOf: time, to: span.to, device: device)
        let wakes = keptPlan(device, from: span.from, to: span.to)?.wakes ?? []
        var from = heldFrom
        for wake in wakes {
            if wake.time > time {
                // A wake past the next re-plan holds until then.
                return PlannedWake(
                    wake: wake, plannedAt: from, validUntil: Date(milliseconds: min(wake.time.milliseconds, replan)))
            }
            from = wake.time
        }
        return PlannedWake(wake: nil, plannedAt: from, validUntil: Date(milliseconds: replan))
    }

    /// The planned device wakes strictly after `start` and before `end`, as the plan in force at
    /// `start` has them (``plannedWake(asOf:device:)``): its first wake is that one, and its
    /// silence is as of `start`.
    ///
    /// - Throws: ``PredictorError/noTimeZone(device:)`` for a device that has policies but no
    ///   time zone.
    public func plannedSchedule(from start: Date, to end: Date, device: String) throws(PredictorError) -> Schedule {
        let (plannedAt, _) = planMoments(asOf: start, device: device)
        // The same span as the wake's, so that the first wake is the same.
        var schedule = try schedule(
            from: start, to: Date(milliseconds: max(plannedAt + Self.planSpan, end.milliseconds)),
            plannedFrom: Date(milliseconds: plannedAt), device: device)
        schedule.to = end
        schedule.wakes.removeAll { $0.time >= end }
        return schedule
    }

    /// How far a plan reaches: past the next re-plan by a day, so that a schedule of a day asked
    /// at any time before the re-plan is one plan.
    static let planSpan = 2 * Milliseconds.seconds(lookAhead)

    /// When the plan in force at `time` was made (the last launch, fetch or state event up to
    /// `time`, or a whole number of days after it), and when the next one is made; `time` itself for a device with
    /// no events.
    private func planMoments(asOf time: Date, device: String) -> (plannedAt: Milliseconds, replan: Milliseconds) {
        let now = time.milliseconds
        let day = Milliseconds.seconds(Self.lookAhead)
        guard let last = devices[device]?.lastPlanningTime, last <= now else { return (now, now + day) }
        let plannedAt = last + (now - last) / day * day
        return (plannedAt, plannedAt + day)
    }
}
