import FetchPredictor
import FetchPredictorPostgres
import FetchPredictorTestSupport
import Foundation
import Testing

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
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fp-store-\(UUID().uuidString)")
            return try EventStore(path: folder.path + "/events.sqlite")
        case .postgres:
            return try PostgresEventStore(url: try TestCluster.shared.newDatabase())
        }
    }

    /// The backends to test: both, unless PostgreSQL cannot be had here and none was asked for
    /// with `FETCHPREDICT_REQUIRE_POSTGRES=1` (as CI asks): then a test of PostgreSQL fails.
    static var available: [Backend] {
        TestCluster.shared.isAvailable ? allCases : [.sqlite]
    }
}
