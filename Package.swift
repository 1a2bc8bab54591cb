// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "FetchPredictor",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FetchPredictor", targets: ["FetchPredictor"]),
        .executable(name: "fetchpredict", targets: ["fetchpredict"]),
    ],
    // The service (fetchpredict serve) and the fleet's PostgreSQL store, on by default. A build of
    // the command-line tool alone, as scripts/demo.sh makes, leaves them and their dependencies
    // (SwiftNIO, Hummingbird, postgres-nio...) out: swift build --product fetchpredict
    // --disable-default-traits. The library never needs them.
    traits: [
        .trait(
            name: "Service",
            description: "fetchpredict serve, the HTTP service, and --postgres, the fleet's PostgreSQL store."),
        .default(enabledTraits: ["Service"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // The HTTP service: Hummingbird 2 (without its swift-configuration trait, which we do
        // not use), run in a swift-service-lifecycle group, with swift-log and Prometheus metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The HTTP types of NIO's pipeline, for the service's deadline of a whole request.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The fleet's store: PostgreSQL, through postgres-nio.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // The library's documentation: swift package generate-documentation --target FetchPredictor.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The pure core: models, learning, planning. No GRDB, no files, no clock: the table of
        // the system's apps is compiled in.
        .target(name: "FetchPredictorCore", resources: [.embedInCode("Planning/system-apps.tsv")]),
        // The log formats: readers and writers of usage logs, on byte streams. No GRDB: only
        // SQLite's C API (GRDB's system library), to read knowledgeC.db read-only.
        .target(
            name: "FetchPredictorImport",
            dependencies: ["FetchPredictorCore", .product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // The event store (GRDB), which runs imports in transactions; re-exports the core and the formats.
        .target(
            name: "FetchPredictor",
            dependencies: [
                "FetchPredictorCore",
                "FetchPredictorImport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL store of a fleet: the same store protocol as the SQLite one, on a server
        // that several service instances share.
        .target(
            name: "FetchPredictorPostgres",
            dependencies: [
                "FetchPredictor",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The HTTP service over the store: routes, keys, limits, metrics. Handlers parse, call the
        // library and encode, as the commands do.
        .target(
            name: "FetchPredictorService",
            dependencies: [
                "FetchPredictor",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            // The contract, served at /openapi.yaml and compiled into the binary.
            resources: [.embedInCode("openapi.yaml")]
        ),
        // The command-line interface, as a library so that tests can reach its pieces.
        .target(
            name: "FetchPredictorCLI",
            dependencies: [
                "FetchPredictor",
                .target(name: "FetchPredictorService", condition: .when(traits: ["Service"])),
                .target(name: "FetchPredictorPostgres", condition: .when(traits: ["Service"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "fetchpredict", dependencies: ["FetchPredictorCLI"]),
        // Speed figures of the library, run in a release build by scripts/bench-predictor.sh.
        .executableTarget(name: "fetchpredict-bench", dependencies: ["FetchPredictor"]),
        // The scheduler loop of docs/library.md, against a simulated clock.
        .executableTarget(name: "scheduler-example", dependencies: ["FetchPredictor"]),
        // The README's Swift snippet, as written (ReadmeExampleTests).
        .executableTarget(name: "readme-example", dependencies: ["FetchPredictor"]),
        .testTarget(
            name: "FetchPredictorCoreTests", dependencies: ["FetchPredictorCore", "FetchPredictorTestSupport"]),
        // What the tests share: fixtures' paths, the fuzzer, a store that holds learning still.
        .target(
            name: "FetchPredictorTestSupport",
            dependencies: ["FetchPredictorCore", "FetchPredictorImport", "FetchPredictor"],
            path: "Tests/Support"),
        .testTarget(
            name: "FetchPredictorImportTests", dependencies: ["FetchPredictorImport", "FetchPredictorTestSupport"]),
        .testTarget(name: "FetchPredictorTests", dependencies: ["FetchPredictor", "FetchPredictorTestSupport"]),
        // What every store must do, run against the SQLite store and a throwaway PostgreSQL cluster.
        .testTarget(
            name: "FetchPredictorStoreTests",
            dependencies: [
                "FetchPredictor", "FetchPredictorPostgres", "FetchPredictorTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(
            name: "FetchPredictorServiceTests",
            dependencies: [
                "FetchPredictorService", "FetchPredictorPostgres", "fetchpredict", "FetchPredictorTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "FetchPredictorCLITests",
            dependencies: ["FetchPredictorCLI", "fetchpredict", "scheduler-example", "FetchPredictorTestSupport"],
            // The pinned --help of each command, read by HelpTests from the source tree.
            exclude: ["Help"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
