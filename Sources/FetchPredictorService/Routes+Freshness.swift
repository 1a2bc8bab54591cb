import FetchPredictor
import Foundation
import Hummingbird

/// `GET /v1/freshness`: did the wakes pay? The tenant's fresh cold launches over days, beside
/// fetching every 30, 60 and 120 minutes and the oracle; of one device, or of every device of
/// the tenant from the days kept by the freshness pass (``FreshnessPass``).
extension Routes {
    /// What `GET /v1/freshness` answers.
    struct FreshnessAnswer: Encodable {
        /// The first day (or instant, for a device).
        var from: String
        /// The day (or instant) the period ends before.
        var to: String
        var device: String?
        var app: String?
        var observed: FreshnessFigures
        var baselines: [FreshnessFigures]
        var apps: [AppFreshness]
        /// The tenant's devices whose latest launches or fetches the pass has not kept yet: the
        /// figures will move when it has. 0 for a device's figures, read from its events.
        var pendingDevices: Int

        enum CodingKeys: String, CodingKey {
            case from, to, device, app, observed, baselines, apps, pendingDevices
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            // null, not absent: the answer is of every device, of every app.
            try container.encode(device, forKey: .device)
            try container.encode(app, forKey: .app)
            try container.encode(observed, forKey: .observed)
            try container.encode(baselines, forKey: .baselines)
            try container.encode(apps, forKey: .apps)
            try container.encode(pendingDevices, forKey: .pendingDevices)
        }
    }

    /// The most days one answer covers.
    static let maximumFreshnessDays = 366

    @Sendable func freshness(_ request: Request, context: APIContext) async throws -> Response {
        guard let tenant = context.tenant else { throw APIError(.unauthorized, "an API key is needed") }
        let query = request.uri.queryParameters
        let app = try query["app"].map { try APIContext.pathName(String($0), field: "app", separators: false) }
        guard let fromText = query["from"].map(String.init) else {
            throw APIError(.badRequest, "'from' is needed: the first day, such as 2024-05-01", field: "from")
        }
        guard let toText = query["to"].map(String.init) else {
            throw APIError(
                .badRequest, "'to' is needed: the day the period ends before, such as 2024-05-02", field: "to")
        }
        let scope = try query["scope"].map { text in
            guard let scope = FreshnessScope(rawValue: String(text)) else {
                throw APIError(.badRequest, "'scope' is all or protocol", field: "scope")
            }
            return scope
        }
        if let deviceText = query["device"].map(String.init) {
            let name = try APIContext.pathName(deviceText, field: "device")
            let device = DeviceIdentity(tenant: tenant, name: name)
            guard try await store.hasDevice(device.stored) else { throw APIError.notFound(device: device.name) }
            let zone = try await store.timeZone(device: device.stored)
            let from = try Self.periodBound(fromText, field: "from", zone: zone, device: name)
            let to = try Self.periodBound(toText, field: "to", zone: zone, device: name)
            try Self.checkPeriod(from, to)
            // The protocol's apps and warm-up are read from the whole log, as evaluate's; what
            // happened, from the period and what around it decides its figures.
            let isProtocol = scope == .protocol
            var read = try await store.backtestDevices(
                [device.stored], from: isProtocol ? nil : Freshness.readFrom(from),
                to: isProtocol ? nil : Freshness.readTo(to))
            for index in read.indices { read[index].name = name }
            let report = Freshness.measure(
                read, from: from, to: to, scope: scope ?? .all, apps: app.map { [$0] })
            return try Self.json(
                FreshnessAnswer(
                    from: fromText, to: toText, device: name, app: app, observed: report.observed,
                    baselines: report.baselines, apps: report.apps, pendingDevices: 0))
        }
        if scope == .protocol {
            throw APIError(
                .badRequest, "'scope=protocol' scores one device as evaluate does: give 'device' too", field: "scope")
        }
        let first = try Self.day(fromText, field: "from")
        let last = try Self.day(toText, field: "to")
        guard first < last else { throw APIError(.badRequest, "'to' must come after 'from'", field: "to") }
        guard last - first <= Self.maximumFreshnessDays else {
            throw APIError(
                .badRequest, "a period is at most \(Self.maximumFreshnessDays) days: ask for fewer", field: "to")
        }
        let kept = try await store.keptFreshness(tenant: tenant, days: first..<last, app: app)
        func ordered(_ figures: [FreshnessFigures]) -> [FreshnessFigures] {
            Freshness.strategyNames.map { strategy in
                figures.first { $0.strategy == strategy } ?? FreshnessFigures(strategy: strategy)
            }
        }
        let all = ordered(kept.figures[""] ?? [])
        let apps = kept.figures.keys.filter { !$0.isEmpty }.sorted().map { name in
            let figures = ordered(kept.figures[name] ?? [])
            return AppFreshness(app: name, observed: figures[0], baselines: Array(figures.dropFirst()))
        }
        // One app asked: its own figures are the answer's.
        var figures = all
        if let app {
            let asked = apps.first { $0.app == app }
            figures = asked.map { [$0.observed] + $0.baselines } ?? ordered([])
        }
        return try Self.json(
            FreshnessAnswer(
                from: fromText, to: toText, device: nil, app: app, observed: figures[0],
                baselines: Array(figures.dropFirst()), apps: apps, pendingDevices: kept.pendingDevices))
    }

    /// A day of a query, `YYYY-MM-DD`, in days since 1970-01-01: each device's own local day.
    static func day(_ text: String, field: String) throws -> Int {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month),
            (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
            (1970...9999).contains(year)
        else {
            throw APIError(
                .badRequest,
                "'\(text.prefix(40))' is not a day such as 2024-05-01: a tenant's figures are kept by each device's local day",
                field: field)
        }
        return CivilDate.daysSince1970(year: year, month: month, day: day)
    }

    /// A bound of a device's period: a day (its local midnight) or an instant.
    static func periodBound(_ text: String, field: String, zone: TimeZone?, device: String) throws -> Milliseconds {
        guard text.utf8.count == 10 else { return try instant(text, field: field).milliseconds }
        let day = try day(text, field: field)
        guard let zone else {
            throw APIError(
                .badRequest,
                "the device '\(device)' has no time zone, so it has no local days: give an instant, such as \(text)T00:00:00Z",
                field: field)
        }
        return Freshness.midnight(day, zone)
    }

    static func checkPeriod(_ from: Milliseconds, _ to: Milliseconds) throws {
        guard from < to else { throw APIError(.badRequest, "'to' must come after 'from'", field: "to") }
        guard to - from <= Milliseconds(maximumFreshnessDays + 1) * 86_400_000 else {
            throw APIError(
                .badRequest, "a period is at most \(maximumFreshnessDays) days: ask for fewer", field: "to")
        }
    }
}
