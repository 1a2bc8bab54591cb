import GRDB

extension EventStore {
    /// Deletes for good every event before an instant, of one device or of all, and the learned
    /// models that remember them; the file's freed pages are given back to the system.
    ///
    /// - Parameters:
    ///   - time: events before it go.
    ///   - device: the device; `nil` for every device.
    ///   - dryRun: count what would go, and change nothing.
    /// - Returns: how many events were (or would be) deleted, by kind.
    public func prune(before time: Milliseconds, device: String? = nil, dryRun: Bool = false) throws -> PruneReport {
        let scope =
            "(SELECT app.id FROM app JOIN device ON device.id = app.deviceId WHERE ?2 IS NULL OR device.name = ?2)"
        let devices = "(SELECT id FROM device WHERE ?2 IS NULL OR name = ?2)"
        return try prune(
            where: "time < ?1 AND appId IN \(scope)", deviceEventsWhere: "time < ?1 AND deviceId IN \(devices)",
            arguments: { _ in [time, device] }, dryRun: dryRun,
            first: { db, _ in
                // What other imports also held goes with the events.
                try db.execute(
                    sql: """
                        DELETE FROM alsoImported WHERE time < ?1 AND (event >= \(HeldEvent.firstDeviceEvent)
                            AND ownerId IN \(devices) OR event < \(HeldEvent.firstDeviceEvent) AND ownerId IN \(scope))
                        """, arguments: [time, device])
                return 0
            }
        ) { _, _ in }
    }

    /// Deletes for good exactly the events one import stored (not those it found already
    /// stored), the learned models that remember them, and the import from the import log, so
    /// that its file can be imported again, read another way.
    ///
    /// An event that a later import also held (and found already stored) stays: it passes to the
    /// earliest such import, and counts as ``PruneReport/kept``.
    ///
    /// - Parameters:
    ///   - importID: the import's id, as ``imports()`` lists it.
    ///   - dryRun: count what would go, and change nothing.
    /// - Returns: how many events were (or would be) deleted, by kind.
    /// - Throws: ``StoreError/unknownImport(_:)`` when there is no such import.
    public func prune(importID: Int64, dryRun: Bool = false) throws -> PruneReport {
        let report = try write(commit: !dryRun) { db in try prune(importID: importID, db) }
        if !dryRun { try compact() }
        return report
    }

    /// ``prune(importID:dryRun:)`` in a transaction of the caller's, without compacting the file.
    func prune(importID: Int64, _ db: Database) throws -> PruneReport {
        try pruneRows(
            where: "importId = ?1", deviceEventsWhere: "importId = ?1", arguments: [importID],
            first: { db, _ in try passOn(importID: importID, db) }, db
        ) { db, _ in
            try db.execute(sql: "DELETE FROM importLog WHERE id = ?", arguments: [importID])
            if db.changesCount == 0 { throw StoreError.unknownImport(importID) }
        }
    }

