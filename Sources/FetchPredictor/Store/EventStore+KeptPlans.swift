import Foundation
import GRDB

extension EventStore {
    /// A read by indexes, on the caller's thread, as the store's other short reads are.
    public func keptPlanWake(device: String, settings: String, at time: Milliseconds, app: String?) throws
        -> KeptPlanAnswer
    {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT w.deviceId, w.generation,
                            p.generation = w.generation AND p.settings = ? AND p.validFrom <= ? AND ? < p.validUntil
                        FROM keptWake w LEFT JOIN keptPlan p ON p.deviceId = w.deviceId
                        WHERE w.device = ?
                        """, arguments: [settings, time, time, device])
            else { return .notKept(generation: 0) }
            let (id, generation): (Int64, Int64) = (row[0], row[1])
            guard row[2] as Bool? == true else { return .notKept(generation: generation) }
            // The first wake after the time: of the app, within a day, by the app's index.
            let position: Int64?
            if let app {
                position = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT position FROM keptPlanApp WHERE deviceId = ? AND app = ? AND time > ? AND time < ?
                        ORDER BY time, position LIMIT 1
                        """, arguments: [id, app, time, time + Milliseconds(Predictor.lookAhead * 1000)])
            } else {
                position = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT position FROM keptPlanWake WHERE deviceId = ? AND time > ?
                        ORDER BY time, position LIMIT 1
                        """, arguments: [id, time])
            }
            let wake = try position.flatMap {
                try Row.fetchOne(
                    db, sql: "SELECT time, apps FROM keptPlanWake WHERE deviceId = ? AND position = ?",
                    arguments: [id, $0])
            }
            return KeptPlanRows.answer(
                device: device, generation: generation, time: wake?[0], apps: wake?[1], app: app)
        }
    }

    @discardableResult
    public func keepPlan(
        _ plan: DevicePlan, device: String, settings: String, validFrom: Milliseconds, generation: Int64
    ) async throws -> Bool {
        let rows = KeptPlanRows(plan)
        return try await write { db in
            guard
                let id = try Int64.fetchOne(
                    db, sql: "SELECT deviceId FROM keptWake WHERE device = ? AND generation = ?",
                    arguments: [device, generation])
            else { return false }
            try db.execute(sql: "DELETE FROM keptPlanWake WHERE deviceId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM keptPlanApp WHERE deviceId = ?", arguments: [id])
            try db.execute(
                sql: """
                    INSERT INTO keptPlan (deviceId, generation, settings, validFrom, validUntil) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (deviceId) DO UPDATE SET generation = excluded.generation,
                        settings = excluded.settings, validFrom = excluded.validFrom, validUntil = excluded.validUntil
                    """, arguments: [id, generation, settings, validFrom, plan.replan])
            let wake = try db.cachedStatement(
                sql: "INSERT INTO keptPlanWake (deviceId, position, time, apps) VALUES (?, ?, ?, ?)")
            for row in rows.wakes { try wake.execute(arguments: [id, row.position, row.time, row.apps]) }
            let app = try db.cachedStatement(
                sql: "INSERT INTO keptPlanApp (deviceId, app, position, time) VALUES (?, ?, ?, ?)")
            for row in rows.apps { try app.execute(arguments: [id, row.app, row.position, row.time]) }
            return true
        }
    }
}
