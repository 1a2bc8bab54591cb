import FetchPredictor
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import Synchronization

/// The settings of the HTTP service.
public struct ServiceSettings: Sendable {
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port: Int = 8080
    /// The largest request body accepted, in bytes; a larger one is 413.
    public var maximumBodyBytes: Int = 1 << 20
    /// The most events one batch may hold.
    public var maximumBatchEvents: Int = 10_000
    /// The most devices whose learned models stay in memory.
    public var maximumLoadedDevices: Int = 1_000
    /// How long a connection may send nothing before it is closed: a slow or half-sent request
    /// holds no connection for ever.
    public var readTimeout: Duration = .seconds(30)
    /// The most models of one tenant's devices learned at once from many events (``largeLearn``):
    /// what one tenant may take of the cores that every tenant's requests are answered on. One a
    /// core by default.
    public var learnsPerTenant: Int = ProcessInfo.processInfo.activeProcessorCount
    /// How many events past a device's cached model a learn reads to count against its tenant's
    /// ``learnsPerTenant``; one of fewer costs about what planning does, and needs no turn
    /// (`FetchScheduler.largeLearn`).
    public var largeLearn: Int = FetchScheduler.defaultLargeLearn
    /// How long a request whose device must be learned waits for its tenant's turn (or for the
    /// device's learn by another request) before it is answered 429 (or 503) with `Retry-After`.
    public var learnWait: Duration = .seconds(10)
    /// The most connections held at once; one beyond is closed as it opens. `nil` for the
    /// process's limit of open files less 128 (``ConnectionLimit/fitting(openFiles:)``), or
    /// 10,000 when that is unlimited.
    public var maximumConnections: Int?
    /// The most connections one client address may hold (an IPv4 address, an IPv6 address's
    /// /64); beyond, a new one is closed as it opens. `nil` for a quarter of
    /// ``maximumConnections``; 0 for no cap.
    public var maximumConnectionsPerAddress: Int?
    /// The most devices whose kept wake the sweep plans again each second (``WakeSweep``);
    /// 0 for no sweep.
    public var sweepPerSecond: Int = 2_000
    /// The most devices whose days of freshness the pass keeps again each second
    /// (``FreshnessPass``), when their launches or fetches arrived; 0 for no pass.
    public var freshnessPerSecond: Int = 500
    /// How long a device's days of freshness wait after the pass took them before it takes them
    /// again: a device sending a batch a second is scored once a minute, not every second.
    public var freshnessSettle: Duration = .seconds(60)
    /// The most of its time the freshness pass works (more than 0, at most 1): after a tick's
    /// work it rests so that its work is this share of the time at most, and its figures lag
    /// when more devices change than that keeps.
    public var freshnessShare: Double = 0.05
    /// How many wrong API keys one client address may send a minute (and at once) before its
    /// requests with a key are answered 429 until it slows (``KeyGuessLimit``); 0 for no limit,
    /// as behind a proxy that limits them itself.
    public var keyFailuresPerMinute: Int = 60
    /// How often the store is asked whether an API key was revoked (``KeyCache``): between
    /// checks a key's tenant comes from memory, so a key revoked is refused within this long
    /// (twice it, when a check fails). `.zero` looks every key up on every request.
    public var keyCheckInterval: Duration = .seconds(1)
    /// The proxies whose `Forwarded` or `X-Forwarded-For` names the client (``TrustedProxies``):
    /// the limits by address count the clients behind them, and their own connections are not
    /// capped by address. None by default: every client is its connection's address.
    public var trustedProxies = TrustedProxies.none

    /// The defaults: loopback port 8080, 1 MiB bodies, 10,000 events a batch, 1,000 models.
    public init() {}
}

/// The HTTP service: the `/v1` routes over one store, health, metrics and the OpenAPI document.
///
/// ```swift
/// let store = try EventStore(path: path)
/// let app = FetchPredictorService.application(store: store, settings: ServiceSettings())
/// try await app.runService()  // until SIGTERM or SIGINT, then drains what is in flight
/// ```
public enum FetchPredictorService {
    /// Why the service could not listen at an address, as one sentence: what the system said, and
    /// for an address in use, what to do; `nil` for an error that is not the socket's.
    public static func listenFailure(_ error: any Error, host: String, port: Int) -> String? {
        guard let error = error as? IOError else { return nil }
        let reason = String(cString: strerror(error.errnoCode)).lowercased()
        let remedy =
            error.errnoCode == EADDRINUSE ? ": another process listens there; give another --listen HOST:PORT" : ""
        return "Cannot listen on \(host):\(port): \(reason)\(remedy)."
    }

    /// The OpenAPI 3.1 document of the service, as served at `/openapi.yaml`.
    public static var openAPIDocument: String { String(decoding: PackageResources.openapi_yaml, as: UTF8.self) }

