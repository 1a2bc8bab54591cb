import FetchPredictor
import Foundation
import NIOCore
import PostgresNIO

extension PostgresEventStore {
    /// Imports one log file in one transaction, its events sent to the server by `COPY` in
    /// chunks: the same rules as the SQLite store's import (see ``EventStoring``), at the speed of
    /// a bulk load.
    public func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onReject: (@Sendable (Rejection) -> Void)? = nil
    ) async throws -> ImportReport {
        try await transaction { db in
            try await importFile(path, options: options, now: now, progress: progress, onReject: onReject, db)
        }
    }

    /// ``importFile(_:options:now:progress:onReject:)`` in a transaction of the caller's.
    func importFile(
        _ path: String, options: ImportOptions, now: Date, progress: (@Sendable (Int64, Int64) -> Void)?,
        onReject: (@Sendable (Rejection) -> Void)?, _ db: Transaction
    ) async throws -> ImportReport {
        try await ImportSteps.run(
            path, options: options, now: now, progress: progress, onReject: onReject,
            in: PostgresImport(db: db, location: location))
    }

    /// The columns of `import_log` that ``reading(_:)`` reads, in its order.
    static let readingColumns = "id, path, format, device, time_zone, date_order, options, sha256, rejected"

    /// How an import read its file, from a row of ``readingColumns``; with the file's SHA-256 and
    /// how many rows it refused.
    static func reading(_ row: PostgresRow) throws -> (reading: ImportReading, sha256: String, rejected: Int64) {
        let c = try row.decode((Int64, String, String, String, String?, String?, String?, String, Int64).self)
        return (
            ImportReading(id: c.0, path: c.1, format: c.2, device: c.3, timeZone: c.4, dateOrder: c.5, options: c.6),
            c.7, c.8
        )
    }

    public func imports() async throws -> [ImportSummary] {
        try await transaction(snapshot: true) { db in
            try await db.rows(
                """
                SELECT id, path, sha256, format, device, time_zone, date_order, rows_read, stored, duplicates,
                    rejected, coalesce(kept.events, 0), imported_at
                FROM import_log LEFT JOIN (
                    SELECT import_id, count(*) AS events FROM event WHERE import_id IS NOT NULL GROUP BY import_id
                ) AS kept ON kept.import_id = import_log.id
                ORDER BY id
                """
            ).map { row in
                let c = try row.decode(
                    (Int64, String, String, String, String, String?, String?, Int, Int, Int, Int, Int, Int64).self)
                return ImportSummary(
                    id: c.0, file: c.1, sha256: c.2, format: c.3, device: c.4, timeZone: c.5, dateOrder: c.6,
                    rowsRead: c.7, stored: c.8, duplicates: c.9, rejected: c.10, eventsKept: c.11,
                    importedAt: Date(milliseconds: c.12))
            }
        }
    }

}

/// An import's steps on PostgreSQL (``ImportSteps``), in the caller's transaction: the device's
/// row is locked (`FOR UPDATE`) while the import runs, so that two imports of one device keep
/// to one zone.
private struct PostgresImport: ImportTransaction {
    let db: Transaction
    /// The server, for the store's errors.
    let location: String

    func zone(ofDevice device: String) async throws -> TimeZone? {
        try await PostgresEventStore.zone(
            db.value("SELECT time_zone FROM device WHERE name = \(device) FOR UPDATE", as: String?.self) ?? nil,
            location: location)
    }

    func adoptZone(_ zone: TimeZone, device: String) async throws {
        try await db.changes(
            "UPDATE device SET time_zone = \(zone.identifier) WHERE name = \(device) AND time_zone IS NULL")
    }

    func beginImport(path: String, device: String, readingKey: String?, at time: Date) async throws -> Int64 {
        try await db.value(
            """
            INSERT INTO import_log (path, sha256, format, device, rows_read, stored, duplicates, rejected,
                imported_at, options)
            VALUES (\(path), '', '', \(device), 0, 0, 0, 0, \(time.milliseconds), \(readingKey))
            RETURNING id
            """, as: Int64.self) ?? 0
    }

    func loader(importID id: Int64, newDeviceTimeZone: (device: String, zone: String)?) async throws -> BulkLoader {
        try await BulkLoader(db, importID: id, newDeviceTimeZone: newDeviceTimeZone)
    }

    func importsHoldingEvents(sha256: String, before id: Int64) async throws -> [ImportReading] {
        try await db.rows(
            """
            SELECT \(unescaped: PostgresEventStore.readingColumns) FROM import_log
            WHERE sha256 = \(sha256) AND id < \(id)
                AND EXISTS (SELECT 1 FROM event WHERE event.import_id = import_log.id)
            ORDER BY id
            """
        ).map { try PostgresEventStore.reading($0).reading }
    }

    func finishImport(id: Int64, report: ImportReport) async throws {
        try await db.changes(
            """
            UPDATE import_log SET sha256 = \(report.sha256), format = \(report.format.rawValue),
                rows_read = \(report.rowsRead), stored = \(report.stored), duplicates = \(report.duplicates),
                rejected = \(report.rejected), time_zone = \(report.timeZone),
                date_order = \(report.dateOrder?.rawValue)
            WHERE id = \(id)
            """)
    }
}

