// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "atscheck",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "atscheck", targets: ["atscheck"]),
        .library(name: "ATSCheckKit", targets: ["ATSCheckKit"]),
        .executable(name: "atscheck-demo-servers", targets: ["atscheck-demo-servers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The system OpenSSL (Debian: libssl-dev). Only TLSProbe and TLSTestSupport import it.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "TLSModel"),
        .target(name: "TLSProbe", dependencies: ["TLSModel", "COpenSSL"]),
        .target(name: "ATSPolicy", dependencies: ["TLSModel"]),
        .target(name: "Pinning", dependencies: ["TLSModel"]),
        .target(name: "Reporting", dependencies: ["TLSModel"]),
        .target(
            name: "ATSCheckKit",
            dependencies: [
                "TLSModel", "TLSProbe", "ATSPolicy", "Pinning", "Reporting",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "atscheck",
            dependencies: [
                "ATSCheckKit", "Reporting", "TLSModel", "TLSProbe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TLSTestSupport", dependencies: ["TLSModel", "COpenSSL"]),
        .executableTarget(
            name: "atscheck-demo-servers",
            dependencies: ["TLSTestSupport", "TLSModel"]
        ),
        .testTarget(name: "TLSModelTests", dependencies: ["TLSModel"]),
        .testTarget(name: "TLSProbeTests", dependencies: ["TLSProbe", "TLSTestSupport", "TLSModel"]),
        .testTarget(name: "ATSPolicyTests", dependencies: ["ATSPolicy", "TLSModel"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "TLSModel"], exclude: ["Snapshots"]),
        .testTarget(
            name: "ATSCheckKitTests",
            dependencies: ["ATSCheckKit", "TLSTestSupport", "TLSModel", "TLSProbe", "ATSPolicy", "Reporting"]
        ),
        .testTarget(name: "TLSTestSupportTests", dependencies: ["TLSTestSupport", "TLSModel"]),
        .testTarget(name: "CLITests", dependencies: ["TLSTestSupport", "TLSModel"]),
    ]
)
