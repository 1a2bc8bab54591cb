import FetchPredictorTestSupport
import Foundation
import GRDB
import Testing

@testable import FetchPredictor
@testable import FetchPredictorPostgres

/// Each device's tenant is a column, filled when the device is made and, for a store made before
/// the column, by the migration, read from the name by DeviceIdentity alone: a tenant's devices
/// are found by it, and their kept wakes' scope comes from it, on both backends.
struct TenantColumnTests {
    /// Devices as a store made before the column held them: a tenant's, the command line's, and
    /// one whose name starts with '/'.
    static let oldDevices = ["acme/phone", "acme/tablets/7", "default", "/x/y"]

    @Test func aSQLiteStoreMadeBeforeFindsEveryDeviceUnderItsTenant() async throws {
        let path = TestFiles.scratchFolder().appendingPathComponent("v14.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try EventStore.migrator.migrate(queue, upTo: "v14: each device's forecaster")
        try await queue.write { db in
            for name in Self.oldDevices {
                try db.execute(sql: "INSERT INTO device (name) VALUES (?)", arguments: [name])
            }
        }
        try queue.close()
        let store = try EventStore(path: path)
        let rows = try store.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT name, tenant, scope FROM device JOIN keptWake ON keptWake.deviceId = device.id ORDER BY name"
            )
        }
        try await Self.check(rows.map { ($0["name"], $0["tenant"], $0["scope"]) }, store: store)
    }

    @Test(.enabled(if: Backend.available.contains(.postgres)))
    func aPostgreSQLStoreMadeBeforeFindsEveryDeviceUnderItsTenant() async throws {
        let url = try TestCluster.shared.newDatabase()
        // The schema as the version before the column made it: its migrations, applied by psql.
        let before = try #require(PostgresEventStore.migrations.firstIndex { $0.name.hasPrefix("v10:") })
        var script = "CREATE TABLE fetchpredict_migration (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
        script += "applied_at TIMESTAMPTZ NOT NULL DEFAULT now());\n"
        for (index, migration) in PostgresEventStore.migrations.prefix(before).enumerated() {
            for statement in migration.statements { script += statement + ";\n" }
            script += "INSERT INTO fetchpredict_migration (version, name) VALUES (\(index + 1), 'v\(index + 1)');\n"
        }
        for name in Self.oldDevices { script += "INSERT INTO device (name) VALUES ('\(name)');\n" }
        let file = TestFiles.write(script)
        try TestCluster.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-f", file])
        let store = try PostgresEventStore(url: url)
        let text = try TestCluster.run([
            "psql", "-tA", "-F", "|", url, "-c",
            "SELECT name, tenant, scope FROM device JOIN kept_wake ON kept_wake.device_id = device.id ORDER BY name COLLATE \"C\"",
        ])
        let rows = text.split(separator: "\n").map { line -> (String, String, String) in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields[1], fields[2])
        }
        try await Self.check(rows, store: store)
    }

    /// The migrated devices' tenants and scopes; a tenant's budget reaches its devices alone; a
    /// device made after the migration has its tenant too.
    static func check(_ rows: [(name: String, tenant: String, scope: String)], store: any EventStoring) async throws {
        let expected = [
            ("/x/y", "", ""), ("acme/phone", "acme", "acme/"), ("acme/tablets/7", "acme", "acme/"),
            ("default", "", ""),
        ]
        #expect(rows.map { "\($0.name) \($0.tenant) \($0.scope)" } == expected.map { "\($0.0) \($0.1) \($0.2)" })
        try await store.setDefaultWakesPerHour(2, scope: DeviceIdentity.scope(ofTenant: "acme"))
        try await store.createDevice("acme/new")
        for name in ["acme/phone", "acme/tablets/7", "acme/new"] {
            await #expect(try store.planningSettings(device: name).wakesPerHour == 2, "\(name)")
        }
        for name in ["default", "/x/y"] {
            await #expect(try store.planningSettings(device: name).wakesPerHour == nil, "\(name)")
        }
        // Whose each budget is, by the one rule, as the settings the planner reads.
        try await store.setDefaultWakesPerHour(5, scope: "")
        try await store.setWakesPerHour(1, device: "acme/phone")
        for (name, wakes, source) in [
            ("acme/phone", 1, BudgetSource.device), ("acme/tablets/7", 2, .tenant), ("default", 5, .store),
            ("/x/y", 5, .store),
        ] {
            let effective = try await store.effectiveWakesPerHour(device: name)
            #expect(effective.wakesPerHour == wakes && effective.from == source, "\(name)")
            await #expect(try store.planningSettings(device: name).wakesPerHour == wakes, "\(name)")
        }
        try await store.setDefaultWakesPerHour(nil, scope: "")
        await #expect(try store.effectiveWakesPerHour(device: "default") == (nil, .none))
    }
}
