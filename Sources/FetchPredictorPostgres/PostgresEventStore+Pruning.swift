import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func prune(before time: Milliseconds, device: String? = nil, dryRun: Bool = false) async throws
        -> PruneReport
    {
        try await transaction(commit: !dryRun) { db in
            try await PruneSteps.prune(before: time, device: device, in: PostgresPrune(db: db))
        }
    }

    public func prune(importID: Int64, dryRun: Bool = false) async throws -> PruneReport {
        try await transaction(commit: !dryRun) { db in try await prune(importID: importID, db) }
    }

    /// ``prune(importID:dryRun:)`` in a transaction of the caller's.
    func prune(importID: Int64, _ db: Transaction) async throws -> PruneReport {
        try await PruneSteps.prune(importID: importID, in: PostgresPrune(db: db))
    }

    public func eraseDevice(_ device: String, dryRun: Bool = false) async throws -> PruneReport {
        try await transaction(commit: !dryRun) { db in
            try await PruneSteps.eraseDevice(device, in: PostgresPrune(db: db))
        }
    }
}

/// The steps of a prune on PostgreSQL (``PruneSteps``), in the caller's transaction. Every event
/// is a row of `event`; what other imports also held of it, a row of `also_imported` with the
/// same device, time, kind and app.
private struct PostgresPrune: PruneTransaction {
    let db: Transaction

    /// The events that go, as a condition over the columns `event` and `also_imported` share:
    /// SQL of numbers only, never of names (a device by its id).
    typealias Events = String

    func events(before time: Milliseconds, device: String?) async throws -> String {
        guard let device else { return "time < \(time)" }
        let id = try await db.value("SELECT id FROM device WHERE name = \(device)", as: Int64.self)
        return "time < \(time) AND device_id = \(id ?? -1)"
    }

    func events(ofImport id: Int64) throws -> String { "import_id = \(id)" }

    func events(ofDevice device: String) async throws -> String? {
        // The device's row locked first: a batch of its events holds it (FOR NO KEY UPDATE) from
        // its first statement to its commit, so the two are ordered. A batch that came first
        // commits before the erasure reads its events, and is erased with them; one that comes
        // after waits, then finds no device and makes it anew. Never an event left under a
        // device that is gone, nor a deadlock over the rows both touch.
        try await db.value("SELECT id FROM device WHERE name = \(device) FOR UPDATE", as: Int64.self)
            .map { "device_id = \($0)" }
    }

    func forgetAlsoImported(_ events: String) async throws {
        try await db.execute("DELETE FROM also_imported WHERE \(events)")
    }

    func passOn(importID id: Int64) async throws -> Int {
        let passed = try await db.changes(
            """
            UPDATE event SET import_id = NULLIF(other.first, 0)
            FROM (SELECT device_id, time, kind, app_id, min(import_id) AS first FROM also_imported
                WHERE import_id <> \(id) GROUP BY device_id, time, kind, app_id) AS other
            WHERE event.import_id = \(id) AND event.device_id = other.device_id
                AND event.time = other.time AND event.kind = other.kind AND event.app_id = other.app_id
            """)
        try await db.changes("DELETE FROM also_imported WHERE import_id = \(id)")
        return passed
    }

    func dropModels(learnedFrom events: String) async throws {
        try await db.execute(
            """
            DELETE FROM model_cache WHERE device_id IN (
                SELECT DISTINCT device_id FROM event WHERE kind IN \(PostgresEventStore.learnedKindsSQL) AND \(events))
            """)
    }

    func delete(_ events: String) async throws -> PruneReport {
        var report = PruneReport(launches: 0, fetches: 0, deviceEvents: 0, notifications: 0)
        let counts = try await db.rows(
            PostgresQuery(
                unsafeSQL: """
                    WITH gone AS (DELETE FROM event WHERE \(events) RETURNING kind)
                    SELECT kind, count(*) FROM gone GROUP BY kind
                    """))
        for row in counts {
            let (code, count) = try row.decode((Int16, Int).self)
            switch EventKind(storeCode: code) {
            case .launch: report.launches = count
            case .fetch: report.fetches = count
            case .notification: report.notifications = count
            default: report.deviceEvents += count
            }
        }
        return report
    }

    func deleteAppsLeftEmpty() async throws {
        try await db.changes(
            """
            DELETE FROM app WHERE NOT (\(unescaped: AppSettingsColumns.ownSettingSQL))
            AND NOT EXISTS (SELECT 1 FROM event WHERE event.device_id = app.device_id AND event.app_id = app.id)
            """)
    }

    func deleteImport(_ id: Int64) async throws -> Bool {
        try await db.changes("DELETE FROM import_log WHERE id = \(id)") > 0
    }

    func eraseDeviceRecords(_ device: String) async throws {
        try await db.changes("DELETE FROM import_log WHERE device = \(device)")
        // Devices made from now on start past its version.
        try await db.changes(
            """
            INSERT INTO store_setting (key, value)
            SELECT 'firstDeviceVersion', (version + 1)::TEXT FROM device WHERE name = \(device)
            ON CONFLICT (key) DO UPDATE
            SET value = greatest(store_setting.value::BIGINT, excluded.value::BIGINT)::TEXT
            """)
        // Its apps, their settings and its models go with it.
        try await db.changes("DELETE FROM device WHERE name = \(device)")
    }

    func moveVersions(of events: String) async throws {
        // Models kept in memory by other instances are learned again.
        try await db.execute(
            "UPDATE device SET version = version + 1 WHERE id IN (SELECT device_id FROM event WHERE \(events))")
    }
}
