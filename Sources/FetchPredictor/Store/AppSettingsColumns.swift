import FetchPredictorCore
import Foundation

/// An app's own settings as both stores keep them: a column each of the `app` table, named the
/// same in both. The one place a setting is named, written, read back and judged the app's own;
/// the stores compose their SQL from it. Adding an app setting adds its column here and to each
/// store's migrations (with its unset value as the column's default): three store files.
package enum AppSettingsColumns {
    /// A column's value, as both stores bind and read it.
    package enum Cell: Sendable, Hashable {
        case text(String?)
        case flag(Bool)
        case small(Int16)
    }

    /// What a column holds.
    package enum Kind: Sendable {
        case text, flag, small
    }

    /// A column: its name, what it holds, and its value for an app with no such setting of its
    /// own (the column's default in both stores' migrations).
    package struct Column: Sendable {
        package var name: String
        package var kind: Kind
        package var unset: Cell
    }

    /// The columns, in the order every statement names them.
    package static let columns = [
        // The interval the app set (FetchInterval.text), NULL for the device's or the store's.
        Column(name: "interval", kind: .text, unset: .text(nil)),
        // Whether background fetch is on.
        Column(name: "enabled", kind: .flag, unset: .flag(true)),
        // The constraints, as AppConstraints.storeBits.
        Column(name: "constraints", kind: .small, unset: .small(0)),
    ]

    /// The columns of `table`, in order, for a select list: `app.interval, app.enabled, ...`.
    package static func list(_ table: String) -> String {
        columns.map { "\(table).\($0.name)" }.joined(separator: ", ")
    }

    /// The assignment of every column, each to the placeholder `placeholder` gives for its
    /// position: `interval = ?, enabled = ?, ...`.
    package static func assignments(_ placeholder: (Int) -> String) -> String {
        columns.indices.map { "\(columns[$0].name) = \(placeholder($0))" }.joined(separator: ", ")
    }

    /// The condition, in SQL both stores read (SQLite takes `FALSE` for its 0), of an app row with
    /// a setting of its own: a column that is not unset. An app with none is planned with the
    /// defaults, and goes with its last event.
    package static let ownSettingSQL: String = columns.map { column -> String in
        switch column.unset {
        // A text setting is unset as NULL.
        case .text: "app.\(column.name) IS NOT NULL"
        case .flag(let value): "app.\(column.name) = \(value ? "FALSE" : "TRUE")"
        case .small(let value): "app.\(column.name) <> \(value)"
        }
    }.joined(separator: " OR ")

    /// The cells of an app's settings, in the columns' order.
    package static func cells(_ settings: AppSettings) -> [Cell] {
        [.text(settings.interval?.text), .flag(settings.enabled), .small(settings.constraints.storeBits)]
    }

    /// An app's settings from its cells, in the columns' order.
    /// - Throws: ``StoreError/damaged(path:detail:)`` for cells a store could not have written.
    package static func settings(device: String, app: String, _ cells: [Cell], location: String) throws
        -> AppSettings
    {
        guard cells.count == columns.count, case .text(let interval) = cells[0], case .flag(let enabled) = cells[1],
            case .small(let constraints) = cells[2]
        else { throw StoreError.damaged(path: location, detail: "the settings of the app \(app) are not whole") }
        return AppSettings(
            device: device, app: app,
            interval: try interval.map { try StoreRules.storedInterval($0, location: location) },
            enabled: enabled, constraints: AppConstraints(storeBits: constraints))
    }
}
