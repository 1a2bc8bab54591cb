import FetchPredictor
import Foundation
import Hummingbird
import Metrics
import NIOCore
import NIOHTTP1

/// The handlers of the `/v1` routes: each parses, calls the library, and encodes, as a command's
/// `run()` does. The scheduler's queries and the store's roles are awaited. A query that must
/// learn from many events waits in line for its tenant's turn, holding no thread
/// (``TenantLearning``), at most ``ServiceSettings/learnWait``.
struct Routes: Sendable {
    let store: any EventKeeping & DeviceSettingsKeeping & FreshnessKeeping
    let scheduler: FetchScheduler
    let settings: ServiceSettings
    /// Signs the cursors of listings and reads them back.
    let cursors: CursorSeal
    /// Where the store's synchronous calls run.
    /// The clock of requests that give no time: the service reads the wall clock, the library never.
    let clock: @Sendable () -> Date

    /// A route: its method and its path, `{name}` standing for a name.
    struct Route: Sendable, Hashable {
        var method: HTTPRequest.Method
        var path: String
    }

    /// What answers a route of ``v1``, for a value of `Routes`.
    typealias Handler = @Sendable (Routes) -> @Sendable (Request, APIContext) async throws -> Response

    /// The routes under `/v1`, each listed once with the type its body is read into: registered
    /// from here (``add(to:)``), answered 405 from here (``methods(allowedOn:)``), and held equal
    /// to the OpenAPI document's, paths, methods and bodies, by tests.
    static let v1: [(route: Route, body: (any BodySchema.Type)?, handler: Handler)] = [
        (Route(method: .post, path: "/devices/{device}/events"), EventsBody.self, { $0.postEvents }),
        (Route(method: .get, path: "/devices/{device}/next-wake"), nil, { $0.nextWake }),
        (Route(method: .get, path: "/devices/{device}/schedule"), nil, { $0.schedule }),
        (Route(method: .get, path: "/devices/{device}/apps"), nil, { $0.apps }),
        (Route(method: .get, path: "/devices/{device}/apps/{app}/habits"), nil, { $0.habits }),
        (Route(method: .put, path: "/devices/{device}/apps/{app}"), AppSettingsBody.self, { $0.putApp }),
        (Route(method: .get, path: "/devices/{device}"), nil, { $0.getDevice }),
        (Route(method: .put, path: "/devices/{device}"), DeviceSettingsBody.self, { $0.putDevice }),
        (Route(method: .delete, path: "/devices/{device}"), nil, { $0.deleteDevice }),
        (Route(method: .get, path: "/devices"), nil, { $0.listDevices }),
        (Route(method: .get, path: "/wakes"), nil, { $0.wakes }),
        (Route(method: .post, path: "/wakes/claim"), ClaimBody.self, { $0.claimWakes }),
        (Route(method: .get, path: "/freshness"), nil, { $0.freshness }),
        (Route(method: .get, path: "/settings"), nil, { $0.tenantSettings }),
        (Route(method: .put, path: "/settings"), TenantSettingsBody.self, { $0.putTenantSettings }),
    ]

    /// The routes outside `/v1`, which need no key; the service registers them with what it
    /// alone has (the store's health, the metrics' registry, the document).
    static let root: [Route] = [
        Route(method: .get, path: "/healthz"), Route(method: .get, path: "/readyz"),
        Route(method: .get, path: "/metrics"), Route(method: .get, path: "/openapi.yaml"),
    ]

    /// Every route, with its whole path.
    static var all: [Route] { root + v1.map { Route(method: $0.route.method, path: "/v1" + $0.route.path) } }

    func add(to group: RouterGroup<APIContext>) {
        for (route, _, handler) in Self.v1 {
            group.on(RouterPath(route.path), method: route.method, use: handler(self))
        }
    }

    /// Every route's path, `*` for a name, with its methods in the order listed: what a 405
    /// answers in `Allow`.
    static let table: [(path: [String], methods: [String])] = {
        var table: [(path: [String], methods: [String])] = []
        for route in all {
            let path = route.path.split(separator: "/").map { $0.hasPrefix("{") ? "*" : String($0) }
            if let index = table.firstIndex(where: { $0.path == path }) {
                table[index].methods.append(route.method.rawValue)
            } else {
                table.append((path, [route.method.rawValue]))
            }
        }
        return table
    }()

    /// The methods of the route at `path`, or `nil` when no route has that path.
    static func methods(allowedOn path: String) -> [String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return table.first { route in
            route.path.count == segments.count
                && zip(route.path, segments).allSatisfy { $0 == "*" ? !$1.isEmpty : $0 == $1 }
        }?.methods
    }

    // MARK: Events

