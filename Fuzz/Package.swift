// swift-tools-version:6.0
// libFuzzer targets for atscheck's input readers (issue 8). A separate package so that the main build never
// needs the sanitizer flags: each target's `main` hands its input function to libFuzzer's driver, which
// links only with `-sanitize=fuzzer`. Build and run them with `make fuzz` (see docs/reliability.md).
import PackageDescription

let fuzzTargets = [
    "FuzzPlist", "FuzzEndpoints", "FuzzBaseline", "FuzzProfiles", "FuzzCertificate", "FuzzZip", "FuzzMachO",
    "FuzzMerge",
]

let package = Package(
    name: "atscheck-fuzz",
    dependencies: [.package(name: "atscheck", path: "..")],
    targets: [
        .target(name: "FuzzDriver", swiftSettings: [.unsafeFlags(["-enable-experimental-feature", "Extern"])])
    ]
        + fuzzTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzDriver", .product(name: "ATSCheckKit", package: "atscheck")]
            )
        }
)
