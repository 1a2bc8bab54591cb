import GRDB

extension EventStore {
    /// The store's migrations. Only ever append to this list: a migration that has shipped is
    /// history, and a database migrated by a newer version is refused rather than misread.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: events, apps, devices, settings, import log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        timeZone TEXT
                    );
                    CREATE TABLE app (
                        id INTEGER PRIMARY KEY,
                        deviceId INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        interval TEXT,
                        enabled INTEGER NOT NULL DEFAULT 1,
                        UNIQUE (deviceId, name)
                    );
                    -- Event tables key on (app, time): the same event recorded twice is stored once.
                    -- They carry no foreign key, for import speed; EventStore keeps them consistent.
                    CREATE TABLE launch (
                        appId INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        utcOffset INTEGER,
                        duration REAL,
                        PRIMARY KEY (appId, time)
                    ) WITHOUT ROWID;
                    CREATE TABLE fetch (
                        appId INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        result TEXT NOT NULL CHECK (result IN ('newData', 'noData', 'failed')),
                        utcOffset INTEGER,
                        duration REAL,
                        bytes INTEGER,
                        PRIMARY KEY (appId, time)
                    ) WITHOUT ROWID;
                    CREATE TABLE deviceEvent (
                        deviceId INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        time INTEGER NOT NULL,
                        utcOffset INTEGER,
                        PRIMARY KEY (deviceId, kind, time)
                    ) WITHOUT ROWID;
                    CREATE TABLE storeSetting (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL
                    );
                    CREATE TABLE importLog (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL,
                        sha256 TEXT NOT NULL,
                        format TEXT NOT NULL,
                        device TEXT NOT NULL,
                        rowsRead INTEGER NOT NULL,
                        stored INTEGER NOT NULL,
                        duplicates INTEGER NOT NULL,
                        rejected INTEGER NOT NULL,
                        importedAt INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: learned model cache") { db in
            try db.execute(
                sql: """
                    -- What the predictor learned of a device from its events up to asOf, so that a
                    -- query learns only from newer events. Removed when older events arrive.
                    CREATE TABLE modelCache (
                        deviceId INTEGER PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
                        asOf INTEGER NOT NULL,
                        configuration TEXT NOT NULL,
                        model BLOB NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3: learned models per app") { db in
            try db.execute(
                sql: """
                    -- modelCache.model now holds the device's own state; each app's model is a row
                    -- here, so that a query about one app reads one app.
                    DELETE FROM modelCache;
                    CREATE TABLE appModelCache (
                        deviceId INTEGER NOT NULL REFERENCES modelCache(deviceId) ON DELETE CASCADE,
                        app TEXT NOT NULL,
                        model BLOB NOT NULL,
                        PRIMARY KEY (deviceId, app)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v4: provenance of events, reading of imports") { db in
            try db.execute(
                sql: """
                    -- The import that stored each event (importLog.id); NULL for events stored by
                    -- `record` (FetchScheduler.recordLaunch and recordFetch) and for every event
                    -- stored before this migration, whose import is not known.
                    ALTER TABLE launch ADD COLUMN importId INTEGER;
                    ALTER TABLE fetch ADD COLUMN importId INTEGER;
                    ALTER TABLE deviceEvent ADD COLUMN importId INTEGER;
                    -- How an import read its file: the zone of its local times and its date order
                    -- (NULL for imports before this migration, and where the format has none).
                    ALTER TABLE importLog ADD COLUMN timeZone TEXT;
                    ALTER TABLE importLog ADD COLUMN dateOrder TEXT;
                    """)
        }
        migrator.registerMigration("v5: notifications, import settings") { db in
            try db.execute(
                sql: """
                    -- An app's notifications (App Usage's "Notification posted (X)" rows, Android's
                    -- NOTIFICATION_INTERRUPTION): not launches, but a signal of their own.
                    CREATE TABLE notification (
                        appId INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        utcOffset INTEGER,
                        importId INTEGER,
                        PRIMARY KEY (appId, time)
                    ) WITHOUT ROWID;
                    -- The import's other settings that change how its file reads (labels of
                    -- pseudo-rows, packages that are no launches), NULL when there are none.
                    ALTER TABLE importLog ADD COLUMN options TEXT;
                    """)
        }
        migrator.registerMigration("v6: events that more than one import holds") { db in
            try db.execute(
                sql: """
                    -- An event that an import, or `record` (importId 0), found already stored by an
                    -- import: the event (as HeldEvent codes it: its table and, for device events,
                    -- their kind), its app (or, for device events, its device), its time, and the
                    -- import. When the import that stored it is pruned, the event stays and passes
                    -- to the earliest that also held it (or becomes a recorded event, importId NULL).
                    -- Imports stored before this migration noted nothing.
                    CREATE TABLE alsoImported (
                        event INTEGER NOT NULL,
                        ownerId INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        importId INTEGER NOT NULL,
                        PRIMARY KEY (event, ownerId, time, importId)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v7: API keys, device versions and default intervals") { db in
            try db.execute(
                sql: """
                    -- A counter every write of a device's events bumps, so that a process that
                    -- keeps a learned model in memory (the HTTP service) sees that another process
                    -- wrote and learns the new events before it answers.
                    ALTER TABLE device ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
                    -- The interval of the device's apps that set none; NULL for the store's default.
                    ALTER TABLE device ADD COLUMN defaultInterval TEXT;
                    -- The HTTP service's API keys: only a SHA-256 of each key is kept, with the
                    -- tenant it speaks for. A tenant's devices are named 'TENANT/DEVICE' in the store.
                    CREATE TABLE apiKey (
                        id INTEGER PRIMARY KEY,
                        tenant TEXT NOT NULL,
                        sha256 TEXT NOT NULL UNIQUE,
                        createdAt INTEGER NOT NULL,
                        revokedAt INTEGER
                    );
                    """)
        }
        migrator.registerMigration("v8: push budgets") { db in
            // At most this many device wakes in any hour of the device's plans; NULL for no budget.
            try db.execute(sql: "ALTER TABLE device ADD COLUMN wakesPerHour INTEGER")
        }
        migrator.registerMigration("v9: each device's planned wake, kept") { db in
            try db.execute(
                sql: """
                    -- Each device's planned wake (FetchScheduler.plannedWake): the wake, when it was
                    -- planned, and until when it holds (plannedAt <= t < validUntil), so that the
                    -- devices due before a time are found by an index, not planned one by one.
                    -- scope is the device name up to its first '/' (a tenant's devices), else ''.
                    -- Every change that moves a plan (the triggers below) makes it hold nowhere
                    -- (validUntil 0) and moves generation on: a plan made before is not kept.
                    -- A claim leases the wake at leasedTime until leaseUntil (the wall clock).
                    CREATE TABLE keptWake (
                        deviceId INTEGER PRIMARY KEY,
                        device TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        generation INTEGER NOT NULL DEFAULT 0,
                        plannedAt INTEGER NOT NULL DEFAULT 0,
                        validUntil INTEGER NOT NULL DEFAULT 0,
                        time INTEGER,
                        apps TEXT,
                        leasedTime INTEGER,
                        leaseUntil INTEGER
                    );
                    CREATE INDEX keptWakeByTime ON keptWake (scope, time);
                    CREATE INDEX keptWakeByValidity ON keptWake (scope, validUntil);
                    CREATE INDEX keptWakeByPlanning ON keptWake (scope, plannedAt);
                    INSERT INTO keptWake (deviceId, device, scope)
                        SELECT id, name, substr(name, 1, instr(name, '/')) FROM device;
                    CREATE TRIGGER keptWakeOfNewDevice AFTER INSERT ON device BEGIN
                        INSERT INTO keptWake (deviceId, device, scope)
                            VALUES (NEW.id, NEW.name, substr(NEW.name, 1, instr(NEW.name, '/')));
                    END;
                    CREATE TRIGGER keptWakeOfErasedDevice AFTER DELETE ON device BEGIN
                        DELETE FROM keptWake WHERE deviceId = OLD.id;
                    END;
                    CREATE TRIGGER keptWakeOfChangedDevice
                        AFTER UPDATE OF name, version, timeZone, defaultInterval, wakesPerHour ON device BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1, device = NEW.name,
                            scope = substr(NEW.name, 1, instr(NEW.name, '/'))
                            WHERE deviceId = NEW.id;
                    END;
                    CREATE TRIGGER keptWakeOfNewApp AFTER INSERT ON app BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1 WHERE deviceId = NEW.deviceId;
                    END;
                    CREATE TRIGGER keptWakeOfChangedApp AFTER UPDATE OF interval, enabled ON app BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1 WHERE deviceId = NEW.deviceId;
                    END;
                    CREATE TRIGGER keptWakeOfNewDefault AFTER INSERT ON storeSetting
                        WHEN NEW.key = 'defaultInterval' BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1;
                    END;
                    CREATE TRIGGER keptWakeOfChangedDefault AFTER UPDATE ON storeSetting
                        WHEN NEW.key = 'defaultInterval' BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1;
                    END;
                    """)
        }
        migrator.registerMigration("v10: the device's state") { db in
            // A battery event's level (a whole percent) or a network event's network; NULL for
            // the other kinds (EventLimits.value).
            try db.execute(sql: "ALTER TABLE deviceEvent ADD COLUMN value TEXT")
        }
        migrator.registerMigration("v11: kept wakes found by device") { db in
            // Each plan is read and kept by its device's name: without an index every one scanned
            // the table, and a cold start of 100,000 devices slowed as their plans filled it.
            try db.execute(sql: "CREATE UNIQUE INDEX keptWakeByDevice ON keptWake (device)")
        }
        migrator.registerMigration("v12: apps' constraints") { db in
            // What the device's state must be for a wake (AppConstraints.storeBits); a change of
            // them makes the device's kept plan again, as one of the interval does.
            try db.execute(
                sql: """
                    ALTER TABLE app ADD COLUMN constraints INTEGER NOT NULL DEFAULT 0
                        CHECK (constraints BETWEEN 0 AND 7);
                    DROP TRIGGER keptWakeOfChangedApp;
                    CREATE TRIGGER keptWakeOfChangedApp AFTER UPDATE OF interval, enabled, constraints ON app BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1 WHERE deviceId = NEW.deviceId;
                    END;
                    """)
        }
        migrator.registerMigration("v13: leases held by the plan they were given from") { db in
            // The generation of the plan a claim leased (leasedTime its wake): the lease holds
            // until leaseUntil or until the plan moves on (generation), whatever time another
            // claim plans the device as of, which may move the wake's time but not the plan.
            try db.execute(sql: "ALTER TABLE keptWake ADD COLUMN leasedGeneration INTEGER")
        }
        migrator.registerMigration("v14: each device's forecaster") { db in
            // The forecaster the device is planned with (Forecasters.named); NULL for the
            // scheduler's. A change makes the device's kept plan again, as one of its interval does.
            try db.execute(
                sql: """
                    ALTER TABLE device ADD COLUMN forecaster TEXT;
                    DROP TRIGGER keptWakeOfChangedDevice;
                    CREATE TRIGGER keptWakeOfChangedDevice
                        AFTER UPDATE OF name, version, timeZone, defaultInterval, wakesPerHour, forecaster ON device BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1, device = NEW.name,
                            scope = substr(NEW.name, 1, instr(NEW.name, '/'))
                            WHERE deviceId = NEW.id;
                    END;
                    """)
        }
        migrator.registerMigration("v15: each device's tenant") { db in
            // Each device's tenant (DeviceIdentity), kept beside its name, so that no SQL reads
            // it from a name: a kept wake's scope comes from it. The devices made before are
            // read here, once, by DeviceIdentity.
            try db.execute(sql: "ALTER TABLE device ADD COLUMN tenant TEXT NOT NULL DEFAULT ''")
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM device") {
                let id: Int64 = row["id"]
                let device = DeviceIdentity(stored: row["name"])
                try db.execute(sql: "UPDATE device SET tenant = ? WHERE id = ?", arguments: [device.tenant, id])
                try db.execute(sql: "UPDATE keptWake SET scope = ? WHERE deviceId = ?", arguments: [device.scope, id])
            }
            try db.execute(
                sql: """
                    CREATE INDEX deviceByTenant ON device (tenant, name);
                    DROP TRIGGER keptWakeOfNewDevice;
                    CREATE TRIGGER keptWakeOfNewDevice AFTER INSERT ON device BEGIN
                        INSERT INTO keptWake (deviceId, device, scope)
                            VALUES (NEW.id, NEW.name, \(DeviceIdentity.scopeSQL(tenant: "NEW.tenant")));
                    END;
                    DROP TRIGGER keptWakeOfChangedDevice;
                    CREATE TRIGGER keptWakeOfChangedDevice
                        AFTER UPDATE OF name, tenant, version, timeZone, defaultInterval, wakesPerHour, forecaster
                        ON device BEGIN
                        UPDATE keptWake SET validUntil = 0, generation = generation + 1, device = NEW.name,
                            scope = \(DeviceIdentity.scopeSQL(tenant: "NEW.tenant"))
                            WHERE deviceId = NEW.id;
                    END;
                    """)
        }
        migrator.registerMigration("v16: each device's days of freshness, and each tenant's") { db in
            try db.execute(sql: FreshnessSQL.schema)
        }
        migrator.registerMigration("v17: when a device's days of freshness were last taken") { db in
            // A busy device's days are kept once a while (FreshnessKeeping.takeFreshnessWork's
            // settle), not again at every batch.
            try db.execute(sql: "ALTER TABLE device ADD COLUMN freshnessTakenAt INTEGER")
        }
        migrator.registerMigration("v18: each device's plan in force, kept") { db in
            try db.execute(
                sql: """
                    -- Each device's plan in force (DevicePlan), kept so that a new process answers
                    -- its next wakes without learning its model: it holds for the times
                    -- validFrom <= t < validUntil while keptWake's generation is the one it was
                    -- kept at (every change that moves a plan moves it on), for the settings it
                    -- was made with. Its wakes by position; each app's by time, to find an app's
                    -- first wake after a time by an index.
                    CREATE TABLE keptPlan (
                        deviceId INTEGER PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
                        generation INTEGER NOT NULL,
                        settings TEXT NOT NULL,
                        validFrom INTEGER NOT NULL,
                        validUntil INTEGER NOT NULL
                    );
                    CREATE TABLE keptPlanWake (
                        deviceId INTEGER NOT NULL REFERENCES keptPlan(deviceId) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        apps TEXT NOT NULL,
                        PRIMARY KEY (deviceId, position)
                    ) WITHOUT ROWID;
                    CREATE INDEX keptPlanWakeByTime ON keptPlanWake (deviceId, time);
                    CREATE TABLE keptPlanApp (
                        deviceId INTEGER NOT NULL REFERENCES keptPlan(deviceId) ON DELETE CASCADE,
                        app TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        PRIMARY KEY (deviceId, app, time, position)
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}

/// The SQL of the freshness kept by day (``FreshnessKeeping``), in SQLite's dialect.
enum FreshnessSQL {
    static let counts = FreshnessFigures.keptColumns
    /// The counts' columns' definitions.
    static let columns = counts.map { "\($0) INTEGER NOT NULL" }.joined(separator: ", ")
    /// Adds the rows a SELECT gives to their tenant's sums (`excluded` the row added).
    static let addToTenant =
        "ON CONFLICT (tenant, day, app, strategy) DO UPDATE SET "
        + counts.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")

    /// Takes a device's kept days (`WHERE` its condition on them) out of its tenant's sums.
    static func subtract(tenant: String, where condition: String) -> String {
        """
        INSERT INTO freshnessTenantDay (tenant, day, app, strategy, \(counts.joined(separator: ", ")))
            SELECT \(tenant), day, app, strategy, \(counts.map { "-\($0)" }.joined(separator: ", "))
            FROM freshnessDay WHERE \(condition)
            \(addToTenant)
        """
    }

    static let schema = """
        -- The instants whose days' freshness is to be kept again: the earliest and latest launch
        -- or fetch stored since it was last kept; NULL for none. freshnessLeaseUntil: a pass took
        -- the device and holds it until then. freshnessVersion: the device's version when its
        -- days were last kept.
        ALTER TABLE device ADD COLUMN freshnessFrom INTEGER;
        ALTER TABLE device ADD COLUMN freshnessThrough INTEGER;
        ALTER TABLE device ADD COLUMN freshnessLeaseUntil INTEGER;
        ALTER TABLE device ADD COLUMN freshnessVersion INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX deviceByFreshnessToKeep ON device (freshnessFrom) WHERE freshnessFrom IS NOT NULL;
        CREATE INDEX deviceByFreshnessLease ON device (freshnessLeaseUntil) WHERE freshnessLeaseUntil IS NOT NULL;
        CREATE INDEX deviceByTenantFreshnessToKeep ON device (tenant)
            WHERE freshnessFrom IS NOT NULL OR freshnessLeaseUntil IS NOT NULL;
        -- Each device's local days (days since 1970-01-01), by app ('' for all its apps) and strategy.
        CREATE TABLE freshnessDay (
            deviceId INTEGER NOT NULL, day INTEGER NOT NULL, app TEXT NOT NULL, strategy TEXT NOT NULL,
            \(columns),
            PRIMARY KEY (deviceId, day, app, strategy)
        ) WITHOUT ROWID;
        -- Their sums by tenant ('' for the devices of none): what a tenant's figures read.
        CREATE TABLE freshnessTenantDay (
            tenant TEXT NOT NULL, day INTEGER NOT NULL, app TEXT NOT NULL, strategy TEXT NOT NULL,
            \(columns),
            PRIMARY KEY (tenant, day, app, strategy)
        ) WITHOUT ROWID;
        -- The devices stored before: their whole history is to be kept.
        UPDATE device SET freshnessFrom = \(Milliseconds.min), freshnessThrough = \(Milliseconds.max)
            WHERE id IN (SELECT deviceId FROM app);
        -- A new zone moves every local day: the whole history is kept again.
        CREATE TRIGGER freshnessOfMovedDevice AFTER UPDATE OF timeZone ON device
            WHEN NEW.timeZone IS NOT OLD.timeZone BEGIN
            UPDATE device SET freshnessFrom = \(Milliseconds.min), freshnessThrough = \(Milliseconds.max)
                WHERE id = NEW.id;
        END;
        -- An erased device's days leave its tenant's sums with it.
        CREATE TRIGGER freshnessOfErasedDevice AFTER DELETE ON device BEGIN
            \(subtract(tenant: "OLD.tenant", where: "deviceId = OLD.id"));
            DELETE FROM freshnessDay WHERE deviceId = OLD.id;
        END;
        """
}
