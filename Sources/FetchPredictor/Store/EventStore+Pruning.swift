import GRDB

extension EventStore {
    /// Deletes for good every event before an instant, of one device or of all, and the learned
    /// models that remember them; the file's freed pages are given back to the system
    /// (incrementally: the cost grows with what went, not with the file).
    ///
    /// - Parameters:
    ///   - time: events before it go.
    ///   - device: the device; `nil` for every device.
    ///   - dryRun: count what would go, and change nothing.
    /// - Returns: how many events were (or would be) deleted, by kind.
    public func prune(before time: Milliseconds, device: String? = nil, dryRun: Bool = false) throws -> PruneReport {
        try pruning(dryRun: dryRun) { transaction in
            try await PruneSteps.prune(before: time, device: device, in: transaction)
        }
    }

    /// Deletes for good exactly the events one import stored (not those it found already
    /// stored), the learned models that remember them, and the import from the import log, so
    /// that its file can be imported again, read another way.
    ///
    /// An event that a later import also held (and found already stored) stays: it passes to the
    /// earliest such import, and counts as ``PruneReport/kept``.
    ///
    /// - Parameters:
    ///   - importID: the import's id, as `imports()` lists it.
    ///   - dryRun: count what would go, and change nothing.
    /// - Returns: how many events were (or would be) deleted, by kind.
    /// - Throws: ``StoreError/unknownImport(_:)`` when there is no such import.
    public func prune(importID: Int64, dryRun: Bool = false) throws -> PruneReport {
        try pruning(dryRun: dryRun) { transaction in try await PruneSteps.prune(importID: importID, in: transaction) }
    }

    /// `prune(before:device:dryRun:)` on GRDB's writer, the caller suspended meanwhile.
    public func prune(before time: Milliseconds, device: String? = nil, dryRun: Bool = false) async throws
        -> PruneReport
    {
        try await pruning(dryRun: dryRun) { transaction in
            try await PruneSteps.prune(before: time, device: device, in: transaction)
        }
    }

    /// `prune(importID:dryRun:)` on GRDB's writer, the caller suspended meanwhile.
    public func prune(importID: Int64, dryRun: Bool = false) async throws -> PruneReport {
        try await pruning(dryRun: dryRun) { transaction in
            try await PruneSteps.prune(importID: importID, in: transaction)
        }
    }

    /// ``prune(importID:dryRun:)`` in a transaction of the caller's, without compacting the file.
    func prune(importID: Int64, _ db: Database) throws -> PruneReport {
        let transaction = SQLitePrune(db: db)
        return try Blocking.onThisThread { try await PruneSteps.prune(importID: importID, in: transaction) }
    }

    /// Erases a device for good, in one transaction: every event of it, its apps and their
    /// settings, its own settings, its learned models, the records of its imports, and the
    /// device itself. The file's freed pages are given back to the system.
    ///
    /// - Parameters:
    ///   - device: the device to erase.
    ///   - dryRun: count what would go, and change nothing.
    /// - Returns: how many events were (or would be) deleted, by kind.
    /// - Throws: ``StoreError/unknownDevice(_:)`` when there is no such device.
    public func eraseDevice(_ device: String, dryRun: Bool = false) async throws -> PruneReport {
        try await pruning(dryRun: dryRun) { transaction in try await PruneSteps.eraseDevice(device, in: transaction) }
    }

    /// `eraseDevice(_:dryRun:)`, the caller's thread waiting.
    public func eraseDevice(_ device: String, dryRun: Bool = false) throws -> PruneReport {
        try pruning(dryRun: dryRun) { transaction in try await PruneSteps.eraseDevice(device, in: transaction) }
    }

    /// Runs a prune's steps in a write transaction, on GRDB's thread, which the connection is
    /// bound to; rolls it back for a dry run, and compacts the file unless it is one.
    private func pruning(dryRun: Bool, _ steps: @escaping @Sendable (SQLitePrune) async throws -> PruneReport) throws
        -> PruneReport
    {
        let report = try write(commit: !dryRun) { db in try Self.run(steps, db) }
        if !dryRun { try compact() }
        return report
    }

    /// `pruning(dryRun:_:)` on GRDB's writer, the caller suspended meanwhile.
    private func pruning(
        dryRun: Bool, _ steps: @escaping @Sendable (SQLitePrune) async throws -> PruneReport
    ) async throws -> PruneReport {
        let report = try await write(commit: !dryRun) { db in try Self.run(steps, db) }
        if !dryRun { try await writer.writeWithoutTransaction(Self.compact) }
        return report
    }

