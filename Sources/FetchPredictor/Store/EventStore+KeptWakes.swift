import Foundation
import GRDB

extension EventStore {
    /// The columns a kept wake is read from, in ``keptWake(_:)``'s order.
    private static let keptColumns = "device, generation, plannedAt, validUntil, time, apps"

    private static func keptWake(_ row: Row) throws -> KeptWake {
        try KeptWake.make(
            device: row[0], generation: row[1], plannedAt: row[2], validUntil: row[3], time: row[4], apps: row[5])
    }

    /// The column a plan's field is kept in.
    private static func column(_ field: PlannedWake.Field) -> String {
        switch field {
        case .plannedAt: "plannedAt"
        case .validUntil: "validUntil"
        case .wakeTime: "time"
        }
    }

    /// Conditions on a plan (`PlannedWake.holding(at:)` and the others), as SQL on the kept wakes'
    /// columns and its arguments.
    private static func sql(_ conditions: [PlannedWake.Condition]) -> (sql: String, arguments: StatementArguments) {
        let sql: String = conditions.map { "\(column($0.field)) \($0.comparison.rawValue) ?" }.joined(
            separator: " AND ")
        return (sql, StatementArguments(conditions.map(\.value)))
    }

    /// The condition on `scope`, as SQL and its argument.
    private static func scopeCondition(_ scope: String?) -> (sql: String, arguments: StatementArguments) {
        guard let scope else { return ("1", []) }
        return ("scope = ?", [scope])
    }

