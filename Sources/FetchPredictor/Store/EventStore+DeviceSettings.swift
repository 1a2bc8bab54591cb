import Foundation
import GRDB

extension EventStore {
    public func changeApp(_ change: AppSettingsChange, app: String, device: String) throws -> AppSettings {
        try StoreRules.checkAppName(app)
        return try write(appChange(change, app: app, device: device))
    }

    /// `changeApp(_:app:device:)` on GRDB's writer, the caller suspended meanwhile.
    public func changeApp(_ change: AppSettingsChange, app: String, device: String) async throws -> AppSettings {
        try StoreRules.checkAppName(app)
        return try await write(appChange(change, app: app, device: device))
    }

    /// The write of `changeApp(_:app:device:)`: a settings change's steps (``SettingsSteps``).
    private func appChange(_ change: AppSettingsChange, app: String, device: String)
        -> @Sendable (Database) throws -> AppSettings
    {
        { [path] db in
            let transaction = SQLiteSettings(db: db, path: path)
            return try Blocking.onThisThread {
                try await SettingsSteps.changeApp(change, app: app, device: device, in: transaction)
            }
        }
    }

    /// The settings of one app; an app the store has never seen has the defaults.
    public func settings(app: String, device: String) throws -> AppSettings {
        try read { [path] db in
            try AppRecord.named(app, device: device, db)?.settings(device: device, path: path)
                ?? AppSettings(device: device, app: app, interval: nil, enabled: true)
        }
    }

    /// The interval of apps that set none: `FetchInterval/never` until changed, as on iOS.
    public func defaultInterval() throws -> FetchInterval {
        try read { db in try Self.defaultInterval(db, path: path) }
    }

    /// The interval of a device's apps that set none: the device's own default when it has one,
    /// else the store's.
    public func defaultInterval(device: String) throws -> FetchInterval {
        try read { db in try Self.defaultInterval(db, device: device, path: path) }
    }

    /// The stored default interval: the device's own when `device` names one that has it, else
    /// the store's.
    ///
    /// - Throws: ``StoreError/damaged(path:detail:)`` when the stored text is not an interval.
    static func defaultInterval(_ db: Database, device: String? = nil, path: String) throws -> FetchInterval {
        if let device,
            let text = try String.fetchOne(
                db, sql: "SELECT defaultInterval FROM device WHERE name = ?", arguments: [device])
        {
            return try StoreRules.storedInterval(text, location: path)
        }
        guard let text = try StoreSettingRecord.value(StoreSettingRecord.defaultInterval, db) else { return .never }
        return try StoreRules.storedInterval(text, location: path)
    }

    public func wakesPerHour(device: String) throws -> Int? {
        try read { db in try DeviceRecord.named(device, db)?.wakesPerHour }
    }

    public func setDefaultWakesPerHour(_ wakesPerHour: Int?, scope: String) throws {
        try write(Self.defaultWakesPerHourChange(wakesPerHour, scope: scope))
    }

    /// `setDefaultWakesPerHour(_:scope:)` on GRDB's writer, the caller suspended meanwhile.
    public func setDefaultWakesPerHour(_ wakesPerHour: Int?, scope: String) async throws {
        try await write(Self.defaultWakesPerHourChange(wakesPerHour, scope: scope))
    }

    /// The write of `setDefaultWakesPerHour(_:scope:)`.
    private static func defaultWakesPerHourChange(_ wakesPerHour: Int?, scope: String)
        -> @Sendable (Database) throws -> Void
    {
        { db in
            let key = StoreSettingRecord.defaultWakesPerHour + scope
            // The same budget again is no change: it moves no plan.
            guard try StoreSettingRecord.value(key, db) != wakesPerHour.map(String.init) else { return }
            if let wakesPerHour {
                try StoreSettingRecord(key: key, value: String(wakesPerHour)).save(db)
            } else {
                try db.execute(sql: "DELETE FROM storeSetting WHERE key = ?", arguments: [key])
            }
            // The scope's kept plans may have counted on it (every plan, for the store's own).
            try Self.planWakesAgain(scope: scope, db)
        }
    }

