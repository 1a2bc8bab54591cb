import FetchPredictor
import Foundation
import Hummingbird
import Metrics

/// The fleet's wakes: `GET /v1/wakes`, the tenant's devices due before a time, and
/// `POST /v1/wakes/claim`, the same leased to one worker.
extension Routes {
    /// A page of the feed: each wake as `next-wake` gives it, and where the next page starts.
    struct WakesAnswer: Encodable {
        var wakes: [DeviceWake]
        var cursor: String?
    }

    @Sendable func wakes(_ request: Request, context: APIContext) async throws -> Response {
        guard let tenant = context.tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let now = try instant(request, "now") ?? clock()
        let before = try Self.dueBefore(try instant(request, "before"), now: now)
        let limit = try Self.limit(request.uri.queryParameters["limit"].map(String.init))
        var after: WakeCursor?
        if let text = request.uri.queryParameters["cursor"] {
            guard let cursor = try await cursors.wake(String(text), tenant: tenant) else {
                throw APIError(.badRequest, "'cursor' is not one this service gave this key's tenant", field: "cursor")
            }
            after = cursor
        }
        let scheduler = self.scheduler
        let scope = DeviceIdentity.scope(ofTenant: tenant)
        // Plans are kept for the present only: the sweep keeps them for its clock.
        let keeping = abs(now.timeIntervalSince(clock())) <= 60
        // One more than the page: whether another page follows.
        let wakes = try await scheduler.dueWakes(
            scope: scope, before: before, asOf: now, after: after, limit: limit + 1, keeping: keeping)
        let page = Array(wakes.prefix(limit))
        var cursor: String?
        if wakes.count > limit, let last = page.last {
            cursor = try await cursors.wakes(after: Self.named(last, scope: scope), tenant: tenant)
        }
        return try Self.json(WakesAnswer(wakes: page.map { Self.named($0, scope: scope) }, cursor: cursor))
    }

    /// What a claim leased.
    struct ClaimAnswer: Encodable {
        var wakes: [DeviceWake]
    }

    @Sendable func claimWakes(_ request: Request, context: APIContext) async throws -> Response {
        guard let tenant = context.tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let clock = clock()
        let claim = try await body(ClaimBody.self, of: request, context: context, clock: clock)
        let (now, before, limit, lease) = (claim.now, claim.before, claim.limit, claim.leaseSeconds)
        let scheduler = self.scheduler
        let scope = DeviceIdentity.scope(ofTenant: tenant)
        let wakes = try await scheduler.claimWakes(
            scope: scope, before: before, asOf: now, limit: limit, lease: TimeInterval(lease), clock: clock)
        Counter(label: "fetchpredict_wakes_claimed_total").increment(by: wakes.count)
        return try Self.json(ClaimAnswer(wakes: wakes.map { Self.named($0, scope: scope) }))
    }

    /// The tenant's settings: the push budget of its devices that set none of their own.
    struct TenantSettingsAnswer: Encodable {
        var wakesPerHour: Int?

        enum CodingKeys: String, CodingKey { case wakesPerHour }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            // null, not absent: the budget is none.
            try container.encode(wakesPerHour, forKey: .wakesPerHour)
        }
    }

    @Sendable func tenantSettings(_ request: Request, context: APIContext) async throws -> Response {
        guard let tenant = context.tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let budget = try await store.defaultWakesPerHour(scope: DeviceIdentity.scope(ofTenant: tenant))
        return try Self.json(TenantSettingsAnswer(wakesPerHour: budget))
    }

    @Sendable func putTenantSettings(_ request: Request, context: APIContext) async throws -> Response {
        guard let tenant = context.tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let budget = try await body(TenantSettingsBody.self, of: request, context: context).wakesPerHour
        if let budget { try await store.setDefaultWakesPerHour(budget, scope: DeviceIdentity.scope(ofTenant: tenant)) }
        let answer = try await store.defaultWakesPerHour(scope: DeviceIdentity.scope(ofTenant: tenant))
        return try Self.json(TenantSettingsAnswer(wakesPerHour: answer))
    }

    /// `before`, which a feed needs, after `now`.
    static func dueBefore(_ before: Date?, now: Date) throws -> Date {
        guard let before else {
            throw APIError(.badRequest, "'before' is needed: the instant wakes are due by", field: "before")
        }
        guard before > now else { throw APIError(.badRequest, "'before' must come after 'now'", field: "before") }
        return before
    }

    /// A wake named as the tenant names its device.
    private static func named(_ wake: DeviceWake, scope: String) -> DeviceWake {
        var wake = wake
        wake.device = String(wake.device.dropFirst(scope.count))
        return wake
    }

    /// A page's size: 100 unless given, 1 to 1000.
    static func limit(_ text: String?) throws -> Int {
        guard let text else { return 100 }
        guard let value = Int(text), (1...1000).contains(value) else {
            throw APIError(.badRequest, "'limit' must be a whole number from 1 to 1000", field: "limit")
        }
        return value
    }
}

/// The feed's cursor: the last wake's time and device, and the tenant it was given to, signed
/// (``CursorSeal``). A cursor given to one tenant is refused with another's key.
extension CursorSeal {
    func wakes(after wake: DeviceWake, tenant: String) async throws -> String {
        try await seal(["wakes", tenant, String(wake.time.milliseconds), wake.device])
    }

    /// The place a cursor holds, in the store's names; `nil` when it is not one given to `tenant`.
    func wake(_ cursor: String, tenant: String) async throws -> WakeCursor? {
        guard let fields = try await open(cursor, fields: 4), fields[0] == "wakes", fields[1] == tenant,
            let time = Milliseconds(fields[2]), !fields[3].isEmpty
        else { return nil }
        return WakeCursor(time: time, device: DeviceIdentity(tenant: tenant, name: fields[3]).stored)
    }
}