    public func keptWake(device: String) throws -> KeptWake? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.keptColumns) FROM keptWake WHERE device = ?", arguments: [device])
                .map(Self.keptWake)
        }
    }

    public func keepWake(_ planned: PlannedWake, device: String, generation: Int64) async throws -> Bool {
        try await write { db in try Self.keep(planned, device: device, generation: generation, db) }
    }

    public func keepWakes(_ plans: [KeptWake]) async throws -> Int {
        try await write { db in
            try plans.reduce(0) {
                $0 + (try Self.keep($1.planned, device: $1.device, generation: $1.generation, db) ? 1 : 0)
            }
        }
    }

    /// ``keepWake(_:device:generation:)`` in a transaction of the caller's.
    private static func keep(_ planned: PlannedWake, device: String, generation: Int64, _ db: Database) throws -> Bool {
        try db.execute(
            sql: """
                UPDATE keptWake SET plannedAt = ?, validUntil = ?, time = ?, apps = ?
                WHERE device = ? AND generation = ?
                """,
            arguments: [
                planned.plannedAt.milliseconds, planned.validUntil.milliseconds,
                planned.wake?.time.milliseconds, planned.wake.map { KeptWake.encodeApps($0.apps) }, device,
                generation,
            ])
        return db.changesCount > 0
    }

    public func devicesToPlan(scope: String?, at time: Milliseconds, after: String?, limit: Int) throws -> [String] {
        let (condition, arguments) = Self.scopeCondition(scope)
        let moved = PlannedWake.moved(at: Date(milliseconds: time))
        let (passed, passedArguments) = Self.sql([moved.passed])
        let (later, laterArguments) = Self.sql([moved.plannedLater])
        // The two kinds of plans that hold no more, each found by its own index, then ordered:
        // not a walk of the names' index that filters every plan to find the few.
        return try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT device FROM (
                        SELECT device FROM keptWake WHERE \(condition) AND device > ? AND \(passed)
                        UNION
                        SELECT device FROM keptWake WHERE \(condition) AND device > ? AND \(later)
                    ) ORDER BY device LIMIT ?
                    """,
                arguments: arguments + [after ?? ""] + passedArguments + arguments + [after ?? ""] + laterArguments
                    + [limit])
        }
    }

    public func plansBehind(at time: Milliseconds) throws -> (count: Int, since: Milliseconds?) {
        let (passed, arguments) = Self.sql([PlannedWake.moved(at: Date(milliseconds: time)).passed])
        return try read { db in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT count(*), min(CASE WHEN validUntil > ? THEN validUntil END) FROM keptWake WHERE \(passed)",
                arguments: [PlannedWake.heldNowhere] + arguments)
            return (row?[0] ?? 0, row?[1])
        }
    }

    /// The SQL of the wakes that hold at a time and come before another, after a cursor.
    private static func dueCondition(_ scope: String?, at time: Milliseconds, before: Milliseconds, after: WakeCursor?)
        -> (sql: String, arguments: StatementArguments)
    {
        let (condition, arguments) = scopeCondition(scope)
        let (due, dueArguments) = sql(PlannedWake.due(at: Date(milliseconds: time), before: Date(milliseconds: before)))
        let cursor = after.map { _ in " AND (time > ? OR (time = ? AND device > ?))" } ?? ""
        let cursorArguments: StatementArguments = after.map { [$0.time, $0.time, $0.device] } ?? []
        return ("\(condition) AND \(due)\(cursor)", arguments + dueArguments + cursorArguments)
    }

    public func dueWakes(
        scope: String?, at time: Milliseconds, before: Milliseconds, after cursor: WakeCursor?, limit: Int
    )
        throws -> [KeptWake]
    {
        let (condition, arguments) = Self.dueCondition(scope, at: time, before: before, after: cursor)
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.keptColumns) FROM keptWake WHERE \(condition) ORDER BY time, device LIMIT ?",
                arguments: arguments + [limit]
            ).map(Self.keptWake)
        }
    }

    public func claimWakes(
        keeping plans: [KeptWake], scope: String?, at time: Milliseconds, before: Milliseconds, limit: Int,
        clock: Milliseconds, leaseUntil: Milliseconds
    ) async throws -> [KeptWake] {
        // Under the one write lock: the plans, then the rows chosen and leased in one statement.
        try await write { db in
            let (condition, arguments) = Self.dueCondition(scope, at: time, before: before, after: nil)
            for plan in plans { _ = try Self.keep(plan.planned, device: plan.device, generation: plan.generation, db) }
            return try Row.fetchAll(
                db,
                sql: """
                    UPDATE keptWake SET leasedTime = time, leasedGeneration = generation, leaseUntil = ?
                    WHERE deviceId IN (
                        SELECT deviceId FROM keptWake
                        WHERE \(condition) AND (leasedGeneration IS NOT generation OR leaseUntil <= ?)
                        ORDER BY time, device LIMIT ?)
                    RETURNING \(Self.keptColumns)
                    """,
                arguments: [leaseUntil] + arguments + [clock, limit]
            ).map(Self.keptWake).sorted { ($0.planned.wake!.time, $0.device) < ($1.planned.wake!.time, $1.device) }
        }
    }

    /// Makes every kept plan hold no more, in the caller's transaction: a setting of every device
    /// changed.
    static func planEveryWakeAgain(_ db: Database) throws {
        try db.execute(
            sql: "UPDATE keptWake SET validUntil = ?, generation = generation + 1", arguments: [PlannedWake.heldNowhere]
        )
    }

    /// Makes the kept plans of a scope's devices hold no more, in the caller's transaction: a
    /// setting of that scope changed. The store's own scope, `""`, is every scope's fallback, so
    /// its change moves every plan; a tenant's moves its own devices' alone.
    static func planWakesAgain(scope: String, _ db: Database) throws {
        guard !scope.isEmpty else { return try planEveryWakeAgain(db) }
        try db.execute(
            sql: "UPDATE keptWake SET validUntil = ?, generation = generation + 1 WHERE scope = ?",
            arguments: [PlannedWake.heldNowhere, scope])
    }

    @discardableResult
    public func planWakesWith(settings: String) async throws -> Bool {
        try await write { db in
            guard try StoreSettingRecord.value(StoreSettingRecord.wakePlanning, db) != settings else { return false }
            try Self.planEveryWakeAgain(db)
            try StoreSettingRecord(key: StoreSettingRecord.wakePlanning, value: settings).save(db)
            return true
        }
    }
}