/// Sends the events of one import to the server in chunks: each chunk is copied into a
/// temporary table by `COPY`, then moved into `event` by one `INSERT ... ON CONFLICT DO NOTHING`,
/// which counts what was new; an event that another import stored is noted in `also_imported`.
///
/// The server stores one chunk while the file's next chunks are read, on the reader's thread
/// (``ReadAhead``): the loader awaits each chunk's statements, in order, on its transaction.
final class BulkLoader: ImportLoader {
    private let db: Transaction
    private let importID: Int64
    /// A device and its zone, given to it if this import creates it; other devices named by the
    /// file's rows get none.
    private let newDeviceTimeZone: (device: String, zone: String)?
    /// The devices named so far, by their place in `deviceNames`; their ids once made.
    private var deviceIndex: [String: Int] = [:]
    private var deviceNames: [String] = []
    private var deviceIDs: [Int64] = []
    private var appIDs: [Int64: [String: Int64]] = [:]
    private var pending: [(device: Int, event: Event)] = []
    /// Events stored so far.
    private(set) var stored = 0
    /// What the import stored, for what follows a write of events.
    private var written = StoredEvents()

    /// Events sent in one `COPY`: about 2 MB of text.
    static let chunk = 50_000

    init(_ db: Transaction, importID: Int64, newDeviceTimeZone: (device: String, zone: String)?) async throws {
        self.db = db
        self.importID = importID
        self.newDeviceTimeZone = newDeviceTimeZone
        try await db.execute(
            """
            CREATE TEMPORARY TABLE import_stage (
                device_id BIGINT, time BIGINT, kind SMALLINT, app_id BIGINT, result SMALLINT, utc_offset INTEGER,
                duration DOUBLE PRECISION, bytes BIGINT, value TEXT
            ) ON COMMIT DROP
            """)
        pending.reserveCapacity(Self.chunk)
    }

    /// Takes events of the file; each full chunk is stored.
    func add(_ events: [Event], device defaultDevice: String) async throws {
        for event in events {
            let name = event.device ?? defaultDevice
            let device: Int
            if let index = deviceIndex[name] {
                device = index
            } else {
                device = deviceNames.count
                deviceIndex[name] = device
                deviceNames.append(name)
            }
            pending.append((device, event))
            if pending.count >= Self.chunk { try await flush() }
        }
    }

    /// Stores what is pending, then drops the learned models that missed an event stored and
    /// bumps the version of every device written (``StoreRules/afterStoring(_:in:)``); returns how
    /// many events were new.
    func finish() async throws -> Int {
        try await flush()
        try await StoreRules.afterStoring(written, in: PostgresStoredEvents(db: db))
        return stored
    }