    public func defaultWakesPerHour(scope: String) throws -> Int? {
        try read { db in try Self.defaultWakesPerHour(db, scope: scope) }
    }

    /// The push budget a scope sets for its devices that set none, or `nil`.
    static func defaultWakesPerHour(_ db: Database, scope: String) throws -> Int? {
        try StoreSettingRecord.value(StoreSettingRecord.defaultWakesPerHour + scope, db).flatMap { Int($0) }
    }

    /// Changes the interval of apps that set none.
    public func setDefaultInterval(_ interval: FetchInterval) throws {
        try write(Self.defaultIntervalChange(interval))
    }

    /// `setDefaultInterval(_:)` on GRDB's writer, the caller suspended meanwhile.
    public func setDefaultInterval(_ interval: FetchInterval) async throws {
        try await write(Self.defaultIntervalChange(interval))
    }

    /// The write of `setDefaultInterval(_:)`.
    private static func defaultIntervalChange(_ interval: FetchInterval) -> @Sendable (Database) throws -> Void {
        { db in try StoreSettingRecord(key: StoreSettingRecord.defaultInterval, value: interval.text).save(db) }
    }

    public func changeDevice(_ change: DeviceSettingsChange, device: String) throws {
        try write(deviceChange(change, device: device))
    }

    /// `changeDevice(_:device:)` on GRDB's writer, the caller suspended meanwhile.
    public func changeDevice(_ change: DeviceSettingsChange, device: String) async throws {
        try await write(deviceChange(change, device: device))
    }

    /// The write of `changeDevice(_:device:)`: a settings change's steps (``SettingsSteps``).
    private func deviceChange(_ change: DeviceSettingsChange, device: String) -> @Sendable (Database) throws -> Void {
        { [path] db in
            let transaction = SQLiteSettings(db: db, path: path)
            try Blocking.onThisThread { try await SettingsSteps.changeDevice(change, device: device, in: transaction) }
        }
    }

    /// Puts a device in a zone. A new zone is a new device to learn: its models go, and its
    /// version moves on, so that every process's scheduler learns it again.
    static func move(deviceID id: Int64, to zone: TimeZone, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE device SET timeZone = ?, version = version + 1 WHERE id = ? AND timeZone IS NOT ?",
            arguments: [zone.identifier, id, zone.identifier])
        if db.changesCount > 0 { try db.execute(sql: "DELETE FROM modelCache WHERE deviceId = ?", arguments: [id]) }
    }

    /// A device's time zone, or `nil` when the device is unknown or has none.
    ///
    /// - Throws: ``StoreError/damaged(path:detail:)`` when the stored name is no known zone.
    public func timeZone(device: String) throws -> TimeZone? {
        try read { db in try Self.timeZone(db, device: device, path: path) }
    }

    static func timeZone(_ db: Database, device: String, path: String) throws -> TimeZone? {
        try DeviceRecord.named(device, db)?.zone(path: path)
    }

    /// The names of the devices in the store, sorted.
    public func devices() throws -> [String] {
        try read(Self.allDevices)
    }

    /// `devices()` on one of GRDB's readers, the caller suspended meanwhile: a fleet's devices
    /// are many.
    public func devices() async throws -> [String] {
        try await read(Self.allDevices)
    }

    private static func allDevices(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM device ORDER BY name")
    }

    public func devices(tenant: String, after: String?, limit: Int) throws -> [String] {
        try read { db in
            // A range of the index on (tenant, name), whose BINARY order is the names' byte order.
            try String.fetchAll(
                db, sql: "SELECT name FROM device WHERE tenant = ? AND name > ? ORDER BY name LIMIT ?",
                arguments: [tenant, after ?? "", max(0, limit)])
        }
    }
}

extension EventStore {
    /// Whether the store has a device of that name.
    public func hasDevice(_ device: String) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM device WHERE name = ?)", arguments: [device])
                ?? false
        }
    }

    /// Reads the store once: for a service's readiness check.
    public func check() throws {
        _ = try read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}

extension EventStore {
    /// SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound store, else what is damaged.
    public func integrityCheck() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }
}