    /// What a batch of events did.
    struct EventsAnswer: Encodable {
        var device: String
        var received: Int
        var stored: Int
        var duplicates: Int
    }

    @Sendable func postEvents(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let bytes = Array(buffer: try await body(of: request, context: context))
        let events = try EventsBody.read(bytes, maximumEvents: settings.maximumBatchEvents)
        let scheduler = self.scheduler
        let batch = try await scheduler.record(events, device: device.stored)
        Counter(label: "fetchpredict_events_stored_total").increment(by: batch.stored)
        Counter(label: "fetchpredict_events_duplicate_total").increment(by: batch.duplicates)
        return try Self.json(
            EventsAnswer(
                device: device.name, received: events.count, stored: batch.stored, duplicates: batch.duplicates))
    }

    // MARK: Wakes

    /// What `next` answers, as `fetchpredict next --json` does.
    struct NextAnswer: Encodable {
        var device: String
        var now: Date
        var wake: DeviceWake
    }

    @Sendable func nextWake(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let now = try instant(request, "now") ?? clock()
        let before = try instant(request, "before")
        if let before, before <= now {
            throw APIError(.badRequest, "'before' must come after 'now'", field: "before")
        }
        let scheduler = self.scheduler
        // The scheduler refuses a device the store does not have: 404.
        let (wake, noWake) = try await scheduler.nextWakeOrReason(after: now, before: before, device: device.stored)
        guard var wake else { return Self.noWake(noWake) }
        wake.device = device.name
        return try Self.json(NextAnswer(device: device.name, now: now, wake: wake))
    }

    /// The 204 of no wake, with why in `FetchPredictor-No-Wake` when the settings or the
    /// history say: its code, and for a silence when it began and the last launch, as
    /// `silent; since=INSTANT; last-launch=INSTANT`, for Low Power Mode when it was turned on,
    /// as `low-power-mode; since=INSTANT`. Names are left out: a header is ASCII.
    static func noWake(_ reason: NoWake?) -> Response {
        var response = Response(status: .noContent)
        guard let reason else { return response }
        var value = reason.code
        switch reason {
        case .lowPowerMode(let mode):
            value += "; since=\(TimestampFormatter.iso(mode.since.milliseconds))"
        case .silent(let silence):
            value += "; since=\(TimestampFormatter.iso(silence.since.milliseconds))"
            value += "; last-launch=\(TimestampFormatter.iso(silence.lastLaunch.milliseconds))"
        case .stale(let lastEvent):
            value += "; last-event=\(TimestampFormatter.iso(lastEvent.milliseconds))"
        case .noApps, .noAppMayFetch:
            break
        }
        response.headers[.init(noWakeHeader)!] = value
        return response
    }

    /// The header that says why a 204 has no wake.
    static let noWakeHeader = "FetchPredictor-No-Wake"

    @Sendable func schedule(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let now = clock()
        let from = try instant(request, "from") ?? now
        var hours = 24.0
        if let text = request.uri.queryParameters["hours"] {
            guard let value = Double(String(text)), value > 0, value <= 336 else {
                throw APIError(.badRequest, "'hours' must be a number more than 0 and at most 336", field: "hours")
            }
            hours = value
        }
        let scheduler = self.scheduler
        var schedule = try await scheduler.schedule(
            from: from, to: from.addingTimeInterval(hours * 3600), device: device.stored)
        schedule.device = device.name
        for index in schedule.wakes.indices { schedule.wakes[index].device = device.name }
        let accept = request.headers[.accept] ?? ""
        if accept.contains("text/calendar") {
            return Self.text(WakeCalendar.ics(schedule.wakes, stamp: now), type: "text/calendar; charset=utf-8")
        }
        if accept.contains("text/csv") {
            return Self.text(WakeCalendar.csv(schedule.wakes) + "\n", type: "text/csv; charset=utf-8")
        }
        return try Self.json(schedule)
    }

    // MARK: Apps

    @Sendable func apps(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let now = try instant(request, "now")
        guard try await store.hasDevice(device.stored) else { throw APIError.notFound(device: device.name) }
        var apps = try await store.apps(device: device.stored, asOf: now)
        for index in apps.indices { apps[index].device = device.name }
        return try Self.json(apps)
    }

