import GRDB

// The core's value types as SQLite stores them, so that records and queries read and write them
// directly. A stored value that is not one of them makes the read throw: it is never replaced by
// a default.

/// Stored as its text form: `never`, `minimum` or a number of seconds.
extension FetchInterval: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { text.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FetchInterval? {
        String.fromDatabaseValue(dbValue).flatMap { try? FetchInterval(parsing: $0) }
    }
}

/// Stored as its raw value: `newData`, `noData` or `failed`.
extension FetchResult: DatabaseValueConvertible {}

/// Stored as its raw value, such as `unlock`.
extension EventKind: DatabaseValueConvertible {}