extension EventStore {
    /// The settings of every app of a device, without counting its events.
    ///
    /// - Complexity: O(apps).
    public func appSettings(device: String) throws -> [AppSettings] {
        try read { [path] db in try Self.appSettings(db, device: device, ownOnly: false, path: path) }
    }

    /// The settings of a device's apps; with `ownOnly`, only apps with a setting of their own.
    static func appSettings(_ db: Database, device: String, ownOnly: Bool, path: String) throws -> [AppSettings] {
        try AppRecord.all(device: device, ownOnly: ownOnly, db).map { try $0.settings(device: device, path: path) }
    }
}

extension EventStore {
    /// What planning needs to know of a device's settings, read in one transaction.
    public func planningSettings(device: String) throws -> PlanningSettings {
        try read { db in
            let record = try DeviceRecord.named(device, db)
            // The device's own default, read with its row, else the store's.
            let defaultInterval =
                try record?.defaultInterval.map { try StoreRules.storedInterval($0, location: path) }
                ?? Self.defaultInterval(db, path: path)
            let policies = Dictionary(
                uniqueKeysWithValues: try Self.appSettings(db, device: device, ownOnly: true, path: path).map {
                    ($0.app, $0)
                })
            let scope = DeviceIdentity(stored: device).scope
            let wakesPerHour = BudgetSource.choose(
                own: record?.wakesPerHour,
                tenant: scope.isEmpty ? nil : try Self.defaultWakesPerHour(db, scope: scope),
                store: try Self.defaultWakesPerHour(db, scope: "")
            ).wakesPerHour
            return PlanningSettings(
                defaultInterval: defaultInterval, timeZone: try record?.zone(path: path), exists: record != nil,
                policies: policies, version: record?.version ?? 0, wakesPerHour: wakesPerHour,
                forecaster: record?.forecaster)
        }
    }
}

/// The steps of a settings change on SQLite (``SettingsSteps``), in the caller's write
/// transaction, which SQLite holds alone.
private struct SQLiteSettings: SettingsTransaction {
    let db: Database
    /// The store's file, for its errors.
    let path: String

    func device(_ name: String, creatingIn zone: TimeZone?) throws -> (id: Int64, zone: String?) {
        let stored = try DeviceRecord.named(name, db)
        let id = try stored?.id ?? DeviceRecord.findOrCreate(name, timeZone: zone?.identifier, db)
        return (id, stored == nil ? zone?.identifier : stored?.timeZone)
    }

    func importsReadingLocalTimes(device: String, otherThan zone: String) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM importLog WHERE device = ? AND timeZone IS NOT NULL AND timeZone != ?
                ORDER BY id
                """, arguments: [device, zone])
    }

    func move(deviceID: Int64, to zone: TimeZone) throws {
        try EventStore.move(deviceID: deviceID, to: zone, db)
    }

    func setDefaultInterval(_ interval: FetchInterval?, deviceID: Int64) throws {
        try db.execute(
            sql: "UPDATE device SET defaultInterval = ? WHERE id = ?", arguments: [interval?.text, deviceID])
    }

    func setWakesPerHour(_ wakesPerHour: Int?, deviceID: Int64) throws {
        try db.execute(sql: "UPDATE device SET wakesPerHour = ? WHERE id = ?", arguments: [wakesPerHour, deviceID])
    }

    func setForecaster(_ forecaster: String?, deviceID: Int64) throws {
        try db.execute(sql: "UPDATE device SET forecaster = ? WHERE id = ?", arguments: [forecaster, deviceID])
    }

    func app(_ app: String, deviceID: Int64, device: String) throws -> (id: Int64, settings: AppSettings) {
        let id = try AppRecord.findOrCreate(app, device: deviceID, db)
        guard let record = try AppRecord.withID(id, db) else {
            throw StoreError.damaged(path: path, detail: "the app \(app) made is not there")
        }
        return (id, try record.settings(device: device, path: path))
    }

    func setAppSettings(_ settings: AppSettings, appID: Int64) throws {
        let cells = AppSettingsColumns.cells(settings).map(\.databaseValue)
        try db.execute(
            sql: "UPDATE app SET \(AppSettingsColumns.assignments { _ in "?" }) WHERE id = ?",
            arguments: StatementArguments(cells + [appID.databaseValue]))
    }
}
