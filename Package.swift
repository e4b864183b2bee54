// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: the strict import and existential rules that
/// swift-openapi-runtime, Hummingbird and swift-log build with.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "flowrun",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FlowCore", targets: ["FlowCore"]),
        .library(name: "FlowHTTP", targets: ["FlowHTTP"]),
        .library(name: "FlowTesting", targets: ["FlowTesting"]),
        .library(name: "FlowOpenAPI", targets: ["FlowOpenAPI"]),
        .executable(name: "flowrun", targets: ["flowrun"]),
        .executable(name: "flowrun-benchmarks", targets: ["FlowBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // AsyncHTTPClient already depends on it; FlowHTTP sets its decompression limit.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.26.0"),
        // AsyncHTTPClient already depends on it, so tracing adds no package and almost no build time.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // `flowrun mock serve`'s HTTP server. Without its default traits it builds no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Hummingbird already depends on these; FlowMockServer imports them, so it names them.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // OpenAPI 3.0/3.1 documents behind `openapi:` and `operation:`. Its default trait (ExternalLoading) loads
        // remote `$ref`s with Swift Concurrency and builds notably slower; flowrun resolves only local refs.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(
            name: "FlowCore",
            dependencies: [
                "CYAML",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        // OpenAPI documents as an operation source for the compiler. A target of its own, so FlowCore never builds
        // OpenAPIKit: FlowCore knows it only through the `OperationSource` protocol.
        .target(
            name: "FlowOpenAPI",
            dependencies: [
                "FlowCore",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FlowTesting",
            dependencies: [
                "FlowCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FlowHTTP",
            dependencies: [
                "FlowCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `flowrun mock serve`: stub files answered over real HTTP. Not a product: the CLI is its one user.
        .target(
            name: "FlowMockServer",
            dependencies: [
                "FlowCore",
                "FlowTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "flowrun",
            dependencies: [
                "FlowCore",
                "FlowHTTP",
                "FlowMockServer",
                "FlowOpenAPI",
                "FlowTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The schemas are compiled into the binary, so `flowrun schema` works wherever the binary is copied.
            resources: [
                .embedInCode("Resources/workflow.schema.json"),
                .embedInCode("Resources/mock.schema.json"),
                .embedInCode("Resources/test.schema.json"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "FlowBenchmarks",
            dependencies: [
                "FlowCore",
                "FlowHTTP",
                "FlowOpenAPI",
                "FlowTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                "FlowTestServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/FlowBenchmarks",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlowCoreTests",
            dependencies: [
                "FlowCore",
                "FlowOpenAPI",
                "FlowTesting",
                "FlowTestServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlowOpenAPITests",
            dependencies: [
                "FlowOpenAPI",
                "FlowCore",
                "FlowTesting",
                "FlowTestServer",
                "FlowHTTP",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlowTestingTests",
            dependencies: [
                "FlowTesting",
                "FlowCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // A real HTTP/1.1 server on 127.0.0.1 for the tests that need the network and the soak benchmark:
        // not a product, so nothing outside this package can depend on it.
        .target(
            name: "FlowTestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FlowTestServer",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FlowHTTPTests",
            dependencies: [
                "FlowHTTP",
                "FlowCore",
                "FlowTestServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "flowrunTests",
            dependencies: [
                "flowrun",
                "FlowCore",
                "FlowOpenAPI",
                "FlowTesting",
                "FlowTestServer",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // The `flowrun mock serve` tests are its clients.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // The schema validator is a Python script the tests run; the fixtures are read from disk.
            exclude: ["support", "Fixtures"],
            swiftSettings: strictSettings
        ),
    ]
)

// MARK: - The OTLP trait

/// `flowrun run --otlp-endpoint`: the run's spans exported over OTLP/HTTP by swift-otel.
///
/// A trait, on by default: it costs swift-otel, SwiftProtobuf and swift-w3c-trace-context, about 8% more compiling
/// in a clean debug build of the CLI (measured), which is not worth an option users must know about.
/// `swift build --disable-default-traits` leaves them out, and `--otlp-endpoint` then says how to get it back.
/// swift-otel 1.6 needs tools version 6.2, so on an older toolchain the trait does not exist and the package does
/// not name swift-otel at all.
#if compiler(>=6.2)
package.traits = [
    .trait(
        name: "OTLP",
        description: "flowrun run --otlp-endpoint: export the run's spans over OTLP/HTTP with swift-otel."),
    .default(enabledTraits: ["OTLP"]),
]
// Only its OTLP/HTTP exporter: the default traits would build gRPC too.
package.dependencies.append(
    .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]))
package.targets.first { $0.name == "flowrun" }?.dependencies += [
    .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"])),
    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["OTLP"])),
]
#endif