    /// Stores the pending events.
    private func flush() async throws {
        guard !pending.isEmpty else { return }
        try await createDevices()
        try await createApps()
        try await store(copyText(), events: pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    /// The pending events in COPY's text format.
    private func copyText() -> ByteBuffer {
        var text = ByteBuffer()
        text.reserveCapacity(pending.count * 48)
        for (index, event) in pending {
            let device = deviceIDs[index]
            let app = event.kind.isDeviceEvent ? 0 : appIDs[device]![event.app]!
            text.writeDecimal(device)
            text.writeInteger(UInt8(ascii: "\t"))
            text.writeDecimal(event.time)
            text.writeInteger(UInt8(ascii: "\t"))
            text.writeDecimal(Int64(PostgresEventStore.code(of: event.kind)))
            text.writeInteger(UInt8(ascii: "\t"))
            text.writeDecimal(app)
            text.writeInteger(UInt8(ascii: "\t"))
            text.writeOptional(event.result.map { Int64(PostgresEventStore.code(of: $0)) })
            text.writeInteger(UInt8(ascii: "\t"))
            text.writeOptional(event.utcOffset.map(Int64.init))
            text.writeInteger(UInt8(ascii: "\t"))
            if let duration = event.duration { text.writeString("\(duration)") } else { text.writeStaticString("\\N") }
            text.writeInteger(UInt8(ascii: "\t"))
            text.writeOptional(event.bytes)
            text.writeInteger(UInt8(ascii: "\t"))
            // A value is a number or a network's name (EventLimits.value): nothing to escape.
            if let value = event.value { text.writeString(value) } else { text.writeStaticString("\\N") }
            text.writeInteger(UInt8(ascii: "\n"))
        }
        return text
    }

    /// Stores one chunk: COPY into the staging table, the INSERT that keeps what is new, the
    /// provenance of what was not, and the staging table emptied.
    private func store(_ text: ByteBuffer, events: Int) async throws {
        try await db.copy(
            into: "import_stage",
            columns: ["device_id", "time", "kind", "app_id", "result", "utc_offset", "duration", "bytes", "value"],
            text)
        // What was new, by device: how many, and the earliest event a model learns from.
        let rows = try await db.rows(
            """
            WITH stored AS (
                INSERT INTO event (device_id, time, kind, app_id, result, utc_offset, duration, bytes, value, import_id)
                SELECT device_id, time, kind, app_id, result, utc_offset, duration, bytes, value, \(importID)
                FROM import_stage
                ON CONFLICT DO NOTHING
                RETURNING device_id, time, kind
            )
            SELECT device_id, count(*), min(time) FILTER (WHERE kind IN \(unescaped: PostgresEventStore.learnedKindsSQL)),
                min(time) FILTER (WHERE kind IN \(unescaped: PostgresEventStore.scoredKindsSQL)),
                max(time) FILTER (WHERE kind IN \(unescaped: PostgresEventStore.scoredKindsSQL))
            FROM stored GROUP BY device_id
            """)
        var storedNow = 0
        for row in rows {
            let (device, count, earliest, first, last) = try row.decode((Int64, Int, Int64?, Int64?, Int64?).self)
            storedNow += count
            let scored = first.flatMap { first in last.map { first...$0 } }
            written.stored(device: device, earliestLearned: earliest, scored: scored)
        }
        stored += storedNow
        if storedNow < events {
            // An event another import stored is noted as this import's too: pruning that one
            // passes the event to this one.
            try await db.changes(
                """
                INSERT INTO also_imported (device_id, time, kind, app_id, import_id)
                SELECT event.device_id, event.time, event.kind, event.app_id, \(importID)
                FROM import_stage JOIN event ON event.device_id = import_stage.device_id
                    AND event.time = import_stage.time AND event.kind = import_stage.kind
                    AND event.app_id = import_stage.app_id
                WHERE event.import_id <> \(importID)
                ON CONFLICT DO NOTHING
                """)
        }
        try await db.execute("TRUNCATE import_stage")
    }

    /// Makes the devices named since the last chunk, in one statement, in sorted order.
    private func createDevices() async throws {
        guard deviceIDs.count < deviceNames.count else { return }
        let names = Array(deviceNames[deviceIDs.count...]).sorted()
        let tenants = names.map { DeviceIdentity(stored: $0).tenant }
        let zoneDevice = newDeviceTimeZone?.device
        let zone = newDeviceTimeZone?.zone
        try await db.changes(
            """
            INSERT INTO device (name, tenant, time_zone, version)
            SELECT name, tenant, CASE WHEN name = \(zoneDevice) THEN \(zone) END,
                \(unescaped: PostgresEventStore.firstVersionSQL)
            FROM unnest(\(names)::TEXT[], \(tenants)::TEXT[]) AS new_device (name, tenant)
            ORDER BY name COLLATE "C"
            ON CONFLICT (name) DO NOTHING
            """)
        var ids: [String: Int64] = [:]
        for row in try await db.rows("SELECT name, id FROM device WHERE name = ANY(\(names)::TEXT[])") {
            let (name, id) = try row.decode((String, Int64).self)
            ids[name] = id
        }
        for name in names {
            guard let id = ids[name] else { throw StoreError.unknownDevice(name) }
            deviceIDs.append(id)
        }
    }

    /// Makes the pending events' new apps, in one statement.
    private func createApps() async throws {
        var missing: Set<PostgresEventStore.AppName> = []
        for (index, event) in pending where !event.kind.isDeviceEvent {
            let device = deviceIDs[index]
            if appIDs[device]?[event.app] == nil { missing.insert(.init(device: device, name: event.app)) }
        }
        for (device, ids) in try await PostgresEventStore.appIDs(missing, db) {
            appIDs[device, default: [:]].merge(ids) { _, new in new }
        }
    }
}

extension ByteBuffer {
    /// Writes an integer in decimal digits, without making a string.
    fileprivate mutating func writeDecimal(_ value: Int64) {
        if value == .min {
            writeString("\(value)")
            return
        }
        if value < 0 { writeInteger(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            writeBytes(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    /// Writes an integer, or COPY's `\N` for NULL.
    fileprivate mutating func writeOptional(_ value: Int64?) {
        if let value { writeDecimal(value) } else { writeStaticString("\\N") }
    }
}

extension PostgresEventStore {
    public func reread(device: String, in zone: TimeZone, now: Date) async throws -> [ImportReport] {
        try await transaction { db in
            guard let id = try await Self.existingDeviceID(device, db) else { throw StoreError.unknownDevice(device) }
            let logs = try await db.rows(
                """
                SELECT \(unescaped: Self.readingColumns) FROM import_log
                WHERE device = \(device) AND time_zone IS NOT NULL ORDER BY id
                """
            ).map(Self.reading)
            for log in logs { _ = try await prune(importID: log.reading.id, db) }
            try await Self.move(deviceID: id, to: zone, db)
            var reports: [ImportReport] = []
            for log in logs {
                let report = try await importFile(
                    log.reading.path, options: log.reading.options(in: zone, skipInvalid: log.rejected > 0), now: now,
                    progress: nil, onReject: nil, db)
                guard report.sha256 == log.sha256 else {
                    throw StoreError.importedFileChanged(path: log.reading.path, importID: log.reading.id)
                }
                reports.append(report)
            }
            return reports
        }
    }
}
