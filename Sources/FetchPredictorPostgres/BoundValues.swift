import FetchPredictor
import PostgresNIO

/// The values of a query whose SQL is put together at run time (a condition present or not),
/// each bound as a parameter: ``bind(_:)`` keeps a value and gives the placeholder (`$1`,
/// `$2`...) to write in its place, and ``query(_:)`` makes the query of SQL written with them.
/// No value is quoted by hand or read as SQL, whatever text a client sent.
///
///     var values = BoundValues()
///     let device = values.bind(name)
///     let query = values.query("SELECT time FROM kept_wake WHERE device = \(device)")
struct BoundValues {
    private var binds = PostgresBindings()

    /// Keeps `value` and returns the placeholder that stands for it in the query's SQL.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Keeps `value`, or NULL, and returns the placeholder that stands for it.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        if let value { binds.append(value) } else { binds.appendNull() }
        return "$\(binds.count)"
    }

    /// The query of `sql`, written in the code with the placeholders ``bind(_:)`` gave. Mutating
    /// so that it reads the values as they are once `sql` is made, a value bound in `sql`'s own
    /// interpolation too: a non-mutating call reads a copy taken before its argument is made.
    mutating func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}

extension BoundValues {
    /// Binds an app setting's cell (``AppSettingsColumns/Cell``) as its column's type.
    mutating func bind(_ cell: AppSettingsColumns.Cell) -> String {
        switch cell {
        case .text(let text): bind(text)
        case .flag(let flag): bind(flag)
        case .small(let value): bind(value)
        }
    }
}
