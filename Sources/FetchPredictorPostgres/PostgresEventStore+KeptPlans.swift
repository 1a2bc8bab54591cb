import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func keptPlanWake(device name: String, settings: String, at time: Milliseconds, app: String?) async throws
        -> KeptPlanAnswer
    {
        var values = BoundValues()
        let (at, device) = (values.bind(time), values.bind(name))
        // The first wake after the time: of the app, within a day, by the app's index.
        let first: String
        if let app {
            let end = time + Milliseconds(Predictor.lookAhead * 1000)
            first = """
                SELECT position FROM kept_plan_app
                WHERE device_id = p.device_id AND app = \(values.bind(app)) AND time > \(at) AND time < \(values.bind(end))
                ORDER BY time, position LIMIT 1
                """
        } else {
            first = """
                SELECT position FROM kept_plan_wake WHERE device_id = p.device_id AND time > \(at)
                ORDER BY time, position LIMIT 1
                """
        }
        let query = values.query(
            """
            WITH p AS (
                SELECT w.device_id, w.generation, coalesce(k.generation = w.generation
                    AND k.settings = \(values.bind(settings)) AND k.valid_from <= \(at) AND \(at) < k.valid_until,
                    FALSE) AS holds
                FROM kept_wake w LEFT JOIN kept_plan k ON k.device_id = w.device_id
                WHERE w.device = \(device)
            )
            SELECT p.generation, p.holds, x.time, x.apps FROM p LEFT JOIN kept_plan_wake x
                ON p.holds AND x.device_id = p.device_id AND x.position = (\(first))
            """)
        return try await read { db in
            guard let row = try await db.rows(query).first else { return .notKept(generation: 0) }
            let (generation, holds, wakeTime, apps) = try row.decode((Int64, Bool, Int64?, String?).self)
            guard holds else { return .notKept(generation: generation) }
            return KeptPlanRows.answer(device: name, generation: generation, time: wakeTime, apps: apps, app: app)
        }
    }

    @discardableResult
    public func keepPlan(
        _ plan: DevicePlan, device: String, settings: String, validFrom: Milliseconds, generation: Int64
    ) async throws -> Bool {
        let rows = KeptPlanRows(plan)
        // The device's kept wake locked: two processes keeping its plan take turns.
        return try await transaction { db in
            guard
                let id = try await db.value(
                    """
                    SELECT device_id FROM kept_wake WHERE device = \(device) AND generation = \(generation)
                    FOR UPDATE
                    """,
                    as: Int64.self)
            else { return false }
            try await db.changes("DELETE FROM kept_plan_wake WHERE device_id = \(id)")
            try await db.changes("DELETE FROM kept_plan_app WHERE device_id = \(id)")
            try await db.changes(
                """
                INSERT INTO kept_plan (device_id, generation, settings, valid_from, valid_until)
                VALUES (\(id), \(generation), \(settings), \(validFrom), \(plan.replan))
                ON CONFLICT (device_id) DO UPDATE SET generation = excluded.generation,
                    settings = excluded.settings, valid_from = excluded.valid_from, valid_until = excluded.valid_until
                """)
            let (positions, times, apps) = (rows.wakes.map(\.position), rows.wakes.map(\.time), rows.wakes.map(\.apps))
            try await db.changes(
                """
                INSERT INTO kept_plan_wake (device_id, position, time, apps)
                SELECT \(id), p, t, a FROM unnest(\(positions)::BIGINT[], \(times)::BIGINT[], \(apps)::TEXT[]) AS x(p, t, a)
                """)
            let (names, appPositions, appTimes) = (
                rows.apps.map(\.app), rows.apps.map(\.position), rows.apps.map(\.time)
            )
            try await db.changes(
                """
                INSERT INTO kept_plan_app (device_id, app, position, time)
                SELECT \(id), a, p, t FROM unnest(\(names)::TEXT[], \(appPositions)::BIGINT[], \(appTimes)::BIGINT[])
                    AS x(a, p, t)
                """)
            return true
        }
    }
}
