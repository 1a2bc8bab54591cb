import FetchPredictorCore
import GRDB

/// A row of the `app` table: an app of a device and its own settings (``AppSettingsColumns``).
struct AppRecord: FetchableRecord, Sendable {
    var id: Int64
    var name: String
    /// The settings' cells, in ``AppSettingsColumns/columns``' order.
    var cells: [AppSettingsColumns.Cell]

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        cells = Self.cells(row)
    }

    /// The settings' cells of a row that selected ``AppSettingsColumns/list(_:)``.
    static func cells(_ row: Row) -> [AppSettingsColumns.Cell] {
        AppSettingsColumns.columns.map { column in
            switch column.kind {
            case .text: .text(row[column.name])
            case .flag: .flag(row[column.name])
            case .small: .small(row[column.name])
            }
        }
    }

    /// The id of the app on the device, created with the default settings when new (each
    /// setting's column default is its unset value).
    static func findOrCreate(_ name: String, device: Int64, _ db: Database) throws -> Int64 {
        let existing = "SELECT id FROM app WHERE deviceId = ? AND name = ?"
        if let id = try Int64.fetchOne(db.cachedStatement(sql: existing), arguments: [device, name]) { return id }
        try db.execute(sql: "INSERT INTO app (deviceId, name) VALUES (?, ?)", arguments: [device, name])
        return db.lastInsertedRowID
    }

    /// The app's settings.
    func settings(device: String, path: String) throws -> AppSettings {
        try AppSettingsColumns.settings(device: device, app: name, cells, location: path)
    }

    /// The columns a record is read from.
    static let selection = "app.id, app.name, \(AppSettingsColumns.list("app"))"

    /// The apps of a device by name; with `ownOnly`, only those with a setting of their own
    /// (``AppSettingsColumns/ownSettingSQL``).
    static func all(device: String, ownOnly: Bool = false, _ db: Database) throws -> [AppRecord] {
        try fetchAll(
            db,
            sql: """
                SELECT \(selection) FROM app JOIN device ON device.id = app.deviceId
                WHERE device.name = ? AND (? = 0 OR \(AppSettingsColumns.ownSettingSQL))
                ORDER BY app.name
                """, arguments: [device, ownOnly])
    }

    /// One app of a device, or `nil`.
    static func named(_ name: String, device: String, _ db: Database) throws -> AppRecord? {
        try fetchOne(
            db,
            sql: """
                SELECT \(selection) FROM app JOIN device ON device.id = app.deviceId
                WHERE device.name = ? AND app.name = ?
                """,
            arguments: [device, name])
    }

    /// One app by its id, or `nil`.
    static func withID(_ id: Int64, _ db: Database) throws -> AppRecord? {
        try fetchOne(db, sql: "SELECT \(selection) FROM app WHERE app.id = ?", arguments: [id])
    }
}

extension AppSettingsColumns.Cell {
    /// The cell as SQLite binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): text.databaseValue
        case .flag(let flag): flag.databaseValue
        case .small(let value): value.databaseValue
        }
    }
}
