import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    /// The store's default interval: ``FetchInterval/never`` until changed.
    static func storeDefaultInterval(_ db: Transaction, location: String) async throws -> FetchInterval {
        guard
            let text = try await db.value(
                "SELECT value FROM store_setting WHERE key = 'defaultInterval'", as: String.self)
        else { return .never }
        return try StoreRules.storedInterval(text, location: location)
    }

    /// A stored zone name as a zone.
    static func zone(_ name: String?, location: String) throws -> TimeZone? {
        guard let name else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw StoreError.damaged(path: location, detail: "the time zone '\(name)' is not a known zone")
        }
        return zone
    }

    public func devices() async throws -> [String] {
        try await read { db in
            try await db.rows("SELECT name FROM device ORDER BY name COLLATE \"C\"").map { try $0.decode(String.self) }
        }
    }

    public func devices(tenant: String, after: String?, limit: Int) async throws -> [String] {
        try await read { db in
            try await db.rows(
                """
                SELECT name FROM device
                WHERE tenant = \(tenant) AND name COLLATE "C" > \(after ?? "")
                ORDER BY name COLLATE "C" LIMIT \(max(0, limit))
                """
            ).map { try $0.decode(String.self) }
        }
    }

    public func setDefaultWakesPerHour(_ wakesPerHour: Int?, scope: String) async throws {
        let key = "defaultWakesPerHour:" + scope
        try await transaction { db in
            // The same budget again is no change: it moves no plan.
            let stored = try await db.value(
                "SELECT value FROM store_setting WHERE key = \(key) FOR UPDATE", as: String.self)
            guard stored != wakesPerHour.map(String.init) else { return }
            if let wakesPerHour {
                try await db.changes(
                    """
                    INSERT INTO store_setting (key, value) VALUES (\(key), \(String(wakesPerHour)))
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """)
            } else {
                try await db.changes("DELETE FROM store_setting WHERE key = \(key)")
            }
            // The scope's kept plans may have counted on it (every plan, for the store's own).
            try await Self.planWakesAgain(scope: scope, db)
        }
    }

    public func defaultWakesPerHour(scope: String) async throws -> Int? {
        let key = "defaultWakesPerHour:" + scope
        return try await read { db in
            try await db.value("SELECT value FROM store_setting WHERE key = \(key)", as: String.self).flatMap {
                Int($0)
            }
        }
    }

    public func wakesPerHour(device: String) async throws -> Int? {
        try await read { db in
            try await db.value("SELECT wakes_per_hour FROM device WHERE name = \(device)", as: Int32?.self).flatMap {
                $0
            }
            .map(Int.init)
        }
    }

    public func hasDevice(_ device: String) async throws -> Bool {
        try await read { db in
            try await db.value("SELECT EXISTS (SELECT 1 FROM device WHERE name = \(device))") ?? false
        }
    }

    public func timeZone(device: String) async throws -> TimeZone? {
        try await read { db in
            try await Self.zone(
                db.value("SELECT time_zone FROM device WHERE name = \(device)", as: String?.self) ?? nil,
                location: location)
        }
    }

    public func changeDevice(_ change: DeviceSettingsChange, device: String) async throws {
        try await transaction { db in
            try await SettingsSteps.changeDevice(
                change, device: device, in: PostgresSettings(db: db, location: location))
        }
    }

    /// Puts a device in a zone. A new zone is a new device to learn: its models go, and its
    /// version moves on, so that every instance learns it again.
    static func move(deviceID id: Int64, to zone: TimeZone, _ db: Transaction) async throws {
        let changed = try await db.changes(
            """
            UPDATE device SET time_zone = \(zone.identifier), version = version + 1
            WHERE id = \(id) AND time_zone IS DISTINCT FROM \(zone.identifier)
            """)
        if changed > 0 { try await db.changes("DELETE FROM model_cache WHERE device_id = \(id)") }
    }

    public func defaultInterval() async throws -> FetchInterval {
        try await read { db in try await Self.storeDefaultInterval(db, location: location) }
    }

    public func setDefaultInterval(_ interval: FetchInterval) async throws {
        try await transaction { db in
            try await db.changes(
                """
                INSERT INTO store_setting (key, value) VALUES ('defaultInterval', \(interval.text))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
        }
    }

    public func defaultInterval(device: String) async throws -> FetchInterval {
        try await read { db in
            if let text = try await db.value(
                "SELECT default_interval FROM device WHERE name = \(device)", as: String?.self),
                let text
            {
                return try StoreRules.storedInterval(text, location: location)
            }
            return try await Self.storeDefaultInterval(db, location: location)
        }
    }

    public func changeApp(_ change: AppSettingsChange, app: String, device: String) async throws -> AppSettings {
        try StoreRules.checkAppName(app)
        return try await transaction { db in
            try await SettingsSteps.changeApp(
                change, app: app, device: device, in: PostgresSettings(db: db, location: location))
        }
    }

    /// The columns an app's settings are read from, for ``appSettings(_:device:location:)``.
    static let appSelection = "app.name, " + AppSettingsColumns.list("app")

    /// The settings of a row of ``appSelection``.
    static func appSettings(_ row: PostgresRow, device: String, location: String) throws -> AppSettings {
        let columns = row.makeRandomAccess()
        return try AppSettingsColumns.settings(
            device: device, app: try columns[0].decode(String.self), try cells(columns, from: 1), location: location)
    }

    /// The settings' cells of a row's columns from `first` on, which selected
    /// ``AppSettingsColumns/list(_:)``.
    static func cells(_ row: PostgresRandomAccessRow, from first: Int) throws -> [AppSettingsColumns.Cell] {
        try AppSettingsColumns.columns.indices.map { offset in
            let cell = row[first + offset]
            switch AppSettingsColumns.columns[offset].kind {
            case .text: return .text(try cell.decode(String?.self))
            case .flag: return .flag(try cell.decode(Bool.self))
            case .small: return .small(try cell.decode(Int16.self))
            }
        }
    }

    public func settings(app: String, device: String) async throws -> AppSettings {
        try await read { db in
            let row = try await db.rows(
                """
                SELECT \(unescaped: Self.appSelection)
                FROM app JOIN device ON device.id = app.device_id
                WHERE device.name = \(device) AND app.name = \(app)
                """
            ).first
            return try row.map { try Self.appSettings($0, device: device, location: location) }
                ?? AppSettings(device: device, app: app, interval: nil, enabled: true)
        }
    }

    public func appSettings(device: String) async throws -> [AppSettings] {
        try await read { db in
            try await db.rows(
                """
                SELECT \(unescaped: Self.appSelection)
                FROM app JOIN device ON device.id = app.device_id
                WHERE device.name = \(device)
                ORDER BY app.name COLLATE "C"
                """
            ).map { try Self.appSettings($0, device: device, location: location) }
        }
    }

    public func planningSettings(device: String) async throws -> PlanningSettings {
        // One statement, one round trip, one snapshot: what every query of the scheduler asks first.
        let row = try await read { db in try await db.rows(PlanningSettingsStatement(device: device)).first }
        guard let row else { throw StoreError.unavailable(location: location, detail: "no row came back") }
        let (zone, ownDefault, version, wakesPerHour, forecaster, storeDefault, tenantBudget, storeBudget) = row.device
        let defaultInterval =
            try (ownDefault ?? storeDefault).map { try StoreRules.storedInterval($0, location: location) } ?? .never
        var policies: [String: AppSettings] = [:]
        for (name, cells) in zip(row.names, row.cells) {
            policies[name] = try AppSettingsColumns.settings(device: device, app: name, cells, location: location)
        }
        return PlanningSettings(
            defaultInterval: defaultInterval, timeZone: try Self.zone(zone, location: location),
            exists: version != nil, policies: policies, version: version ?? 0,
            wakesPerHour: BudgetSource.choose(
                own: wakesPerHour.map(Int.init), tenant: tenantBudget.flatMap { Int($0) },
                store: storeBudget.flatMap { Int($0) }
            ).wakesPerHour,
            forecaster: forecaster)
    }
}

/// What the scheduler's every query asks first, in one statement, one round trip, one snapshot:
/// the device's zone, interval and version, the store's interval, and the apps' own settings.
private struct PlanningSettingsStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT device.time_zone, device.default_interval, device.version, device.wakes_per_hour, device.forecaster,
            (SELECT value FROM store_setting WHERE key = 'defaultInterval'),
            (SELECT value FROM store_setting WHERE key = 'defaultWakesPerHour:' || $2 AND $2 <> ''),
            (SELECT value FROM store_setting WHERE key = 'defaultWakesPerHour:'),
            coalesce(own.names, '{}'), \(columns.indices.map { "coalesce(own.c\($0), '{}')" }.joined(separator: ", "))
        FROM (SELECT 1) AS one
        LEFT JOIN device ON device.name = $1
        LEFT JOIN LATERAL (
            SELECT array_agg(app.name ORDER BY app.name) AS names, \(aggregates)
            FROM app WHERE app.device_id = device.id AND (\(AppSettingsColumns.ownSettingSQL))
        ) AS own ON TRUE
        """

    static let columns = AppSettingsColumns.columns
    /// Each setting's column of the apps as an array, in the apps' order: a text setting's NULL
    /// as '' (no text setting is ever empty), for an array holds no NULL here.
    static let aggregates: String = columns.indices.map { index -> String in
        let column = "app.\(columns[index].name)"
        let value = columns[index].kind == .text ? "coalesce(\(column), '')" : column
        return "array_agg(\(value) ORDER BY app.name) AS c\(index)"
    }.joined(separator: ", ")

    struct Row {
        var device: (String?, String?, Int64?, Int32?, String?, String?, String?, String?)
        var names: [String]
        /// Each app's cells, in the order of `names`.
        var cells: [[AppSettingsColumns.Cell]]
    }
    var device: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(device)
        // The scope whose budget is the device's when it has none of its own ('' for none).
        bindings.append(DeviceIdentity(stored: device).scope)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let cells = row.makeRandomAccess()
        let device = (
            try cells[0].decode(String?.self), try cells[1].decode(String?.self), try cells[2].decode(Int64?.self),
            try cells[3].decode(Int32?.self), try cells[4].decode(String?.self), try cells[5].decode(String?.self),
            try cells[6].decode(String?.self), try cells[7].decode(String?.self)
        )
        let names = try cells[8].decode([String].self)
        var apps = Array(repeating: [AppSettingsColumns.Cell](), count: names.count)
        for (offset, column) in Self.columns.enumerated() {
            let cell = cells[9 + offset]
            let values: [AppSettingsColumns.Cell]
            switch column.kind {
            case .text: values = try cell.decode([String].self).map { .text($0.isEmpty ? nil : $0) }
            case .flag: values = try cell.decode([Bool].self).map { .flag($0) }
            case .small: values = try cell.decode([Int16].self).map { .small($0) }
            }
            guard values.count == names.count else {
                throw StoreError.unavailable(location: "PostgreSQL", detail: "the apps' settings came back unaligned")
            }
            for index in names.indices { apps[index].append(values[index]) }
        }
        return Row(device: device, names: names, cells: apps)
    }
}

/// The steps of a settings change on PostgreSQL (``SettingsSteps``), in the caller's
/// transaction: the device's and the app's rows locked (`FOR UPDATE`) as they are read.
private struct PostgresSettings: SettingsTransaction {
    let db: Transaction
    /// The server, for the store's errors.
    let location: String

    func device(_ name: String, creatingIn zone: TimeZone?) async throws -> (id: Int64, zone: String?) {
        // A new device is made in its zone, at version 0, as the SQLite store makes it.
        let id = try await PostgresEventStore.deviceID(name, timeZone: zone?.identifier, db)
        let stored =
            try await db.value("SELECT time_zone FROM device WHERE id = \(id) FOR UPDATE", as: String?.self) ?? nil
        return (id, stored)
    }

    func importsReadingLocalTimes(device: String, otherThan zone: String) async throws -> [Int64] {
        try await db.rows(
            """
            SELECT id FROM import_log WHERE device = \(device) AND time_zone IS NOT NULL
                AND time_zone != \(zone) ORDER BY id
            """
        ).map { try $0.decode(Int64.self) }
    }

    func move(deviceID: Int64, to zone: TimeZone) async throws {
        try await PostgresEventStore.move(deviceID: deviceID, to: zone, db)
    }

    func setDefaultInterval(_ interval: FetchInterval?, deviceID: Int64) async throws {
        try await db.changes("UPDATE device SET default_interval = \(interval?.text) WHERE id = \(deviceID)")
    }

    func setWakesPerHour(_ wakesPerHour: Int?, deviceID: Int64) async throws {
        try await db.changes(
            "UPDATE device SET wakes_per_hour = \(wakesPerHour.map(Int32.init)) WHERE id = \(deviceID)")
    }

    func setForecaster(_ forecaster: String?, deviceID: Int64) async throws {
        try await db.changes("UPDATE device SET forecaster = \(forecaster) WHERE id = \(deviceID)")
    }

    func app(_ app: String, deviceID: Int64, device: String) async throws -> (id: Int64, settings: AppSettings) {
        let id = try await PostgresEventStore.appIDs([app], device: deviceID, db)[app]!
        guard
            let row = try await db.rows(
                "SELECT \(unescaped: PostgresEventStore.appSelection) FROM app WHERE app.id = \(id) FOR UPDATE"
            )
            .first
        else { throw StoreError.damaged(path: location, detail: "the app \(app) made is not there") }
        return (id, try PostgresEventStore.appSettings(row, device: device, location: location))
    }

    func setAppSettings(_ settings: AppSettings, appID: Int64) async throws {
        var values = BoundValues()
        let cells = AppSettingsColumns.cells(settings)
        let assignments = AppSettingsColumns.assignments { values.bind(cells[$0]) }
        let query = values.query("UPDATE app SET \(assignments) WHERE id = \(values.bind(appID))")
        try await db.changes(query)
    }
}
