import FetchPredictorTestSupport
import Foundation
import GRDB
import PostgresNIO
import Testing

@testable import FetchPredictor
@testable import FetchPredictorPostgres

/// The stores every contract test runs against: the SQLite store in a fresh file, and a fresh
/// database on the tests' PostgreSQL server (``TestCluster``).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A new, empty store of this backend.
    func makeStore() throws -> any EventStoring {
        switch self {
        case .sqlite:
            let folder = TestFiles.scratchFolder("store")
            return try EventStore(path: folder.path + "/events.sqlite")
        case .postgres:
            return try PostgresEventStore(url: try TestCluster.shared.newDatabase())
        }
    }

    /// A count read straight from the store's tables, for what no API shows (which import holds
    /// an event): `sqlite` on the SQLite store, `postgres` on PostgreSQL.
    func count(in store: any EventStoring, sqlite: String, postgres: String) async throws -> Int {
        switch self {
        case .sqlite:
            let store = try #require(store as? EventStore)
            return try await store.read { db in try Int.fetchOne(db, sql: sqlite) } ?? 0
        case .postgres:
            let store = try #require(store as? PostgresEventStore)
            return try await store.read { db in try await db.value(PostgresQuery(unsafeSQL: postgres), as: Int.self) }
                ?? 0
        }
    }

    /// The backends to test: both, unless PostgreSQL cannot be had here and none was asked for
    /// with `FETCHPREDICT_REQUIRE_POSTGRES=1` (as CI asks): then a test of PostgreSQL fails.
    static var available: [Backend] {
        TestCluster.shared.isAvailable ? allCases : [.sqlite]
    }
}