    /// The service as a Hummingbird application, ready to run.
    ///
    /// - Parameters:
    ///   - store: the event store it serves.
    ///   - settings: where it listens and its limits.
    ///   - configuration: learning and planning settings.
    ///   - forecaster: what forecasts the cold launches of the devices that set no forecaster of
    ///     their own (`PUT /v1/devices/{device}` with `forecaster`).
    ///   - logger: where it logs.
    ///   - clock: the time of requests that give none.
    ///   - onRunning: called with the port once the service listens.
    public static func application(
        store: any EventStoring, settings: ServiceSettings,
        configuration: PredictorConfiguration = PredictorConfiguration(),
        forecaster: any LaunchForecaster = HazardForecaster(),
        logger: Logger = Logger(label: "fetchpredict"), clock: @escaping @Sendable () -> Date = { Date() },
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let registry = ServiceMetrics.registry
        let maximumConnections =
            settings.maximumConnections ?? ConnectionLimit.openFilesLimit.map(ConnectionLimit.fitting) ?? 10_000
        let perAddress: Int? =
            switch settings.maximumConnectionsPerAddress {
            case nil: ConnectionLimit.defaultPerAddress(maximum: maximumConnections)
            case 0?: nil
            case let count?: count
            }
        let proxies = settings.trustedProxies
        let connections = ConnectionLimit(
            maximum: maximumConnections, perAddress: perAddress, exempt: { proxies.trusts($0) }, logger: logger)
        let learning = TenantLearning(limit: settings.learnsPerTenant)
        let scheduler = FetchScheduler(
            store: store, configuration: configuration, forecaster: forecaster,
            maximumLoadedDevices: settings.maximumLoadedDevices,
            requiresKnownDevices: true, admission: learning, learningWait: settings.learnWait,
            largeLearn: settings.largeLearn)
        // What each request costs the store, by call: a warm next-wake makes one.
        let storeCalls = StoreCallCounters()
        store.calls.observe { storeCalls.increment($0) }
        let router = Router(context: APIContext.self)
        let health = StoreHealth(logger: logger)
        router.add(middleware: ErrorsAndMetricsMiddleware(health: health))
        router.get("/healthz") { _, _ in try Routes.json(["status": "ok"]) }
        router.get("/readyz") { _, _ -> Response in
            do {
                try await store.check()
                return try Routes.json(["status": "ready"])
            } catch {
                health.failed()
                var answer = APIError(.serviceUnavailable, "the store does not answer")
                answer.headers[.retryAfter] = "1"
                throw answer
            }
        }
        router.get("/metrics") { _, _ -> Response in
            Gauge(label: "fetchpredict_models_loaded").record(scheduler.loadedDeviceCount)
            Gauge(label: "fetchpredict_learns_running").record(learning.runningCount)
            Gauge(label: "fetchpredict_connections_open").record(connections.openCount)
            var buffer: [UInt8] = []
            buffer.reserveCapacity(16_384)
            registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        router.get("/openapi.yaml") { _, _ in
            Routes.text(openAPIDocument, type: "application/yaml; charset=utf-8")
        }
        let keys = KeyCache(store: store, interval: settings.keyCheckInterval, logger: logger)
        let v1 = router.group("v1").add(
            middleware: BearerKeyMiddleware(
                keys: keys, guesses: KeyGuessLimit(perMinute: settings.keyFailuresPerMinute, logger: logger),
                proxies: proxies))
        Routes(store: store, scheduler: scheduler, settings: settings, cursors: CursorSeal(store: store), clock: clock)
            .add(to: v1)
        let sweep = WakeSweep(
            scheduler: scheduler, clock: clock, perTick: settings.sweepPerSecond,
            interval: .seconds(1),
            logger: logger)
        let freshness = FreshnessPass(
            store: store, clock: clock, perTick: settings.freshnessPerSecond, settle: settings.freshnessSettle,
            share: settings.freshnessShare, interval: .seconds(1), logger: logger)
        let idle = TimeAmount.nanoseconds(Int64(settings.readTimeout.components.seconds) * 1_000_000_000)
        return Application(
            responder: HeadAsGet(base: router.buildResponder()),
            server: HTTPServerBuilder { responder in
                ServiceHTTP1Channel(
                    responder: responder,
                    handlers: { [connections.handler(), RequestDeadlineHandler(deadline: idle)] },
                    idleTimeout: settings.readTimeout)
            },
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "fetchpredict"),
            services: (settings.keyCheckInterval > .zero ? [keys] : [])
                + (settings.sweepPerSecond > 0 ? [sweep] : [])
                + (settings.freshnessPerSecond > 0 ? [freshness] : []),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }
}

/// The process's Prometheus registry, behind swift-metrics: made and bootstrapped once, on
/// first use, so that several services in one process (as in tests) share it.
enum ServiceMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }()
}

/// `fetchpredict_store_calls_total{call}`: a counter for each of the store's calls, made once.
final class StoreCallCounters: Sendable {
    private let counters = Mutex<[String: Metrics.Counter]>([:])

    func increment(_ call: String) {
        let counter = counters.withLock { counters in
            if let counter = counters[call] { return counter }
            let counter = Metrics.Counter(label: "fetchpredict_store_calls_total", dimensions: [("call", call)])
            counters[call] = counter
            return counter
        }
        counter.increment()
    }
}
