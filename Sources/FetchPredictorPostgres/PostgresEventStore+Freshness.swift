import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    /// The counts' columns, in ``FreshnessFigures``' kept order, in snake case.
    static let freshnessCounts = FreshnessFigures.keptColumns.map(snakeCase)

    static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { $0 += $1.isUppercase ? "_" + $1.lowercased() : String($1) }
    }

    /// Adds the rows an INSERT gives to their tenant's sums (`excluded` the row added).
    static let addToTenantSQL =
        "ON CONFLICT (tenant, day, app, strategy) DO UPDATE SET "
        + freshnessCounts.map { "\($0) = freshness_tenant_day.\($0) + excluded.\($0)" }.joined(separator: ", ")

    /// Takes a device's kept days (`condition` on them) out of its tenant's sums.
    static func subtractFreshnessSQL(tenant: String, where condition: String) -> String {
        """
        INSERT INTO freshness_tenant_day (tenant, day, app, strategy, \(freshnessCounts.joined(separator: ", ")))
            SELECT \(tenant), day, app, strategy, \(freshnessCounts.map { "-\($0)" }.joined(separator: ", "))
            FROM freshness_day WHERE \(condition)
            \(addToTenantSQL)
        """
    }

    /// The migration that keeps days of freshness (``FreshnessKeeping``).
    static let freshnessMigration: [String] = [
        // The instants whose days are to be kept again (NULL for none); the lease of the pass
        // that took the device; its version when its days were last kept.
        """
        ALTER TABLE device ADD COLUMN freshness_from BIGINT, ADD COLUMN freshness_through BIGINT,
            ADD COLUMN freshness_lease_until BIGINT, ADD COLUMN freshness_version BIGINT NOT NULL DEFAULT 0
        """,
        "CREATE INDEX device_by_freshness_to_keep ON device (freshness_from) WHERE freshness_from IS NOT NULL",
        """
        CREATE INDEX device_by_freshness_lease ON device (freshness_lease_until)
        WHERE freshness_lease_until IS NOT NULL
        """,
        """
        CREATE INDEX device_by_tenant_freshness_to_keep ON device (tenant)
        WHERE freshness_from IS NOT NULL OR freshness_lease_until IS NOT NULL
        """,
        """
        CREATE TABLE freshness_day (
            device_id BIGINT NOT NULL, day INTEGER NOT NULL, app TEXT NOT NULL, strategy TEXT NOT NULL,
            \(freshnessCounts.map { "\($0) BIGINT NOT NULL" }.joined(separator: ", ")),
            PRIMARY KEY (device_id, day, app, strategy)
        )
        """,
        """
        CREATE TABLE freshness_tenant_day (
            tenant TEXT NOT NULL, day INTEGER NOT NULL, app TEXT NOT NULL, strategy TEXT NOT NULL,
            \(freshnessCounts.map { "\($0) BIGINT NOT NULL" }.joined(separator: ", ")),
            PRIMARY KEY (tenant, day, app, strategy)
        )
        """,
        // The devices stored before: their whole history is to be kept.
        """
        UPDATE device SET freshness_from = \(Milliseconds.min), freshness_through = \(Milliseconds.max)
        WHERE id IN (SELECT device_id FROM app)
        """,
        // A new zone moves every local day: the whole history is kept again. An erased device's
        // days leave its tenant's sums with it.
        """
        CREATE FUNCTION freshness_of_device() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                \(subtractFreshnessSQL(tenant: "OLD.tenant", where: "device_id = OLD.id"));
                DELETE FROM freshness_day WHERE device_id = OLD.id;
                RETURN OLD;
            END IF;
            IF NEW.time_zone IS DISTINCT FROM OLD.time_zone THEN
                NEW.freshness_from := \(Milliseconds.min);
                NEW.freshness_through := \(Milliseconds.max);
            END IF;
            RETURN NEW;
        END $$
        """,
        """
        CREATE TRIGGER freshness_of_device BEFORE UPDATE OF time_zone OR DELETE ON device
        FOR EACH ROW EXECUTE FUNCTION freshness_of_device()
        """,
    ]

    public func takeFreshnessWork(limit: Int, now: Milliseconds, settle: Milliseconds) async throws
        -> [FreshnessWork]
    {
        let leaseUntil = now + FreshnessLedger.lease
        return try await transaction { db in
            // Another instance's devices are skipped, not waited for. A lease that ran out: the
            // pass that took the device died; its whole history is kept.
            let rows = try await db.rows(
                """
                WITH marked AS (
                    SELECT id, freshness_from AS changed_from, freshness_through AS changed_through FROM device
                    WHERE freshness_from IS NOT NULL
                        AND (freshness_taken_at IS NULL OR freshness_taken_at <= \(now - settle))
                    ORDER BY freshness_from, id LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                ), lapsed AS (
                    SELECT id, \(Milliseconds.min)::BIGINT AS changed_from, \(Milliseconds.max)::BIGINT AS changed_through
                    FROM device WHERE freshness_lease_until < \(now) AND freshness_from IS NULL
                    ORDER BY freshness_lease_until, id LIMIT \(limit) FOR UPDATE SKIP LOCKED
                ), taken AS (SELECT * FROM marked UNION ALL SELECT * FROM lapsed)
                UPDATE device SET freshness_from = NULL, freshness_through = NULL,
                    freshness_lease_until = \(leaseUntil), freshness_taken_at = \(now)
                FROM taken WHERE device.id = taken.id
                RETURNING device.name, device.version, taken.changed_from, taken.changed_through
                """)
            let work = try rows.map { row in
                let (device, version, from, through) = try row.decode((String, Int64, Int64, Int64).self)
                return FreshnessWork(device: device, version: version, changed: from...max(from, through))
            }
            return Array(
                work.sorted { ($0.changed.lowerBound, $0.device) < ($1.changed.lowerBound, $1.device) }.prefix(limit))
        }
    }

    public func markFreshness(_ work: FreshnessWork) async throws {
        try await transaction { db in
            try await db.changes(
                """
                UPDATE device SET freshness_from = least(freshness_from, \(work.changed.lowerBound)),
                    freshness_through = greatest(freshness_through, \(work.changed.upperBound)),
                    freshness_lease_until = NULL
                WHERE name = \(work.device)
                """)
        }
    }

    public func keepFreshness(_ kept: [KeptDays]) async throws -> Int {
        try await transaction { db in
            // In the order of the names, so that two instances lock devices in one order.
            var count = 0
            for days in kept.sorted(by: { $0.device < $1.device }) where try await Self.keep(days, db) { count += 1 }
            return count
        }
    }

    /// One device's days, in the caller's transaction.
    private static func keep(_ kept: KeptDays, _ db: Transaction) async throws -> Bool {
        let (device, version, days, rows) = (kept.device, kept.version, kept.days, kept.rows)
        // The device's row, locked: two instances keeping its days keep them in turn.
        guard
            let row = try await db.rows(
                "SELECT id, tenant, freshness_version FROM device WHERE name = \(device) FOR UPDATE"
            ).first
        else { return false }
        let (id, tenant, kept) = try row.decode((Int64, String, Int64).self)
        try await db.changes("UPDATE device SET freshness_lease_until = NULL WHERE id = \(id)")
        guard kept <= version, let days else { return false }
        let (first, last) = (days.lowerBound, days.upperBound)
        var values = BoundValues()
        let range = "device_id = \(values.bind(id)) AND day BETWEEN \(values.bind(first)) AND \(values.bind(last))"
        let subtract = subtractFreshnessSQL(tenant: values.bind(tenant), where: range)
        try await db.changes(values.query(subtract))
        try await db.changes(
            "DELETE FROM freshness_day WHERE device_id = \(id) AND day BETWEEN \(first) AND \(last)")
        if !rows.isEmpty {
            var batch = BoundValues()
            var columns = [
                "\(batch.bind(rows.map(\.day)))::BIGINT[]", "\(batch.bind(rows.map(\.app)))::TEXT[]",
                "\(batch.bind(rows.map(\.figures.strategy)))::TEXT[]",
            ]
            for index in freshnessCounts.indices {
                columns.append("\(batch.bind(rows.map { Int64($0.figures.keptCounts[index]) }))::BIGINT[]")
            }
            let counts = freshnessCounts.joined(separator: ", ")
            let rowsSQL = "unnest(\(columns.joined(separator: ", "))) AS kept (day, app, strategy, \(counts))"
            let owner = batch.bind(id)
            let tenantValue = batch.bind(tenant)
            try await db.changes(
                batch.query(
                    """
                    WITH kept AS (SELECT * FROM \(rowsSQL)),
                    stored AS (
                        INSERT INTO freshness_day (device_id, day, app, strategy, \(counts))
                        SELECT \(owner), day, app, strategy, \(counts) FROM kept
                    )
                    INSERT INTO freshness_tenant_day (tenant, day, app, strategy, \(counts))
                    SELECT \(tenantValue), day, app, strategy, \(counts) FROM kept
                    \(addToTenantSQL)
                    """))
        }
        try await db.changes("UPDATE device SET freshness_version = \(version) WHERE id = \(id)")
        return true
    }

    public func keptFreshness(tenant: String, days: Range<Int>, app: String?) async throws -> KeptFreshness {
        let sums = Self.freshnessCounts.map { "sum(\($0))::BIGINT" }.joined(separator: ", ")
        var values = BoundValues()
        let condition =
            "tenant = \(values.bind(tenant)) AND day >= \(values.bind(days.lowerBound)) AND day < \(values.bind(days.upperBound))"
            + (app.map { " AND app IN (\(values.bind($0)), '')" } ?? "")
        let query = values.query(
            "SELECT app, strategy, \(sums) FROM freshness_tenant_day WHERE \(condition) GROUP BY app, strategy")
        return try await read { db in
            // The devices still to keep are counted first: each statement reads the store as it is
            // then, and a pass that kept a device between a sum and a count after it would answer
            // no device pending with that device's days left out.
            let pending =
                try await db.value(
                    """
                    SELECT count(*) FROM device
                    WHERE tenant = \(tenant) AND (freshness_from IS NOT NULL OR freshness_lease_until IS NOT NULL)
                    """,
                    as: Int64.self) ?? 0
            var figures: [String: [FreshnessFigures]] = [:]
            for row in try await db.rows(query) {
                let cells = try row.decode(
                    (String, String, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self)
                let counts = [
                    cells.2, cells.3, cells.4, cells.5, cells.6, cells.7, cells.8, cells.9, cells.10,
                ].map { Int($0) }
                figures[cells.0, default: []].append(FreshnessFigures(strategy: cells.1, keptCounts: counts))
            }
            return KeptFreshness(figures: figures, pendingDevices: Int(pending))
        }
    }
}
