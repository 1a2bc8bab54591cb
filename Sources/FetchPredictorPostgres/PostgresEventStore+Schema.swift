import FetchPredictor
import PostgresNIO

extension PostgresEventStore {
    /// The store's migrations, applied in order, each once. Only ever append to this list: a
    /// migration that has shipped is history, and a database migrated by a newer version is
    /// refused rather than misread.
    ///
    /// The SQL is plain PostgreSQL that engines speaking its protocol also take (Citus,
    /// YugabyteDB, CockroachDB), but for the hash partitions, which are this server's way of
    /// spreading the events: see docs/scaling.md.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1: devices, apps, events partitioned by device, settings, keys, learned models",
            [
                """
                CREATE TABLE device (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    time_zone TEXT,
                    -- Bumped by every write of the device's events or zone, by any instance: one that
                    -- keeps a learned model in memory learns the new events before it answers.
                    version BIGINT NOT NULL DEFAULT 0,
                    -- The interval of the device's apps that set none; NULL for the store's default.
                    default_interval TEXT
                )
                """,
                """
                CREATE TABLE app (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    device_id BIGINT NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    interval TEXT,
                    enabled BOOLEAN NOT NULL DEFAULT TRUE,
                    UNIQUE (device_id, name)
                )
                """,
                // Every event: kind 0 launch, 1 fetch, 2 notification, 3 unlock, 4 screen on, 5 screen
                // off; app_id 0 for the device's own events; result 0 newData, 1 noData, 2 failed.
                // The same event recorded twice is stored once: the key is (device, instant, kind, app).
                // Partitioned by a hash of the device, so that one device's events are together and
                // the table grows across partitions; no foreign key, for the speed of bulk loads.
                """
                CREATE TABLE event (
                    device_id BIGINT NOT NULL,
                    time BIGINT NOT NULL,
                    kind SMALLINT NOT NULL CHECK (kind BETWEEN 0 AND 5),
                    app_id BIGINT NOT NULL,
                    result SMALLINT CHECK (result BETWEEN 0 AND 2),
                    utc_offset INTEGER,
                    duration DOUBLE PRECISION,
                    bytes BIGINT,
                    import_id BIGINT,
                    PRIMARY KEY (device_id, time, kind, app_id)
                ) PARTITION BY HASH (device_id)
                """,
                """
                DO $$
                BEGIN
                    FOR i IN 0..15 LOOP
                        EXECUTE format(
                            'CREATE TABLE event_%s PARTITION OF event FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
                            i, i);
                    END LOOP;
                END $$
                """,
                """
                CREATE TABLE store_setting (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                )
                """,
                // What the predictor learned of a device from its events up to as_of, so that a
                // query learns only from newer events; each app's model is a row of its own.
                """
                CREATE TABLE model_cache (
                    device_id BIGINT PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
                    as_of BIGINT NOT NULL,
                    configuration TEXT NOT NULL,
                    model BYTEA NOT NULL
                )
                """,
                """
                CREATE TABLE app_model_cache (
                    device_id BIGINT NOT NULL REFERENCES model_cache (device_id) ON DELETE CASCADE,
                    app TEXT NOT NULL,
                    model BYTEA NOT NULL,
                    PRIMARY KEY (device_id, app)
                )
                """,
                // The HTTP service's API keys: only a SHA-256 of each key is kept, with its tenant.
                """
                CREATE TABLE api_key (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tenant TEXT NOT NULL,
                    sha256 TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                // Imports' provenance: what each import read and stored (filled by imports).
                """
                CREATE TABLE import_log (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    path TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    format TEXT NOT NULL,
                    device TEXT NOT NULL,
                    rows_read BIGINT NOT NULL,
                    stored BIGINT NOT NULL,
                    duplicates BIGINT NOT NULL,
                    rejected BIGINT NOT NULL,
                    imported_at BIGINT NOT NULL,
                    time_zone TEXT,
                    date_order TEXT,
                    options TEXT
                )
                """,
            ]
        ),
        (
            "v2: events that more than one import holds",
            [
                // An event that an import, or `record` (import 0), found already stored by an
                // import. When the import that stored it is pruned, the event stays and passes to
                // the earliest that also held it (or becomes a recorded event, import_id NULL).
                """
                CREATE TABLE also_imported (
                    device_id BIGINT NOT NULL,
                    time BIGINT NOT NULL,
                    kind SMALLINT NOT NULL,
                    app_id BIGINT NOT NULL,
                    import_id BIGINT NOT NULL,
                    PRIMARY KEY (device_id, time, kind, app_id, import_id)
                )
                """,
                "CREATE INDEX also_imported_by_import ON also_imported (import_id)",
            ]
        ),
        (
            "v3: push budgets",
            [
                // At most this many device wakes in any hour of the device's plans; NULL for none.
                "ALTER TABLE device ADD COLUMN wakes_per_hour INTEGER"
            ]
        ),
        (
            "v4: each device's planned wake, kept",
            [
                // Each device's planned wake (FetchScheduler.plannedWake): the wake, when it was
                // planned, and until when it holds (planned_at <= t < valid_until), so that the
                // devices due before a time are found by an index. scope is the device name up to
                // its first '/' (a tenant's devices), else ''. Every change that moves a plan (the
                // triggers below) makes it hold nowhere (valid_until 0) and moves generation on:
                // a plan made before is not kept. A claim leases the wake at leased_time until
                // lease_until (the wall clock).
                """
                CREATE TABLE kept_wake (
                    device_id BIGINT PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
                    -- Compared and ordered byte by byte, as SQLite does: cursors are the same.
                    device TEXT COLLATE "C" NOT NULL,
                    scope TEXT COLLATE "C" NOT NULL,
                    generation BIGINT NOT NULL DEFAULT 0,
                    planned_at BIGINT NOT NULL DEFAULT 0,
                    valid_until BIGINT NOT NULL DEFAULT 0,
                    time BIGINT,
                    apps TEXT,
                    leased_time BIGINT,
                    lease_until BIGINT
                )
                """,
                "CREATE INDEX kept_wake_by_time ON kept_wake (scope, time)",
                "CREATE INDEX kept_wake_by_validity ON kept_wake (scope, valid_until)",
                "CREATE INDEX kept_wake_by_planning ON kept_wake (scope, planned_at)",
                """
                INSERT INTO kept_wake (device_id, device, scope)
                SELECT id, name, left(name, strpos(name, '/')) FROM device
                """,
                """
                CREATE FUNCTION kept_wake_of_device() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        INSERT INTO kept_wake (device_id, device, scope)
                        VALUES (NEW.id, NEW.name, left(NEW.name, strpos(NEW.name, '/')));
                    ELSE
                        UPDATE kept_wake SET valid_until = 0, generation = generation + 1, device = NEW.name,
                            scope = left(NEW.name, strpos(NEW.name, '/'))
                        WHERE device_id = NEW.id;
                    END IF;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER kept_wake_of_new_device AFTER INSERT ON device
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_device()
                """,
                """
                CREATE TRIGGER kept_wake_of_changed_device
                AFTER UPDATE OF name, version, time_zone, default_interval, wakes_per_hour ON device
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_device()
                """,
                """
                CREATE FUNCTION kept_wake_of_app() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE kept_wake SET valid_until = 0, generation = generation + 1 WHERE device_id = NEW.device_id;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER kept_wake_of_app AFTER INSERT OR UPDATE OF interval, enabled ON app
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_app()
                """,
                """
                CREATE FUNCTION kept_wake_of_default() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.key = 'defaultInterval' THEN
                        UPDATE kept_wake SET valid_until = 0, generation = generation + 1;
                    END IF;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER kept_wake_of_default AFTER INSERT OR UPDATE ON store_setting
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_default()
                """,
            ]
        ),
        (
            "v5: the device's state",
            [
                // The device's state: kinds 6 power connected, 7 power disconnected, 8 battery,
                // 9 network, 10 Low Power Mode on, 11 off (EventKind.storeCode), and the value of
                // a battery event (a whole percent) or a network event (its name), else NULL.
                "ALTER TABLE event DROP CONSTRAINT event_kind_check",
                "ALTER TABLE event ADD CONSTRAINT event_kind_check CHECK (kind BETWEEN 0 AND 11)",
                "ALTER TABLE event ADD COLUMN value TEXT",
            ]
        ),
        (
            "v6: kept wakes found by device",
            [
                // Each plan is read and kept by its device's name: without an index every one
                // scanned the table.
                "CREATE UNIQUE INDEX kept_wake_by_device ON kept_wake (device)"
            ]
        ),
        (
            "v7: apps' constraints",
            [
                // What the device's state must be for a wake (AppConstraints.storeBits); a change
                // of them makes the device's kept plan again, as one of the interval does.
                "ALTER TABLE app ADD COLUMN constraints SMALLINT NOT NULL DEFAULT 0 CHECK (constraints BETWEEN 0 AND 7)",
                "DROP TRIGGER kept_wake_of_app ON app",
                """
                CREATE TRIGGER kept_wake_of_app AFTER INSERT OR UPDATE OF interval, enabled, constraints ON app
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_app()
                """,
            ]
        ),
        (
            "v8: leases held by the plan they were given from",
            [
                // The generation of the plan a claim leased: the lease holds until lease_until or
                // until the plan moves on, whatever time another claim plans the device as of.
                "ALTER TABLE kept_wake ADD COLUMN leased_generation BIGINT"
            ]
        ),
        (
            "v9: each device's forecaster",
            [
                // The forecaster the device is planned with (Forecasters.named); NULL for the
                // scheduler's. A change makes the device's kept plan again, as one of its interval does.
                "ALTER TABLE device ADD COLUMN forecaster TEXT",
                "DROP TRIGGER kept_wake_of_changed_device ON device",
                """
                CREATE TRIGGER kept_wake_of_changed_device
                AFTER UPDATE OF name, version, time_zone, default_interval, wakes_per_hour, forecaster ON device
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_device()
                """,
            ]
        ),
        (
            "v10: each device's tenant",
            [
                // Each device's tenant (DeviceIdentity), kept beside its name, so that no SQL
                // reads it from a name: a kept wake's scope comes from it. The devices made before
                // take theirs here, the one time SQL reads a name for it, by DeviceIdentity's rule
                // (up to the first '/'; none when the name starts with one).
                "ALTER TABLE device ADD COLUMN tenant TEXT NOT NULL DEFAULT ''",
                "UPDATE device SET tenant = left(name, strpos(name, '/') - 1) WHERE strpos(name, '/') > 1",
                """
                UPDATE kept_wake SET scope = \(DeviceIdentity.scopeSQL(tenant: "device.tenant"))
                FROM device WHERE device.id = kept_wake.device_id
                """,
                "CREATE INDEX device_by_tenant ON device (tenant, name)",
                """
                CREATE OR REPLACE FUNCTION kept_wake_of_device() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        INSERT INTO kept_wake (device_id, device, scope)
                        VALUES (NEW.id, NEW.name, \(DeviceIdentity.scopeSQL(tenant: "NEW.tenant")));
                    ELSE
                        UPDATE kept_wake SET valid_until = 0, generation = generation + 1, device = NEW.name,
                            scope = \(DeviceIdentity.scopeSQL(tenant: "NEW.tenant"))
                        WHERE device_id = NEW.id;
                    END IF;
                    RETURN NULL;
                END $$
                """,
                "DROP TRIGGER kept_wake_of_changed_device ON device",
                """
                CREATE TRIGGER kept_wake_of_changed_device
                AFTER UPDATE OF name, tenant, version, time_zone, default_interval, wakes_per_hour, forecaster ON device
                FOR EACH ROW EXECUTE FUNCTION kept_wake_of_device()
                """,
            ]
        ),
        (
            "v11: a tenant's devices in byte order",
            [
                // A tenant's devices are listed a page at a time in the byte order of their names
                // (COLLATE "C"), whatever the database's collation: by this index, not a sort.
                #"CREATE INDEX device_by_tenant_bytes ON device (tenant, name COLLATE "C")"#,
                "DROP INDEX device_by_tenant",
            ]
        ),
        ("v12: each device's days of freshness, and each tenant's", freshnessMigration),
        // A busy device's days are kept once a while (FreshnessKeeping.takeFreshnessWork's
        // settle), not again at every batch.
        (
            "v13: when a device's days of freshness were last taken",
            ["ALTER TABLE device ADD COLUMN freshness_taken_at BIGINT"]
        ),
        // Each device's plan in force (DevicePlan), kept so that a new process answers its next
        // wakes without learning its model: it holds for the times valid_from <= t < valid_until
        // while kept_wake's generation is the one it was kept at (every change that moves a plan
        // moves it on), for the settings it was made with. Its wakes by position; each app's by
        // time, to find an app's first wake after a time by an index.
        (
            "v14: each device's plan in force, kept",
            [
                """
                CREATE TABLE kept_plan (
                    device_id BIGINT PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
                    generation BIGINT NOT NULL,
                    settings TEXT NOT NULL,
                    valid_from BIGINT NOT NULL,
                    valid_until BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE kept_plan_wake (
                    device_id BIGINT NOT NULL REFERENCES kept_plan (device_id) ON DELETE CASCADE,
                    position BIGINT NOT NULL,
                    time BIGINT NOT NULL,
                    apps TEXT NOT NULL,
                    PRIMARY KEY (device_id, position)
                )
                """,
                "CREATE INDEX kept_plan_wake_by_time ON kept_plan_wake (device_id, time)",
                """
                CREATE TABLE kept_plan_app (
                    device_id BIGINT NOT NULL REFERENCES kept_plan (device_id) ON DELETE CASCADE,
                    app TEXT COLLATE "C" NOT NULL,
                    position BIGINT NOT NULL,
                    time BIGINT NOT NULL,
                    PRIMARY KEY (device_id, app, time, position)
                )
                """,
            ]
        ),
    ]

    /// How many migrations this version knows: a database with more was migrated by a newer one.
    public static var migrationCount: Int { migrations.count }

    /// The key of the advisory lock that instances take in turn to migrate.
    private static let migrationLock: Int64 = 0x4650_5245_4449_4354  // "FPREDICT"

    /// Creates or upgrades the schema: read first, and only a store that needs it takes the
    /// migration lock, so that many instances starting at once migrate once.
    func migrate() async throws {
        let applied = try await read { try await Self.appliedMigrations($0) }
        if applied > Self.migrations.count { throw StoreError.newerSchema(path: location) }
        if applied == Self.migrations.count { return }
        try await transaction { db in
            _ = try await db.rows("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
            try await db.execute(
                """
                CREATE TABLE IF NOT EXISTS fetchpredict_migration (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """)
            let done = try await Self.appliedMigrations(db)
            if done > Self.migrations.count { throw StoreError.newerSchema(path: location) }
            for (index, migration) in Self.migrations.enumerated().dropFirst(done) {
                for statement in migration.statements { try await db.execute(statement) }
                try await db.changes(
                    "INSERT INTO fetchpredict_migration (version, name) VALUES (\(index + 1), \(migration.name))")
            }
        }
    }

    /// How many migrations the database has had; 0 for a new one.
    private static func appliedMigrations(_ db: Transaction) async throws -> Int {
        let exists =
            try await db.value("SELECT to_regclass('fetchpredict_migration') IS NOT NULL", as: Bool.self) ?? false
        guard exists else { return 0 }
        return try await db.value("SELECT coalesce(max(version), 0) FROM fetchpredict_migration", as: Int.self) ?? 0
    }
}