    @Sendable func habits(_ request: Request, context: APIContext) async throws -> Response {
        let device = try context.device()
        let app = try context.app()
        let now = try instant(request, "now") ?? clock()
        let scheduler = self.scheduler
        guard try await store.hasDevice(device.stored) else { throw APIError.notFound(device: device.name) }
        guard try await store.appSettings(device: device.stored).contains(where: { $0.app == app }) else {
            throw APIError(.notFound, "device '\(device.name)' has no app named '\(app)'", field: "app")
        }
        guard let zone = try await store.timeZone(device: device.stored) else {
            throw StoreError.noTimeZone(device: device.stored)
        }
        // Its several questions wait for learning learnWait in all.
        let habits = try await scheduler.waitingForLearning {
            try await AppHabits(app: app, device: device.stored, now: now, zone: zone, scheduler: scheduler)
        }
        return try Self.json(habits)
    }

    // MARK: Reading requests

    /// An instant from the query, or `nil` when the query has none. A local time is refused, as
    /// the parser refuses a time without `Z` or an offset: no zone is assumed for it.
    func instant(_ request: Request, _ name: String) throws -> Date? {
        try request.uri.queryParameters[name[...]].map { try Self.instant(String($0), field: name) }
    }

    /// An instant of a query or a body, refused naming `field` when it is none or out of range.
    static func instant(_ text: String, field: String) throws -> Date {
        switch TimestampParser.parse(text) {
        case .failure(let error):
            throw APIError(.badRequest, "'\(text.prefix(40))' is \(error)", field: field)
        case .success(let time):
            if let problem = EventLimits.problem(withTime: time.milliseconds) {
                throw APIError(.badRequest, problem, field: field)
            }
            return Date(milliseconds: time.milliseconds)
        }
    }

    /// The request's body, up to the size limit (413 beyond it) and within the read timeout
    /// (408 after it): a body sent a byte at a time holds no connection for ever.
    func body(of request: Request, context: APIContext) async throws -> ByteBuffer {
        let (limit, timeout, loop) = (settings.maximumBodyBytes, settings.readTimeout, context.eventLoop)
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do {
                    return try await request.body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw APIError(
                        .contentTooLarge,
                        "the body is larger than the \(limit) bytes the service accepts (--max-body-bytes): send it in parts"
                    )
                } catch is HTTPParserError {
                    // The client's framing (a chunk size of 'zz'), not the service's fault.
                    var answer = APIError(.badRequest, "the request's body is not valid HTTP/1.1 framing")
                    answer.headers[.connection] = "close"
                    throw answer
                } catch {
                    // The connection closed, or its idle timeout closed it, before the body was whole.
                    var answer = APIError(.requestTimeout, "the body stopped arriving before it was whole")
                    answer.headers[.connection] = "close"
                    throw answer
                }
            }
            group.addTask {
                try await Self.sleep(for: timeout, on: loop)
                return nil
            }
            defer { group.cancelAll() }
            guard let buffer = try await group.next() ?? nil else {
                var answer = APIError(
                    .requestTimeout, "the body did not arrive within \(timeout.components.seconds) seconds")
                answer.headers[.connection] = "close"
                throw answer
            }
            return buffer
        }
    }

    /// Sleeps for `duration` on an event loop's timer, which a cancelled sleep takes off the
    /// loop's timers at once, then throws `CancellationError`, as `Task.sleep` does. For the
    /// limits raced against every body: cancelled thousands of times a second under load, a
    /// `Task.sleep` each came with stalls of seconds (docs/experiments.md, 2026-11-28, evening).
    static func sleep(for duration: Duration, on loop: any EventLoop) async throws {
        let timer = loop.scheduleTask(in: .nanoseconds(duration.nanoseconds)) {}
        try await withTaskCancellationHandler {
            do {
                try await timer.futureResult.get()
            } catch EventLoopError.cancelled {
                throw CancellationError()
            }
        } onCancel: {
            timer.cancel()
        }
    }

    /// The body read into its type (``RequestBody``): a key twice, a string that is not UTF-8
    /// (the same parser and rules as an events body's; JSONDecoder took the first of two keys),
    /// or a key the body does not take is refused, the last by name.
    func body<Body: RequestBody>(
        _ type: Body.Type, of request: Request, context: APIContext, clock: Date? = nil
    ) async throws -> Body {
        let bytes = try await body(of: request, context: context)
        let members: [String: SettingsBodyReader.Value]
        switch SettingsBodyReader.read(Array(buffer: bytes)) {
        case .success(let read): members = read
        case .failure(let problem): throw APIError(.badRequest, problem.reason)
        }
        let names = Set(Body.fields.map(\.name))
        if let other = members.keys.sorted().first(where: { !names.contains($0) }) {
            throw APIError(
                .badRequest,
                "'\(other.prefix(40))' is not a setting here: give \(names.sorted().joined(separator: " or "))",
                field: other)
        }
        return try Body(BodyMembers(members: members, clock: clock ?? self.clock()))
    }

    // MARK: Writing answers

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try WireJSON.encoder(pretty: false).encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