    private static func run(_ steps: @escaping (SQLitePrune) async throws -> PruneReport, _ db: Database) throws
        -> PruneReport
    {
        let transaction = SQLitePrune(db: db)
        return try Blocking.onThisThread { try await steps(transaction) }
    }

    /// Gives the file's freed pages back to the system: deleted rows would otherwise linger in them.
    func compact() throws {
        try writer.writeWithoutTransaction(Self.compact)
    }

    /// Gives the freed pages back, at a cost that grows with what was freed, not with the file:
    /// the store vacuums incrementally (every file the store creates is made so), and deleted
    /// content is overwritten as it goes (`secure_delete`), so an erasure of one device on a large store takes milliseconds, and holds no other
    /// writer behind a rewrite of the whole file. A store made before it is turned incremental by
    /// its first compaction, the one that rewrites the whole file.
    static func compact(_ db: Database) throws {
        // A passive checkpoint waits for no reader: a learn may read for seconds.
        try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
        if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == incrementalVacuum {
            try db.execute(sql: "PRAGMA incremental_vacuum")
        } else {
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
        }
    }

    /// `PRAGMA auto_vacuum`'s value for incremental vacuum.
    static let incrementalVacuum = 2
}

/// The steps of a prune on SQLite (``PruneSteps``), in the caller's write transaction. App
/// events are in the tables `launch`, `fetch` and `notification`, the device's in `deviceEvent`.
private struct SQLitePrune: PruneTransaction {
    let db: Database

    /// The events that go: a condition over the app events' tables, one over `deviceEvent`, and
    /// one over `alsoImported` for what other imports held of them, all of the same arguments.
    struct Events {
        var appEvents: String
        var deviceEvents: String
        var alsoImported: String
        var arguments: StatementArguments
    }

    func events(before time: Milliseconds, device: String?) throws -> Events {
        let apps =
            "(SELECT app.id FROM app JOIN device ON device.id = app.deviceId WHERE ?2 IS NULL OR device.name = ?2)"
        let devices = "(SELECT id FROM device WHERE ?2 IS NULL OR name = ?2)"
        return Events(
            appEvents: "time < ?1 AND appId IN \(apps)", deviceEvents: "time < ?1 AND deviceId IN \(devices)",
            alsoImported: """
                time < ?1 AND (event >= \(HeldEvent.firstDeviceEvent) AND ownerId IN \(devices)
                    OR event < \(HeldEvent.firstDeviceEvent) AND ownerId IN \(apps))
                """, arguments: [time, device])
    }

    func events(ofImport id: Int64) throws -> Events {
        Events(
            appEvents: "importId = ?1", deviceEvents: "importId = ?1", alsoImported: "importId = ?1", arguments: [id])
    }

