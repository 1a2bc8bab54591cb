import FetchPredictor
import Foundation
import PostgresNIO

extension PostgresEventStore {
    public func createKey(tenant: String, now: Date) async throws -> (key: String, info: APIKeyInfo) {
        if let problem = StoreRules.problem(withTenantName: tenant) {
            throw InvalidFieldError.invalid(field: "tenant", reason: problem)
        }
        let key = APIKeyText.generate()
        let created = now.milliseconds
        let id = try await transaction { db in
            try await db.value(
                """
                INSERT INTO api_key (tenant, sha256, created_at) VALUES (\(tenant), \(APIKeyText.digest(key)), \(created))
                RETURNING id
                """, as: Int64.self) ?? 0
        }
        return (key, APIKeyInfo(id: id, tenant: tenant, createdAt: Date(milliseconds: created), revokedAt: nil))
    }

    public func keys() async throws -> [APIKeyInfo] {
        try await read { db in
            try await db.rows("SELECT id, tenant, created_at, revoked_at FROM api_key ORDER BY id").map { row in
                let (id, tenant, created, revoked) = try row.decode((Int64, String, Int64, Int64?).self)
                return APIKeyInfo(
                    id: id, tenant: tenant, createdAt: Date(milliseconds: created),
                    revokedAt: revoked.map { Date(milliseconds: $0) })
            }
        }
    }

    @discardableResult
    public func revokeKey(id: Int64, now: Date) async throws -> Bool {
        try await transaction { db in
            guard try await db.value("SELECT EXISTS (SELECT 1 FROM api_key WHERE id = \(id))", as: Bool.self) == true
            else {
                throw StoreError.unknownKey(id)
            }
            return try await db.changes(
                "UPDATE api_key SET revoked_at = \(now.milliseconds) WHERE id = \(id) AND revoked_at IS NULL") > 0
        }
    }

    public func tenant(forKey key: String) async throws -> String? {
        try await read { db in try await db.rows(TenantStatement(digest: APIKeyText.digest(key))).first }
    }

    public func keyRevocations() async throws -> KeyRevocations {
        try await read { db in
            let rows = try await db.rows(
                "SELECT count(*), count(revoked_at), coalesce(max(revoked_at), 0)::BIGINT FROM api_key")
            guard let row = rows.first else {
                throw StoreError.unavailable(location: location, detail: "no row came back")
            }
            let (keys, revoked, latest) = try row.decode((Int64, Int64, Int64).self)
            return KeyRevocations(keys: keys, revoked: revoked, latest: latest)
        }
    }

    public func cursorSecret() async throws -> [UInt8] {
        let text = try await transaction { db in
            try await db.changes(
                """
                INSERT INTO store_setting (key, value) VALUES ('cursorSecret', \(APIKeyText.newSecret()))
                ON CONFLICT (key) DO NOTHING
                """)
            return try await db.value("SELECT value FROM store_setting WHERE key = 'cursorSecret'", as: String.self)
        }
        guard let text, let secret = APIKeyText.secretBytes(text) else {
            throw StoreError.damaged(path: location, detail: "the cursor secret is not 64 hex digits")
        }
        return secret
    }
}

/// A key's tenant, unless revoked: asked by every request of the service.
private struct TenantStatement: PostgresPreparedStatement {
    static let sql = "SELECT tenant FROM api_key WHERE sha256 = $1 AND revoked_at IS NULL"
    typealias Row = String
    var digest: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(digest)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
