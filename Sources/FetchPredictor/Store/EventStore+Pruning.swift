import GRDB

extension EventStore {
    /// Deletes for good every event before an instant, of one device or of all, and the learned
    /// models that remember them; the file's freed pages are given back to the system.
    ///
    /// - Returns: how many events were deleted, by kind.
    public func prune(before time: Milliseconds, device: String? = nil) throws -> PruneReport {
        let report = try write { db -> PruneReport in
            let scope =
                "(SELECT app.id FROM app JOIN device ON device.id = app.deviceId WHERE ?2 IS NULL OR device.name = ?2)"
            try db.execute(sql: "DELETE FROM launch WHERE time < ?1 AND appId IN \(scope)", arguments: [time, device])
            let launches = db.changesCount
            try db.execute(sql: "DELETE FROM fetch WHERE time < ?1 AND appId IN \(scope)", arguments: [time, device])
            let fetches = db.changesCount
            try db.execute(
                sql: """
                    DELETE FROM deviceEvent WHERE time < ?1
                    AND deviceId IN (SELECT id FROM device WHERE ?2 IS NULL OR name = ?2)
                    """, arguments: [time, device])
            let deviceEvents = db.changesCount
            // Apps left with no event and no setting of their own go too: their names are data.
            try db.execute(
                sql: """
                    DELETE FROM app WHERE interval IS NULL AND enabled = 1
                    AND NOT EXISTS (SELECT 1 FROM launch WHERE appId = app.id)
                    AND NOT EXISTS (SELECT 1 FROM fetch WHERE appId = app.id)
                    """)
            try db.execute(
                sql: "DELETE FROM modelCache WHERE deviceId IN (SELECT id FROM device WHERE ?1 IS NULL OR name = ?1)",
                arguments: [device])
            return PruneReport(launches: launches, fetches: fetches, deviceEvents: deviceEvents)
        }
        // Deleted rows would otherwise linger in free pages of the file.
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
        }
        return report
    }
}
