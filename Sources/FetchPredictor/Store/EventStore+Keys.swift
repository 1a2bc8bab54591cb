import FetchPredictorImport
import Foundation
import GRDB

/// An API key of the HTTP service, as the store keeps it: never the key itself.
public struct APIKeyInfo: Sendable, Hashable, Codable {
    /// The key's number, which `keys revoke` takes.
    public var id: Int64
    /// The tenant the key speaks for.
    public var tenant: String
    /// When the key was made.
    public var createdAt: Date
    /// When the key was revoked, or `nil` while it is valid.
    public var revokedAt: Date?

    /// Creates a value with every field given.
    public init(id: Int64, tenant: String, createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.tenant = tenant
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

extension EventStore {
    /// The problem with a tenant name, or `nil` when it is usable.
    @available(*, deprecated, renamed: "StoreRules.problem(withTenantName:)")
    public static func problem(withTenantName name: String) -> String? {
        StoreRules.problem(withTenantName: name)
    }

    /// Makes a new API key for a tenant and returns it: the only time the key is seen, since
    /// the store keeps only its SHA-256.
    ///
    /// - Throws: ``InvalidFieldError/invalid(field:reason:)`` when the tenant name is not usable.
    public func createKey(tenant: String, now: Date) async throws -> (key: String, info: APIKeyInfo) {
        if let problem = StoreRules.problem(withTenantName: tenant) {
            throw InvalidFieldError.invalid(field: "tenant", reason: problem)
        }
        let key = APIKeyText.generate()
        let created = now.milliseconds
        let id = try await write { db -> Int64 in
            try db.execute(
                sql: "INSERT INTO apiKey (tenant, sha256, createdAt) VALUES (?, ?, ?)",
                arguments: [tenant, APIKeyText.digest(key), created])
            return db.lastInsertedRowID
        }
        return (key, APIKeyInfo(id: id, tenant: tenant, createdAt: Date(milliseconds: created), revokedAt: nil))
    }

    /// Every key made, valid or revoked, in the order made.
    public func keys() async throws -> [APIKeyInfo] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, tenant, createdAt, revokedAt FROM apiKey ORDER BY id").map { row in
                APIKeyInfo(
                    id: row[0], tenant: row[1], createdAt: Date(milliseconds: row[2]),
                    revokedAt: (row[3] as Int64?).map { Date(milliseconds: $0) })
            }
        }
    }

    /// Revokes a key: from now on it is refused.
    ///
    /// - Returns: `false` when it was revoked already.
    /// - Throws: ``StoreError/unknownKey(_:)`` when there is no key of that number.
    @discardableResult
    public func revokeKey(id: Int64, now: Date) async throws -> Bool {
        try await write { db in
            guard
                try Bool.fetchOne(db, sql: "SELECT revokedAt IS NULL FROM apiKey WHERE id = ?", arguments: [id])
                    != nil
            else { throw StoreError.unknownKey(id) }
            try db.execute(
                sql: "UPDATE apiKey SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL",
                arguments: [now.milliseconds, id])
            return db.changesCount > 0
        }
    }

    /// The tenant a key speaks for, or `nil` when it is no key of this store or was revoked.
    ///
    /// Read on the caller's thread, not through GRDB's async read: one lookup by an index of a
    /// local file, asked by every request of the service, costs less than the hops to a reader's
    /// queue and back (with them, the service answered 4% fewer next-wakes at saturation:
    /// docs/experiments.md).
    public func tenant(forKey key: String) async throws -> String? {
        try tenantOnThisThread(forKey: key)
    }

    /// Counted as `tenant`, the call's name on every store.
    private func tenantOnThisThread(forKey key: String) throws -> String? {
        try read(
            { db in
                try String.fetchOne(
                    db, sql: "SELECT tenant FROM apiKey WHERE sha256 = ? AND revokedAt IS NULL",
                    arguments: [APIKeyText.digest(key)])
            }, call: "tenant(forKey:)")
    }

    public func keyRevocations() async throws -> KeyRevocations {
        try await read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*), count(revokedAt), coalesce(max(revokedAt), 0) FROM apiKey")
            return KeyRevocations(keys: row?[0] ?? 0, revoked: row?[1] ?? 0, latest: row?[2] ?? 0)
        }
    }

    public func cursorSecret() async throws -> [UInt8] {
        let text = try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO storeSetting (key, value) VALUES ('cursorSecret', ?)",
                arguments: [APIKeyText.newSecret()])
            return try StoreSettingRecord.value("cursorSecret", db)
        }
        guard let text, let secret = APIKeyText.secretBytes(text) else {
            throw StoreError.damaged(path: path, detail: "the cursor secret is not 64 hex digits")
        }
        return secret
    }
}
