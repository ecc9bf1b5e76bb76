// swift-tools-version:6.0
import PackageDescription

/// FuelBoard bus: small Swift services that talk JSON over ZeroMQ.
///
/// Dependencies point one way: CZeroMQ <- ZeroMQ <- ServiceKit <- Services/*, with Messages
/// (wire envelope and domain types) beside them. Services never import each other.
let package = Package(
    name: "FuelBoard",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "price-ingest", targets: ["price-ingest"]),
        .executable(name: "fuel-lookup", targets: ["fuel-lookup"]),
        .executable(name: "location-cache", targets: ["location-cache"]),
        .executable(name: "dialog-renderer", targets: ["dialog-renderer"]),
        .executable(name: "intent-router", targets: ["intent-router"]),
        .executable(name: "fuelboard", targets: ["fuelboard"]),
        .executable(name: "lookup-bench", targets: ["lookup-bench"]),
        .executable(name: "zmq-echo", targets: ["zmq-echo"]),
        .executable(name: "station-prices", targets: ["station-prices"]),
    ],
    targets: [
        // C libraries from Debian's packages (module maps link them; no pkg-config flags).
        .systemLibrary(name: "CZeroMQ", path: "Shared/CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Shared/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", path: "Shared/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMalloc", path: "Shared/CMalloc"),
        .systemLibrary(name: "CTimer", path: "Shared/CTimer"),
        .systemLibrary(name: "CSpawn", path: "Shared/CSpawn"),

        // Shared foundation.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], path: "Shared/ZeroMQ"),
        .target(name: "Messages", path: "Shared/Messages"),
        .target(name: "SQLite", dependencies: ["CSQLite"], path: "Shared/SQLite"),
        .target(name: "ServiceKit", dependencies: ["ZeroMQ", "Messages", "CMalloc"], path: "Shared/ServiceKit"),
        .target(name: "SampleFeeds", dependencies: ["Messages"], path: "Shared/SampleFeeds"),
        // IntentKit: a Swift intent service in a few dozen lines (the router's plug-in protocol).
        .target(name: "IntentKit", dependencies: ["ZeroMQ", "Messages", "ServiceKit"], path: "Shared/IntentKit"),
        .target(name: "TestSupport", path: "Shared/TestSupport"),
        .target(name: "ServiceTesting", dependencies: ["ZeroMQ", "Messages", "ServiceKit", "TestSupport", "CSpawn"],
                path: "Shared/ServiceTesting"),

        // price-ingest: feeds in, validated, SQLite, PUB out.
        .target(name: "FeedParsing", dependencies: ["Messages"], path: "Services/PriceIngest/FeedParsing"),
        .target(name: "PriceIngest", dependencies: ["ServiceKit", "Messages", "SQLite", "FeedParsing", "CCurl"],
                path: "Services/PriceIngest/PriceIngest"),
        .executableTarget(name: "price-ingest", dependencies: ["PriceIngest", "ServiceKit", "Messages", "SQLite"],
                          path: "Services/PriceIngest/price-ingest"),

        // fuel-lookup: a spatial-index replica of price-ingest's state.
        .target(name: "FuelLookup", dependencies: ["ServiceKit", "Messages"],
                path: "Services/FuelLookup/FuelLookup"),
        .executableTarget(name: "fuel-lookup", dependencies: ["FuelLookup", "ServiceKit"],
                          path: "Services/FuelLookup/fuel-lookup"),

        // location-cache: per-user last-known location (TTL) and preferences, in SQLite.
        .target(name: "LocationCache", dependencies: ["ServiceKit", "Messages", "SQLite"],
                path: "Services/LocationCache/LocationCache"),
        .executableTarget(name: "location-cache", dependencies: ["LocationCache", "ServiceKit", "SQLite"],
                          path: "Services/LocationCache/location-cache"),

        // dialog-renderer: outcomes to spoken dialog, short values, snippet cards, maps URLs.
        .target(name: "DialogRenderer", dependencies: ["ServiceKit", "Messages"],
                path: "Services/DialogRenderer/DialogRenderer", resources: [.copy("Templates")]),
        .executableTarget(name: "dialog-renderer", dependencies: ["DialogRenderer", "ServiceKit"],
                          path: "Services/DialogRenderer/dialog-renderer"),

        // intent-router: the front door; phrase matching, resolve/confirm/handle, sessions.
        .target(name: "IntentRouter", dependencies: ["ServiceKit", "Messages", "ZeroMQ"],
                path: "Services/IntentRouter/IntentRouter"),
        .executableTarget(name: "intent-router", dependencies: ["IntentRouter", "ServiceKit"],
                          path: "Services/IntentRouter/intent-router"),

        // fuelboard: the command-line client.
        .target(name: "FuelboardCLI", dependencies: ["ServiceKit", "Messages", "SampleFeeds", "CTimer"],
                path: "Services/Fuelboard/FuelboardCLI"),
        .executableTarget(name: "fuelboard", dependencies: ["FuelboardCLI"],
                          path: "Services/Fuelboard/fuelboard"),

        // Benchmarks (run by bench/run).
        .executableTarget(name: "lookup-bench", dependencies: ["FuelLookup", "SampleFeeds", "Messages"],
                          path: "bench/lookup-bench"),
        .executableTarget(name: "zmq-echo", dependencies: ["ZeroMQ", "ServiceKit"], path: "bench/zmq-echo"),

        // Example intent service: station prices by name, with disambiguation (uses fuel-lookup).
        .executableTarget(name: "station-prices", dependencies: ["IntentKit"], path: "examples/station-prices-swift"),

        // Tests, one target per area so each can be built and run on its own.
        .testTarget(name: "MessagesTests", dependencies: ["Messages", "TestSupport"], path: "Tests/MessagesTests"),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], path: "Tests/ZeroMQTests"),
        .testTarget(name: "ServiceKitTests", dependencies: ["ServiceKit", "ServiceTesting", "ZeroMQ", "Messages", "TestSupport"],
                    path: "Tests/ServiceKitTests"),
        .testTarget(name: "FeedParsingTests", dependencies: ["FeedParsing", "Messages", "TestSupport"],
                    path: "Tests/FeedParsingTests"),
        .testTarget(name: "PriceIngestTests",
                    dependencies: ["PriceIngest", "FeedParsing", "SQLite", "Messages", "ServiceKit", "ServiceTesting",
                                   "TestSupport", "ZeroMQ"],
                    path: "Tests/PriceIngestTests"),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "CSQLite", "TestSupport"], path: "Tests/SQLiteTests"),
        .testTarget(name: "FuelLookupTests", dependencies: ["FuelLookup", "Messages", "SampleFeeds", "TestSupport"],
                    path: "Tests/FuelLookupTests"),
        .testTarget(name: "LocationCacheTests",
                    dependencies: ["LocationCache", "ServiceKit", "ServiceTesting", "Messages", "SQLite"],
                    path: "Tests/LocationCacheTests"),
        .testTarget(name: "DialogRendererTests",
                    dependencies: ["DialogRenderer", "Messages", "ServiceKit", "ZeroMQ", "SampleFeeds"],
                    path: "Tests/DialogRendererTests"),
        .testTarget(name: "IntentRouterTests",
                    dependencies: ["IntentRouter", "ServiceKit", "ServiceTesting", "Messages", "ZeroMQ",
                                   "LocationCache", "DialogRenderer", "IntentKit", "FuelboardCLI"],
                    path: "Tests/IntentRouterTests", exclude: ["Sentences"]),
        .testTarget(name: "SampleFeedsTests", dependencies: ["SampleFeeds", "Messages"],
                    path: "Tests/SampleFeedsTests"),
        .testTarget(name: "EndToEndTests",
                    dependencies: ["ServiceKit", "ServiceTesting", "Messages", "ZeroMQ", "TestSupport", "SampleFeeds"],
                    path: "Tests/EndToEndTests"),
    ],
    swiftLanguageModes: [.v6]
)

// Release builds skip the run-time exclusivity checks (`swift_beginAccess` on every class property
// access: ~7% of fuel-lookup's instructions per request). Debug builds, which `swift test` runs,
// keep them, so the test suite still traps on any overlapping access.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
