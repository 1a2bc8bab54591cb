import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func prune(before time: Milliseconds, device: String? = nil, dryRun: Bool = false) throws -> PruneReport {
        try prune(dryRun: dryRun) { db in
            // The condition is made of numbers only: the device by its id.
            var condition = "time < \(time)"
            if let device {
                let id = try db.value("SELECT id FROM device WHERE name = \(device)", as: Int64.self)
                condition += " AND device_id = \(id ?? -1)"
            }
            // What other imports also held goes with the events.
            try db.execute("DELETE FROM also_imported WHERE \(condition)")
            return (kept: 0, events: condition)
        }
    }

    public func prune(importID: Int64, dryRun: Bool = false) throws -> PruneReport {
        try transaction(commit: !dryRun) { db in try prune(importID: importID, db) }
    }

    /// ``prune(importID:dryRun:)`` in a transaction of the caller's.
    func prune(importID: Int64, _ db: Transaction) throws -> PruneReport {
        try pruneRows(db) { db in
            guard try db.value("SELECT EXISTS (SELECT 1 FROM import_log WHERE id = \(importID))") ?? false else {
                throw StoreError.unknownImport(importID)
            }
            // Each event another import (or `record`, import 0) also holds passes to the earliest
            // of them and stays.
            let passed = try db.changes(
                """
                UPDATE event SET import_id = NULLIF(other.first, 0)
                FROM (SELECT device_id, time, kind, app_id, min(import_id) AS first FROM also_imported
                    WHERE import_id <> \(importID) GROUP BY device_id, time, kind, app_id) AS other
                WHERE event.import_id = \(importID) AND event.device_id = other.device_id
                    AND event.time = other.time AND event.kind = other.kind AND event.app_id = other.app_id
                """)
            try db.changes("DELETE FROM also_imported WHERE import_id = \(importID)")
            try db.changes("DELETE FROM import_log WHERE id = \(importID)")
            return (kept: passed, events: "import_id = \(importID)")
        }
    }

    public func eraseDevice(_ device: String, dryRun: Bool = false) throws -> PruneReport {
        var erased: Int64 = 0
        return try prune(dryRun: dryRun) { db in
            guard let id = try Self.existingDeviceID(device, db) else { throw StoreError.unknownDevice(device) }
            erased = id
            try db.execute("DELETE FROM also_imported WHERE device_id = \(id)")
            return (kept: 0, events: "device_id = \(id)")
        } then: { db in
            try db.changes("DELETE FROM import_log WHERE device = \(device)")
            // Devices made from now on start past its version.
            try db.changes(
                """
                INSERT INTO store_setting (key, value)
                SELECT 'firstDeviceVersion', (version + 1)::TEXT FROM device WHERE id = \(erased)
                ON CONFLICT (key) DO UPDATE
                SET value = greatest(store_setting.value::BIGINT, excluded.value::BIGINT)::TEXT
                """)
            // Its apps, their settings and its models go with it.
            try db.changes("DELETE FROM device WHERE id = \(erased)")
        }
    }

    /// Runs `first`, which returns how many events it kept and the condition of the events to
    /// delete (SQL of numbers only, never of names); deletes them and the learned models that
    /// remember them, then the apps left with no event and no setting of their own, then runs
    /// `then`; bumps every device's version. A dry run rolls back.
    private func prune(
        dryRun: Bool, first: (Transaction) throws -> (kept: Int, events: String),
        then: (Transaction) throws -> Void = { _ in }
    ) throws -> PruneReport {
        try transaction(commit: !dryRun) { db in try pruneRows(db, first: first, then: then) }
    }

    /// The rows of a prune, in a transaction of the caller's: see ``prune(dryRun:first:then:)``.
    private func pruneRows(
        _ db: Transaction, first: (Transaction) throws -> (kept: Int, events: String),
        then: (Transaction) throws -> Void = { _ in }
    ) throws -> PruneReport {
        let (kept, condition) = try first(db)
        try db.execute(
            """
            DELETE FROM model_cache WHERE device_id IN (
                SELECT DISTINCT device_id FROM event WHERE kind IN \(Self.learnedKindsSQL) AND \(condition))
            """)
        var report = PruneReport(launches: 0, fetches: 0, deviceEvents: 0, notifications: 0, kept: kept)
        let counts = try db.rows(
            PostgresQuery(
                unsafeSQL: """
                    WITH gone AS (DELETE FROM event WHERE \(condition) RETURNING kind)
                    SELECT kind, count(*) FROM gone GROUP BY kind
                    """))
        for row in counts {
            let (kind, count) = try row.decode((Int16, Int).self)
            switch kind {
            case 0: report.launches = count
            case 1: report.fetches = count
            case 2: report.notifications = count
            default: report.deviceEvents += count
            }
        }
        // Apps left with no event and no setting of their own go too: their names are data.
        try db.changes(
            """
            DELETE FROM app WHERE NOT (\(unescaped: Self.ownSettingSQL))
            AND NOT EXISTS (SELECT 1 FROM event WHERE event.device_id = app.device_id AND event.app_id = app.id)
            """)
        try then(db)
        // Models kept in memory by other instances are learned again.
        try db.changes("UPDATE device SET version = version + 1")
        return report
    }
}