    func events(ofDevice device: String) throws -> Events? {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device])
        else { return nil }
        let apps = "(SELECT id FROM app WHERE deviceId = ?1)"
        return Events(
            appEvents: "appId IN \(apps)", deviceEvents: "deviceId = ?1",
            alsoImported: """
                event >= \(HeldEvent.firstDeviceEvent) AND ownerId = ?1
                    OR event < \(HeldEvent.firstDeviceEvent) AND ownerId IN \(apps)
                """, arguments: [id])
    }

    func forgetAlsoImported(_ events: Events) throws {
        try db.execute(sql: "DELETE FROM alsoImported WHERE \(events.alsoImported)", arguments: events.arguments)
    }

    func passOn(importID id: Int64) throws -> Int {
        var passed = 0
        for held in HeldEvent.tables {
            let heldElsewhere = """
                FROM alsoImported AS other WHERE other.event = \(held.codeSQL)
                AND other.ownerId = \(held.table).\(held.owner) AND other.time = \(held.table).time
                AND other.importId != ?1
                """
            try db.execute(
                sql: """
                    UPDATE \(held.table) SET importId = NULLIF((SELECT min(other.importId) \(heldElsewhere)), 0)
                    WHERE importId = ?1 AND EXISTS (SELECT 1 \(heldElsewhere))
                    """, arguments: [id])
            passed += db.changesCount
        }
        // Rows left saying that an import also holds an event it now stored are harmless: each
        // goes when its import does.
        try db.execute(sql: "DELETE FROM alsoImported WHERE importId = ?", arguments: [id])
        return passed
    }

    func dropModels(learnedFrom events: Events) throws {
        try db.execute(
            sql: """
                DELETE FROM modelCache WHERE deviceId IN (
                    SELECT app.deviceId FROM app WHERE app.id IN (SELECT appId FROM launch WHERE \(events.appEvents))
                    OR app.id IN (SELECT appId FROM fetch WHERE \(events.appEvents)))
                OR deviceId IN (
                    SELECT deviceId FROM deviceEvent
                    WHERE kind IN \(EventStore.stateKindsSQL) AND \(events.deviceEvents))
                """, arguments: events.arguments)
    }

    func delete(_ events: Events) throws -> PruneReport {
        func deleted(from table: String, where condition: String) throws -> Int {
            try db.execute(sql: "DELETE FROM \(table) WHERE \(condition)", arguments: events.arguments)
            return db.changesCount
        }
        return PruneReport(
            launches: try deleted(from: "launch", where: events.appEvents),
            fetches: try deleted(from: "fetch", where: events.appEvents),
            deviceEvents: try deleted(from: "deviceEvent", where: events.deviceEvents),
            notifications: try deleted(from: "notification", where: events.appEvents))
    }

    func deleteAppsLeftEmpty() throws {
        try db.execute(
            sql: """
                DELETE FROM app WHERE NOT (\(AppSettingsColumns.ownSettingSQL))
                AND NOT EXISTS (SELECT 1 FROM launch WHERE appId = app.id)
                AND NOT EXISTS (SELECT 1 FROM fetch WHERE appId = app.id)
                AND NOT EXISTS (SELECT 1 FROM notification WHERE appId = app.id)
                """)
    }

    func deleteImport(_ id: Int64) throws -> Bool {
        try db.execute(sql: "DELETE FROM importLog WHERE id = ?", arguments: [id])
        return db.changesCount > 0
    }

    func eraseDeviceRecords(_ device: String) throws {
        try db.execute(sql: "DELETE FROM importLog WHERE device = ?", arguments: [device])
        let version = try Int64.fetchOne(db, sql: "SELECT version FROM device WHERE name = ?", arguments: [device]) ?? 0
        try StoreSettingRecord.erased(version: version, db)
        // Its apps, their settings and its models go with it.
        try db.execute(sql: "DELETE FROM device WHERE name = ?", arguments: [device])
    }

    func moveVersions(of events: Events) throws {
        try db.execute(
            sql: """
                UPDATE device SET version = version + 1 WHERE id IN (
                    SELECT app.deviceId FROM app WHERE app.id IN (SELECT appId FROM launch WHERE \(events.appEvents))
                    OR app.id IN (SELECT appId FROM fetch WHERE \(events.appEvents))
                    OR app.id IN (SELECT appId FROM notification WHERE \(events.appEvents)))
                OR id IN (SELECT deviceId FROM deviceEvent WHERE \(events.deviceEvents))
                """, arguments: events.arguments)
    }
}

/// A table of events as `alsoImported` names its rows: by a code for the table (and, for device
/// events, the kind), the owner's id and the time.
struct HeldEvent {
    var table: String
    /// The column of the app or device the event belongs to.
    var owner: String
    /// The code of the table's events; for device events, of the first kind, the others after it.
    var code: Int
    /// The column of the device event's kind; `nil` for tables of app events.
    var kind: String?

    /// The kinds' codes are `EventKind.storeCode`: the app events' tables, then the device's.
    static let tables = [
        HeldEvent(table: "launch", owner: "appId", code: Int(EventKind.launch.storeCode)),
        HeldEvent(table: "fetch", owner: "appId", code: Int(EventKind.fetch.storeCode)),
        HeldEvent(table: "notification", owner: "appId", code: Int(EventKind.notification.storeCode)),
        HeldEvent(table: "deviceEvent", owner: "deviceId", code: firstDeviceEvent, kind: "kind"),
    ]
    /// The code of the first device event; app events come before it.
    static let firstDeviceEvent = Int(EventKind.firstDeviceCode)

    /// The code of a row's event, as SQL over a row of the table.
    var codeSQL: String {
        guard let kind else { return "\(code)" }
        let kinds = EventKind.deviceKinds.map { "WHEN '\($0.rawValue)' THEN \($0.storeCode)" }
        return "CASE \(table).\(kind) \(kinds.joined(separator: " ")) END"
    }
}