    /// Gives each event an import stored, and another import also holds, to the earliest such
    /// other import (to none, as recorded events have, when it was also recorded), then forgets
    /// what the import also held; returns how many events passed on. An event keeps the utcOffset,
    /// duration, result and bytes the pruned import read: an event is one row, whoever holds it.
    private func passOn(importID: Int64, _ db: Database) throws -> Int {
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
                    """, arguments: [importID])
            passed += db.changesCount
        }
        // Rows left saying that an import also holds an event it now stored are harmless: each
        // goes when its import does.
        try db.execute(sql: "DELETE FROM alsoImported WHERE importId = ?", arguments: [importID])
        return passed
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
    public func eraseDevice(_ device: String, dryRun: Bool = false) throws -> PruneReport {
        let apps = "(SELECT id FROM app WHERE deviceId = ?1)"
        return try prune(
            where: "appId IN \(apps)", deviceEventsWhere: "deviceId = ?1",
            arguments: { db in
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE name = ?", arguments: [device])
                else { throw StoreError.unknownDevice(device) }
                return [id]
            }, dryRun: dryRun,
            first: { db, arguments in
                try db.execute(
                    sql: """
                        DELETE FROM alsoImported WHERE event >= \(HeldEvent.firstDeviceEvent) AND ownerId = ?1
                            OR event < \(HeldEvent.firstDeviceEvent) AND ownerId IN \(apps)
                        """, arguments: arguments)
                return 0
            }
        ) { db, arguments in
            try db.execute(sql: "DELETE FROM importLog WHERE device = ?", arguments: [device])
            let version =
                try Int64.fetchOne(db, sql: "SELECT version FROM device WHERE id = ?1", arguments: arguments) ?? 0
            try StoreSettingRecord.erased(version: version, db)
            // Its apps, their settings and its models go with it.
            try db.execute(sql: "DELETE FROM device WHERE id = ?1", arguments: arguments)
        }
    }

    /// Runs `first` (which returns how many events it kept), deletes the launches and fetches
    /// that `condition` selects and the device events that `deviceEventsCondition` selects, then
    /// the apps left empty, then runs `more` in the same transaction; compacts the file unless it
    /// is a dry run. The conditions' arguments are read in the transaction, first of all.
    private func prune(
        where condition: String, deviceEventsWhere deviceEventsCondition: String,
        arguments: (Database) throws -> StatementArguments, dryRun: Bool,
        first: (Database, StatementArguments) throws -> Int, more: (Database, StatementArguments) throws -> Void
    ) throws -> PruneReport {
        let report = try write(commit: !dryRun) { db -> PruneReport in
            try pruneRows(
                where: condition, deviceEventsWhere: deviceEventsCondition, arguments: try arguments(db), first: first,
                db, more: more)
        }
        if !dryRun { try compact() }
        return report
    }

    /// Gives the file's freed pages back to the system: deleted rows would otherwise linger in them.
    func compact() throws {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
        }
    }

    /// The rows of a prune, in a transaction of the caller's: see ``prune(where:deviceEventsWhere:arguments:dryRun:first:more:)``.
    private func pruneRows(
        where condition: String, deviceEventsWhere deviceEventsCondition: String, arguments: StatementArguments,
        first: (Database, StatementArguments) throws -> Int, _ db: Database,
        more: (Database, StatementArguments) throws -> Void
    ) throws -> PruneReport {
        let kept = try first(db, arguments)
        // Models of every device whose events go are dropped: they remember them.
        try db.execute(
            sql: """
                DELETE FROM modelCache WHERE deviceId IN (
                    SELECT app.deviceId FROM app WHERE app.id IN (SELECT appId FROM launch WHERE \(condition))
                    OR app.id IN (SELECT appId FROM fetch WHERE \(condition)))
                OR deviceId IN (
                    SELECT deviceId FROM deviceEvent WHERE kind IN \(Self.stateKindsSQL) AND \(deviceEventsCondition))
                """, arguments: arguments)
        try db.execute(sql: "DELETE FROM launch WHERE \(condition)", arguments: arguments)
        let launches = db.changesCount
        try db.execute(sql: "DELETE FROM fetch WHERE \(condition)", arguments: arguments)
        let fetches = db.changesCount
        try db.execute(sql: "DELETE FROM deviceEvent WHERE \(deviceEventsCondition)", arguments: arguments)
        let deviceEvents = db.changesCount
        try db.execute(sql: "DELETE FROM notification WHERE \(condition)", arguments: arguments)
        let notifications = db.changesCount
        // Apps left with no event and no setting of their own go too: their names are data.
        try db.execute(
            sql: """
                DELETE FROM app WHERE NOT (\(AppRecord.ownSettingSQL))
                AND NOT EXISTS (SELECT 1 FROM launch WHERE appId = app.id)
                AND NOT EXISTS (SELECT 1 FROM fetch WHERE appId = app.id)
                AND NOT EXISTS (SELECT 1 FROM notification WHERE appId = app.id)
                """)
        try more(db, arguments)
        // Models kept in memory by other processes are learned again.
        try db.execute(sql: "UPDATE device SET version = version + 1")
        return PruneReport(
            launches: launches, fetches: fetches, deviceEvents: deviceEvents, notifications: notifications,
            kept: kept)
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
