import Foundation
import GRDB

extension EventStore {
    public func takeFreshnessWork(limit: Int, now: Milliseconds, settle: Milliseconds) async throws
        -> [FreshnessWork]
    {
        try await write { db in
            var rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, name, version, freshnessFrom, freshnessThrough FROM device
                    WHERE freshnessFrom IS NOT NULL AND (freshnessTakenAt IS NULL OR freshnessTakenAt <= ?)
                    ORDER BY freshnessFrom, id LIMIT ?
                    """, arguments: [now - settle, limit])
            // A lease that ran out: the pass that took the device died; its whole history is kept.
            rows += try Row.fetchAll(
                db,
                sql: """
                    SELECT id, name, version, \(Milliseconds.min), \(Milliseconds.max) FROM device
                    WHERE freshnessLeaseUntil < ? AND freshnessFrom IS NULL ORDER BY freshnessLeaseUntil, id LIMIT ?
                    """, arguments: [now, limit - rows.count])
            let take = try db.cachedStatement(
                sql: """
                    UPDATE device SET freshnessFrom = NULL, freshnessThrough = NULL, freshnessLeaseUntil = ?,
                        freshnessTakenAt = ?
                    WHERE id = ?
                    """)
            return try rows.map { row in
                let id: Int64 = row[0]
                try take.execute(arguments: [now + FreshnessLedger.lease, now, id])
                let from: Milliseconds = row[3]
                let through: Milliseconds = row[4]
                return FreshnessWork(device: row[1], version: row[2], changed: from...max(from, through))
            }
        }
    }

    public func markFreshness(_ work: FreshnessWork) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE device SET freshnessFrom = coalesce(min(freshnessFrom, ?), ?),
                        freshnessThrough = coalesce(max(freshnessThrough, ?), ?), freshnessLeaseUntil = NULL
                    WHERE name = ?
                    """,
                arguments: [
                    work.changed.lowerBound, work.changed.lowerBound, work.changed.upperBound,
                    work.changed.upperBound, work.device,
                ])
        }
    }

    public func keepFreshness(_ kept: [KeptDays]) async throws -> Int {
        try await write { db in
            try kept.reduce(0) { $0 + (try Self.keep($1, db) ? 1 : 0) }
        }
    }

    /// One device's days, in the caller's transaction.
    private static func keep(_ kept: KeptDays, _ db: Database) throws -> Bool {
        let (device, version, days, rows) = (kept.device, kept.version, kept.days, kept.rows)
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT id, tenant, freshnessVersion FROM device WHERE name = ?", arguments: [device])
        else { return false }
        let (id, tenant, kept): (Int64, String, Int64) = (row[0], row[1], row[2])
        try db.execute(sql: "UPDATE device SET freshnessLeaseUntil = NULL WHERE id = ?", arguments: [id])
        guard kept <= version, let days else { return false }
        let range = "deviceId = \(id) AND day BETWEEN \(days.lowerBound) AND \(days.upperBound)"
        try db.execute(sql: FreshnessSQL.subtract(tenant: "?", where: range), arguments: [tenant])
        try db.execute(sql: "DELETE FROM freshnessDay WHERE \(range)")
        let counts = FreshnessSQL.counts.joined(separator: ", ")
        let marks = Array(repeating: "?", count: FreshnessSQL.counts.count).joined(separator: ", ")
        let insert = try db.cachedStatement(
            sql: "INSERT INTO freshnessDay (deviceId, day, app, strategy, \(counts)) VALUES (?, ?, ?, ?, \(marks))")
        let add = try db.cachedStatement(
            sql: """
                INSERT INTO freshnessTenantDay (tenant, day, app, strategy, \(counts))
                    VALUES (?, ?, ?, ?, \(marks)) \(FreshnessSQL.addToTenant)
                """)
        for row in rows {
            let values: [any DatabaseValueConvertible] =
                [row.day, row.app, row.figures.strategy] + row.figures.keptCounts
            try insert.execute(arguments: StatementArguments([id] + values))
            try add.execute(arguments: StatementArguments([tenant] + values))
        }
        try db.execute(sql: "UPDATE device SET freshnessVersion = ? WHERE id = ?", arguments: [version, id])
        return true
    }

    public func keptFreshness(tenant: String, days: Range<Int>, app: String?) async throws -> KeptFreshness {
        let sums = FreshnessSQL.counts.map { "sum(\($0))" }.joined(separator: ", ")
        return try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT app, strategy, \(sums) FROM freshnessTenantDay
                    WHERE tenant = ? AND day >= ? AND day < ? AND (? IS NULL OR app IN (?, ''))
                    GROUP BY app, strategy
                    """, arguments: [tenant, days.lowerBound, days.upperBound, app, app])
            var figures: [String: [FreshnessFigures]] = [:]
            for row in rows {
                let counts = (2..<(2 + FreshnessSQL.counts.count)).map { row[$0] as Int }
                figures[row[0], default: []].append(FreshnessFigures(strategy: row[1], keptCounts: counts))
            }
            let pending =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM device
                        WHERE tenant = ? AND (freshnessFrom IS NOT NULL OR freshnessLeaseUntil IS NOT NULL)
                        """,
                    arguments: [tenant]) ?? 0
            return KeptFreshness(figures: figures, pendingDevices: pending)
        }
    }
}
