import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    /// The columns a kept wake is read from, in ``keptWake(_:)``'s order.
    private static let keptColumns = "device, generation, planned_at, valid_until, time, apps"

    private static func keptWake(_ row: PostgresRow) throws -> KeptWake {
        let (device, generation, plannedAt, validUntil, time, apps) = try row.decode(
            (String, Int64, Int64, Int64, Int64?, String?).self)
        return try KeptWake.make(
            device: device, generation: generation, plannedAt: plannedAt, validUntil: validUntil, time: time, apps: apps
        )
    }

    /// The condition on a scope, its value bound in `values`: every scope when `nil`.
    private static func scopeCondition(_ scope: String?, _ values: inout BoundValues) -> String {
        scope.map { "scope = \(values.bind($0))" } ?? "TRUE"
    }

    /// The column a plan's field is kept in.
    private static func column(_ field: PlannedWake.Field) -> String {
        switch field {
        case .plannedAt: "planned_at"
        case .validUntil: "valid_until"
        case .wakeTime: "time"
        }
    }

    /// Conditions on a plan (`PlannedWake.holding(at:)` and the others), as SQL on the kept
    /// wakes' columns, their values bound in `values`.
    private static func sql(_ conditions: [PlannedWake.Condition], _ values: inout BoundValues) -> String {
        var parts: [String] = []
        for condition in conditions {
            parts.append("\(column(condition.field)) \(condition.comparison.rawValue) \(values.bind(condition.value))")
        }
        return parts.joined(separator: " AND ")
    }

    public func keptWake(device: String) async throws -> KeptWake? {
        try await read { db in
            let rows = try await db.rows(
                "SELECT \(unescaped: Self.keptColumns) FROM kept_wake WHERE device = \(device)")
            return try rows.first.map(Self.keptWake)
        }
    }

    public func keepWake(_ planned: PlannedWake, device: String, generation: Int64) async throws -> Bool {
        try await read { db in try await Self.keep(planned, device: device, generation: generation, db) }
    }

    public func keepWakes(_ plans: [KeptWake]) async throws -> Int {
        try await transaction { db in
            var kept = 0
            for plan in plans
            where try await Self.keep(plan.planned, device: plan.device, generation: plan.generation, db) {
                kept += 1
            }
            return kept
        }
    }

    /// ``keepWake(_:device:generation:)`` on a connection of the caller's.
    private static func keep(_ planned: PlannedWake, device: String, generation: Int64, _ db: Transaction) async throws
        -> Bool
    {
        let apps = planned.wake.map { KeptWake.encodeApps($0.apps) }
        return try await db.changes(
            """
            UPDATE kept_wake SET planned_at = \(planned.plannedAt.milliseconds),
                valid_until = \(planned.validUntil.milliseconds), time = \(planned.wake?.time.milliseconds),
                apps = \(apps)
            WHERE device = \(device) AND generation = \(generation)
            """) > 0
    }

    public func devicesToPlan(scope: String?, at time: Milliseconds, after: String?, limit: Int) async throws
        -> [String]
    {
        var values = BoundValues()
        let scoped = Self.scopeCondition(scope, &values) + " AND device > \(values.bind(after ?? ""))"
        let moved = PlannedWake.moved(at: Date(milliseconds: time))
        let passed = Self.sql([moved.passed], &values)
        let later = Self.sql([moved.plannedLater], &values)
        let limit = values.bind(limit)
        // The two kinds of plans that hold no more, each found by its own index, then ordered: a
        // walk of the names' index filtering every plan, which the planner chose for the LIMIT when
        // it thought many matched, read all 100,000 plans (44 ms) to find none.
        let query = values.query(
            """
            SELECT device FROM (
                SELECT device FROM kept_wake WHERE \(scoped) AND \(passed)
                UNION
                SELECT device FROM kept_wake WHERE \(scoped) AND \(later)
            ) AS moved ORDER BY device LIMIT \(limit)
            """)
        return try await read { db in try await db.rows(query).map { try $0.decode(String.self) } }
    }

    public func plansBehind(at time: Milliseconds) async throws -> (count: Int, since: Milliseconds?) {
        var values = BoundValues()
        let nowhere = values.bind(PlannedWake.heldNowhere)
        let passed = Self.sql([PlannedWake.moved(at: Date(milliseconds: time)).passed], &values)
        let query = values.query(
            "SELECT count(*), min(CASE WHEN valid_until > \(nowhere) THEN valid_until END) FROM kept_wake WHERE \(passed)"
        )
        return try await read { db in
            guard let row = try await db.rows(query).first else { return (0, nil) }
            let (count, since) = try row.decode((Int64, Int64?).self)
            return (Int(count), since)
        }
    }

    /// The condition of the wakes that hold at a time and come before another, after a cursor,
    /// its values bound in `values`.
    private static func dueCondition(
        _ scope: String?, at time: Milliseconds, before: Milliseconds, after: WakeCursor?, _ values: inout BoundValues
    ) -> String {
        let due = PlannedWake.due(at: Date(milliseconds: time), before: Date(milliseconds: before))
        var condition = scopeCondition(scope, &values)
        condition += " AND " + sql(due, &values)
        if let after {
            let afterTime = values.bind(after.time)
            condition += " AND (time > \(afterTime) OR (time = \(afterTime) AND device > \(values.bind(after.device))))"
        }
        return condition
    }

    public func dueWakes(
        scope: String?, at time: Milliseconds, before: Milliseconds, after cursor: WakeCursor?, limit: Int
    )
        async throws -> [KeptWake]
    {
        var values = BoundValues()
        let condition = Self.dueCondition(scope, at: time, before: before, after: cursor, &values)
        let limit = values.bind(limit)
        let query = values.query(
            """
            SELECT \(Self.keptColumns) FROM kept_wake WHERE \(condition)
            ORDER BY time, device LIMIT \(limit)
            """)
        return try await read { db in try await db.rows(query).map(Self.keptWake) }
    }

    public func claimWakes(
        keeping plans: [KeptWake], scope: String?, at time: Milliseconds, before: Milliseconds, limit: Int,
        clock: Milliseconds, leaseUntil: Milliseconds
    ) async throws -> [KeptWake] {
        var values = BoundValues()
        let condition = Self.dueCondition(scope, at: time, before: before, after: nil, &values)
        let (leaseUntil, clock, limit) = (values.bind(leaseUntil), values.bind(clock), values.bind(limit))
        let claim = values.query(
            """
            UPDATE kept_wake SET leased_time = time, leased_generation = generation,
                lease_until = \(leaseUntil)
            WHERE device_id IN (
                SELECT device_id FROM kept_wake
                WHERE \(condition)
                    AND (leased_generation IS DISTINCT FROM generation OR lease_until <= \(clock))
                ORDER BY time, device LIMIT \(limit)
                FOR UPDATE SKIP LOCKED)
            RETURNING \(Self.keptColumns)
            """)
        // In one transaction: the plans, then the claim. Rows another claim holds locked are
        // skipped, not waited for: two claims at once take different wakes, and neither blocks.
        return try await transaction { db in
            for plan in plans {
                _ = try await Self.keep(plan.planned, device: plan.device, generation: plan.generation, db)
            }
            return try await db.rows(claim).map(Self.keptWake).sorted {
                ($0.planned.wake!.time, $0.device) < ($1.planned.wake!.time, $1.device)
            }
        }
    }

    /// Makes every kept plan hold no more, in the caller's transaction: a setting of every device
    /// changed.
    static func planEveryWakeAgain(_ db: Transaction) async throws {
        try await db.changes(
            "UPDATE kept_wake SET valid_until = \(PlannedWake.heldNowhere), generation = generation + 1")
    }

    /// Makes the kept plans of a scope's devices hold no more, in the caller's transaction: a
    /// setting of that scope changed. The store's own scope, `""`, is every scope's fallback, so
    /// its change moves every plan; a tenant's moves its own devices' alone.
    static func planWakesAgain(scope: String, _ db: Transaction) async throws {
        guard !scope.isEmpty else { return try await planEveryWakeAgain(db) }
        try await db.changes(
            """
            UPDATE kept_wake SET valid_until = \(PlannedWake.heldNowhere), generation = generation + 1
            WHERE scope = \(scope)
            """)
    }

    @discardableResult
    public func planWakesWith(settings: String) async throws -> Bool {
        try await transaction { db in
            let stored = try await db.value(
                "SELECT value FROM store_setting WHERE key = 'wakePlanning' FOR UPDATE", as: String.self)
            guard stored != settings else { return false }
            try await Self.planEveryWakeAgain(db)
            try await db.changes(
                """
                INSERT INTO store_setting (key, value) VALUES ('wakePlanning', \(settings))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
            return true
        }
    }
}
