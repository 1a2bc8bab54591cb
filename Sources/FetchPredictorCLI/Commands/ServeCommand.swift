// The service and its fleet store come with the package's Service trait (on by default).
#if Service
    import ArgumentParser
    import FetchPredictor
    import FetchPredictorPostgres
    import FetchPredictorService
    import Foundation
    import Logging

    struct ServeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the store over HTTP: events in, next wakes and schedules out.",
            discussion: """
                Every /v1 route needs 'Authorization: Bearer KEY', a key made with 'fetchpredict keys \
                create'; a tenant sees only the devices it made. /healthz, /readyz, /metrics \
                (Prometheus) and /openapi.yaml (the contract) need none. SIGTERM or SIGINT stops \
                taking connections, finishes the requests in flight and exits 0.

                Example:
                  fetchpredict keys create --tenant acme
                  fetchpredict serve --listen 127.0.0.1:8080
                  curl -H "Authorization: Bearer $KEY" localhost:8080/v1/devices/phone/next-wake
                """)

        @OptionGroup var store: DatabaseOptions

        @Option(help: ArgumentHelp("The address and port to listen on.", valueName: "host:port"))
        var listen: String = "127.0.0.1:8080"

        @Option(help: ArgumentHelp("The largest request body accepted, in bytes.", valueName: "bytes"))
        var maxBodyBytes: Int = 1 << 20

        @Option(help: ArgumentHelp("The most events one batch may hold.", valueName: "count"))
        var maxBatchEvents: Int = 10_000

        @Option(help: ArgumentHelp("The most devices whose learned models stay in memory.", valueName: "count"))
        var cacheDevices: Int = 1_000

        @Option(help: ArgumentHelp("Seconds a connection may send nothing before it is closed.", valueName: "seconds"))
        var readTimeout: Int = 30

        @Option(
            help: ArgumentHelp(
                "The most models of one tenant's devices learned at once from 4,096 events or more; a request whose device must be learned so beyond it waits --learn-wait, then is answered 429. Default: the number of cores, half the threads that answer.",
                valueName: "count"))
        var learnsPerTenant: Int?

        @Option(
            help: ArgumentHelp(
                "Seconds a request waits for its device to be learned before it is answered 429 or 503 with Retry-After.",
                valueName: "seconds"))
        var learnWait: Int = 10

        @OptionGroup var silence: SilenceOptions

        @Option(help: ForecasterArgument.serveHelp)
        var forecaster = ForecasterArgument.defaultValue

        @Option(
            help: ArgumentHelp(
                "The most connections held at once; one beyond is closed as it opens. Default: the limit of open files (ulimit -n, raised to its hard limit at start) less 128.",
                valueName: "count"))
        var maxConnections: Int?

        @Option(
            help: ArgumentHelp(
                "The most connections one client address (an IPv4 address, an IPv6 /64) may hold; one beyond is closed as it opens. Default: a quarter of --max-connections; 0 for no cap.",
                valueName: "count"))
        var maxConnectionsPerAddress: Int?

        @Option(
            help: ArgumentHelp(
                "The most devices whose kept wake (passed, or moved by a write) the sweep plans again each second, so that GET /v1/wakes finds it kept; 0 for no sweep.",
                valueName: "count"))
        var sweepPerSecond: Int = 2_000

        @Option(
            help: ArgumentHelp(
                "The most devices whose days of freshness (GET /v1/freshness, the fetchpredict_freshness_ gauges) are kept again each second after their launches or fetches arrive; 0 for none.",
                valueName: "count"))
        var freshnessPerSecond: Int = 500

        @Option(
            help: ArgumentHelp(
                "How many seconds a device's days of freshness wait after the pass took them before it takes them again, so that a busy device is scored once a while.",
                valueName: "seconds"))
        var freshnessSettle: Int = 60

        @Option(
            help: ArgumentHelp(
                "The most of its time the freshness pass works, from more than 0 to 1: after a second's work it rests the rest, so that a fleet whose devices all send events costs the service's other work no more than this share of a core; its figures lag instead.",
                valueName: "fraction"))
        var freshnessShare: Double = 0.05

        @Option(
            help: ArgumentHelp(
                "The most wrong API keys one client address may send a minute (and at once); beyond, its requests with a key are answered 429 with Retry-After until it slows. 0 for no limit. Behind a proxy, give --trusted-proxy so that its clients are told apart.",
                valueName: "count"))
        var keyFailuresPerMinute: Int = 60

        @Option(
            help: ArgumentHelp(
                "How often to ask the store whether an API key was revoked, in seconds: between the checks a key in use costs the store no call, and a key revoked (by any process) is refused within about this long, never more than twice it. From 0.1 to 3600; 0 looks every key up on every request.",
                valueName: "seconds"))
        var keyCheckInterval: Double = 1

        @Option(
            parsing: .singleValue,
            help: ArgumentHelp(
                "A proxy (an address or a CIDR range, such as 10.0.0.0/8; repeat for more) whose Forwarded or X-Forwarded-For header names the client: the limits by address then count the clients behind it. Never trusted otherwise.",
                valueName: "cidr"))
        var trustedProxy: [String] = []

        @Option(
            help: ArgumentHelp(
                "The least severe log level: trace, debug, info, notice, warning, error; the ready and stopped lines are always logged.",
                valueName: "level"))
        var logLevel: String = "info"

        func validate() throws {
            guard address != nil else {
                throw ValidationError("--listen must be HOST:PORT with a port from 0 to 65535, such as 127.0.0.1:8080.")
            }
            guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024.") }
            guard maxBatchEvents >= 1 else { throw ValidationError("--max-batch-events must be at least 1.") }
            guard cacheDevices >= 1 else { throw ValidationError("--cache-devices must be at least 1.") }
            guard readTimeout >= 1 else { throw ValidationError("--read-timeout must be at least 1 second.") }
            guard learnsPerTenant ?? 1 >= 1 else { throw ValidationError("--learns-per-tenant must be at least 1.") }
            guard maxConnections ?? 1 >= 1 else { throw ValidationError("--max-connections must be at least 1.") }
            guard maxConnectionsPerAddress ?? 0 >= 0 else {
                throw ValidationError("--max-connections-per-address must be 0 or more.")
            }
            guard sweepPerSecond >= 0 else { throw ValidationError("--sweep-per-second must be 0 or more.") }
            guard freshnessPerSecond >= 0 else { throw ValidationError("--freshness-per-second must be 0 or more.") }
            guard freshnessSettle >= 0 else { throw ValidationError("--freshness-settle must be 0 seconds or more.") }
            guard freshnessShare > 0, freshnessShare <= 1 else {
                throw ValidationError("--freshness-share must be more than 0 and at most 1.")
            }
            guard keyFailuresPerMinute >= 0 else {
                throw ValidationError("--key-failures-per-minute must be 0 or more.")
            }
            guard keyCheckInterval == 0 || (0.1...3600).contains(keyCheckInterval) else {
                throw ValidationError("--key-check-interval must be 0 (no cache) or from 0.1 to 3600 seconds.")
            }
            guard learnWait >= 0 else { throw ValidationError("--learn-wait must be 0 seconds or more.") }
            do {
                _ = try TrustedProxies(trustedProxy)
            } catch {
                throw ValidationError("--trusted-proxy: \(error).")
            }
            guard Logger.Level(rawValue: logLevel) != nil else {
                throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
            }
        }

        /// The host and port of `--listen`.
        var address: (host: String, port: Int)? {
            guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
                (0...65535).contains(port)
            else { return nil }
            var host = String(listen[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return host.isEmpty ? nil : (host, port)
        }

        func run() throws {
            // A service's store reads beside its writes, a pool of connections, and what it
            // acknowledged is on the disk.
            let eventStore = try store.openStore(concurrentReads: true, durable: true)
            var settings = ServiceSettings()
            (settings.host, settings.port) = address!
            settings.maximumBodyBytes = maxBodyBytes
            settings.maximumBatchEvents = maxBatchEvents
            settings.maximumLoadedDevices = cacheDevices
            settings.readTimeout = .seconds(readTimeout)
            if let learnsPerTenant { settings.learnsPerTenant = learnsPerTenant }
            // A server holds a file a connection: take the most open files the system grants.
            Self.raiseOpenFilesLimit()
            settings.maximumConnections = maxConnections
            settings.maximumConnectionsPerAddress = maxConnectionsPerAddress
            settings.learnWait = .seconds(learnWait)
            settings.sweepPerSecond = sweepPerSecond
            settings.freshnessPerSecond = freshnessPerSecond
            settings.freshnessSettle = .seconds(freshnessSettle)
            settings.freshnessShare = freshnessShare
            settings.keyFailuresPerMinute = keyFailuresPerMinute
            settings.keyCheckInterval = .milliseconds(Int64((keyCheckInterval * 1000).rounded()))
            settings.trustedProxies = try TrustedProxies(trustedProxy)
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
            var logger = Logger(label: "fetchpredict")
            logger.logLevel = Logger.Level(rawValue: logLevel)!
            logger[metadataKey: "store"] = "\(eventStore.location)"
            // When it is ready, on which port, and when it stopped are always said, whatever the
            // level: scripts wait for the ready line and read the port of --listen HOST:0 from it.
            var lifecycle = logger
            lifecycle.logLevel = min(logger.logLevel, .notice)
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            let configuration = silence.configuration
            let application = FetchPredictorService.application(
                store: eventStore, settings: settings, configuration: configuration,
                forecaster: try forecaster.forecaster(), logger: logger,
                onRunning: { [lifecycle, settings] port in
                    lifecycle.notice("ready", metadata: ["address": "\(settings.host):\(port)"])
                })
            Task {
                do {
                    try await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
                } catch {
                    outcome.set(error)
                }
                done.signal()
            }
            done.wait()
            if let error = outcome.error {
                if let sentence = FetchPredictorService.listenFailure(error, host: settings.host, port: settings.port) {
                    throw ErrorText.Hinted(description: sentence)
                }
                throw error
            }
            lifecycle.notice("stopped")
        }

        /// Raises the soft limit of open files to the hard limit, as servers do: the default soft
        /// limit (often 1,024) is for programs that open a few files.
        static func raiseOpenFilesLimit() {
            var limit = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }

        /// The error the service stopped with, handed from its task to the command.
        final class Outcome: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: (any Error)?
            var error: (any Error)? { lock.withLock { stored } }
            func set(_ error: any Error) { lock.withLock { stored = error } }
        }
    }
#else
    import ArgumentParser

    /// `serve` in a build without the package's Service trait (`swift build
    /// --disable-default-traits`, as `scripts/demo.sh` builds): it says how to get the service.
    struct ServeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the store over HTTP (not in this build: build with the package's default traits).")

        @Argument(parsing: .allUnrecognized) var arguments: [String] = []

        func run() throws {
            throw ValidationError(
                "This fetchpredict was built without the HTTP service (swift build --disable-default-traits, as "
                    + "scripts/demo.sh builds it): build it with the package's default traits, as swift build does, "
                    + "to serve.")
        }
    }
#endif
