// swift-tools-version:6.1
import PackageDescription

/// agg: a plugin-based data-source aggregator.
///
/// - `AggCore`: definitions, registry, fetch engine, decoder protocol, query engine, store protocol.
/// - `Plugins/`: decoder plug-in modules, one per source family.
/// - `AggSQLite`, `AggFileStore`: storage backends (the in-memory store lives in `AggCore`).
/// - `AggBuiltins`: the built-in `sources.yaml`, bundled snapshots (compiled in by the
///   `EmbedResourcesPlugin` build tool), and the standard assembly of decoders and stores that
///   the `agg` executable (and any embedding tool) can use.
/// - `agg`: the command line, which only parses arguments and prints.
let package = Package(
    name: "agg",
    products: [
        .library(name: "AggCore", targets: ["AggCore"]),
        .library(name: "AggSQLite", targets: ["AggSQLite"]),
        .library(name: "AggFileStore", targets: ["AggFileStore"]),
        .library(name: "AggBuiltins", targets: ["AggBuiltins"]),
        .executable(name: "agg", targets: ["agg"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl through dlopen on first use (headers from libcurl4-openssl-dev), so commands
        // that never fetch do not load it and its dependencies at start-up.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),

        // The scan for special bytes in JSON strings, with SSE2 where available.
        .target(name: "CByteScan"),

        // The library core: no CLI code, no concrete backends chosen.
        .target(name: "AggCore", dependencies: ["CYAML", "CCurl", "CByteScan"]),

        // Decoder plug-in modules.
        .target(name: "TaipeiZooDecoder", dependencies: ["AggCore"], path: "Plugins/TaipeiZoo"),
        .target(name: "TaipeiMetroDecoder", dependencies: ["AggCore"], path: "Plugins/TaipeiMetro"),
        .target(name: "FlickrDecoder", dependencies: ["AggCore"], path: "Plugins/Flickr"),
        .target(name: "PokemonDecoder", dependencies: ["AggCore"], path: "Plugins/Pokemon"),

        // Storage backends.
        .target(name: "AggSQLite", dependencies: ["AggCore", "CSQLite"]),
        .target(name: "AggFileStore", dependencies: ["AggCore"]),

        // The standard assembly: built-in definitions, snapshots, decoders and store URLs.
        .target(
            name: "AggBuiltins",
            dependencies: [
                "AggCore", "AggSQLite", "AggFileStore",
                "TaipeiZooDecoder", "TaipeiMetroDecoder", "FlickrDecoder", "PokemonDecoder",
            ],
            exclude: ["Resources"],
            plugins: ["EmbedResourcesPlugin"]
        ),

        // Build tools: the built-in resources are compiled into AggBuiltins, so the binary needs
        // no resource bundle next to it (and no Foundation `Bundle` to find one).
        .executableTarget(name: "EmbedResources", path: "BuildTools/EmbedResources"),
        .plugin(
            name: "EmbedResourcesPlugin", capability: .buildTool(), dependencies: ["EmbedResources"],
            path: "BuildTools/EmbedResourcesPlugin"
        ),

        // The command line.
        .executableTarget(
            name: "agg",
            dependencies: ["AggBuiltins", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Tests.
        .target(
            name: "AggTestSupport",
            dependencies: ["AggCore", .product(name: "FlyingFox", package: "FlyingFox")],
            path: "Tests/AggTestSupport"
        ),
        .testTarget(name: "AggCoreTests", dependencies: ["AggCore", "AggTestSupport"]),
        .testTarget(
            name: "AggStoreTests",
            dependencies: ["AggCore", "AggSQLite", "AggFileStore", "AggTestSupport"]
        ),
        .testTarget(
            name: "AggPluginTests",
            dependencies: [
                "AggCore", "AggBuiltins", "AggTestSupport",
                "TaipeiZooDecoder", "TaipeiMetroDecoder", "FlickrDecoder", "PokemonDecoder",
            ]
        ),
        .testTarget(name: "AggEndToEndTests", dependencies: ["agg", "AggBuiltins", "AggTestSupport"], exclude: ["Golden"]),
    ]
)
