// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "atscheck",
    products: [
        .executable(name: "atscheck", targets: ["atscheck"]),
        .library(name: "ATSCheckKit", targets: ["ATSCheckKit"]),
        .executable(name: "atscheck-demo-servers", targets: ["atscheck-demo-servers"]),
    ],
    dependencies: [
        // Exact versions: the package ships executables, so a build resolves what was tested. Package.resolved stays
        // out of git: its commit ids are those of the build machines' package mirror, not GitHub's.
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // X25519, P-256/384/521, ML-KEM-768, HKDF and the AEADs for TLSHello's key shares and TLS 1.3 proof.
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    ],
    targets: [
        // The system OpenSSL (Debian: libssl-dev). Only OpenSSLSupport, CertificateTrust, TLSProbe and TLSTestSupport
        // import it.
        // Linux only: the socket code calls Glibc; no other platform is claimed.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "TLSModel"),
        // Apple's trust data (scripts/apple-trust/generate.py), embedded in the binary; and its reader.
        .target(name: "AppleTrustData", exclude: ["apple-trust.json", "log_list.json"]),
        .target(name: "AppleTrust", dependencies: ["TLSModel", "AppleTrustData"]),
        // The owners of OpenSSL objects and file descriptors, shared by CertificateTrust, TLSProbe and TLSTestSupport
        // (package API).
        .target(name: "OpenSSLSupport", dependencies: ["COpenSSL"]),
        // Certificate trust through OpenSSL, synchronous and without the network: X.509 reading, chain files, path
        // building and verification as trustd does, trust stores, CT, stapled OCSP, revocation facts. The facade's
        // certificate users (cert, pins, profiles) import it, not the prober.
        .target(name: "CertificateTrust", dependencies: ["TLSModel", "COpenSSL", "OpenSSLSupport"]),
        // epoll and eventfd (not in Swift's Glibc module), for TLSProbe's event loops.
        .target(name: "CLinux"),
        // The wire (sockets, handshakes, client contexts, proxy tunnels, HTTP fetches) and the scheduling of probes.
        .target(
            name: "TLSProbe",
            dependencies: ["TLSModel", "COpenSSL", "OpenSSLSupport", "CertificateTrust", "CLinux", "TLSHello"]),
        // A ClientHello engine of our own (issue 35): builds hellos byte by byte from a profile, reads the server's
        // flight, proves a TLS 1.3 key exchange by decrypting EncryptedExtensions. Bytes in, bytes out: no OpenSSL,
        // no sockets (TLSProbe drives it).
        .target(name: "TLSHello", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "ATSPolicy", dependencies: ["TLSModel"]),
        .target(name: "Pinning", dependencies: ["TLSModel"]),
        .target(name: "Reporting", dependencies: ["TLSModel"]),
        // zlib (Debian: zlib1g-dev, which ZIPFoundation's Linux build needs too), for AppBundle's own zip reader.
        .systemLibrary(name: "CZlibShim", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Reads .ipa/.app/.xcarchive bundles offline (no OpenSSL: certificates are handed on as DER bytes). It reads
        // zips itself (every offset checked against the file, inflation bounded); ZIPFoundation only writes the
        // fixtures.
        .target(name: "AppBundle", dependencies: ["TLSModel", "ATSPolicy", "Pinning", "CZlibShim"]),
        // Pure judging of audits and apps: exception debt, baselines, exit status, OS-era merging. No OpenSSL, no
        // file formats: its tests run without libssl.
        .target(name: "Judging", dependencies: ["TLSModel", "ATSPolicy", "Pinning"]),
        .target(
            name: "ATSCheckKit",
            dependencies: [
                "TLSModel", "TLSProbe", "CertificateTrust", "ATSPolicy", "Pinning", "Reporting", "AppBundle", "Judging",
                "AppleTrust", .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "atscheck",
            dependencies: [
                "ATSCheckKit", "Reporting", "TLSModel", "ATSPolicy", "Pinning", "AppBundle", "Judging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Builds app bundles (Mach-O bytes, folders, zips) for AppBundleTests and the demo app.
        .target(
            name: "AppBundleFixtures", dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .executableTarget(name: "atscheck-make-demo-app", dependencies: ["AppBundleFixtures", "TLSTestSupport"]),
        .target(name: "TLSTestSupport", dependencies: ["TLSModel", "COpenSSL", "OpenSSLSupport"]),
        .executableTarget(
            name: "atscheck-demo-servers",
            dependencies: ["TLSTestSupport", "TLSModel"]
        ),
        .testTarget(name: "TLSModelTests", dependencies: ["TLSModel"]),
        // The engine on hand-made bytes, on captured Apple hellos (Captures/, scripts/apple-hello-captures/extract.py)
        // and against loopback servers: OpenSSL in process, tlslite-ng for X25519MLKEM768.
        .testTarget(
            name: "TLSHelloTests", dependencies: ["TLSHello", "TLSTestSupport", "TLSModel"], exclude: ["Captures"]),
        // The prober against live loopback servers (its certificate reports included).
        .testTarget(
            name: "TLSProbeTests",
            dependencies: ["TLSProbe", "TLSHello", "CertificateTrust", "TLSTestSupport", "TLSModel", "ATSPolicy"]),
        // Certificate trust without a handshake. AppleCTVectors: Apple's CT test data (scripts/apple-ct-vectors/fetch.py),
        // read from #filePath; ATSPolicy counts their SCTs as trustd does.
        .testTarget(
            name: "CertificateTrustTests",
            dependencies: ["CertificateTrust", "TLSTestSupport", "TLSModel", "ATSPolicy"],
            exclude: ["AppleCTVectors"]),
        .testTarget(name: "ATSPolicyTests", dependencies: ["ATSPolicy", "TLSModel"]),
        .testTarget(name: "PinningTests", dependencies: ["Pinning", "TLSModel"]),
        .testTarget(
            name: "AppBundleTests",
            dependencies: [
                "AppBundle", "AppBundleFixtures", "TLSModel", "ATSPolicy", "Pinning",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "ReportingTests",
            dependencies: ["Reporting", "TLSModel", "TLSTestSupport", "ATSCheckKit", "ATSPolicy", "Judging"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "ATSCheckKitTests",
            dependencies: [
                "ATSCheckKit", "TLSTestSupport", "TLSModel", "TLSProbe", "CertificateTrust", "ATSPolicy", "Reporting",
                "AppBundleFixtures", "Pinning", "AppBundle", "Judging", "AuditFixtures",
            ]
        ),
        // Orchestration against fake probers: depends on no OpenSSL-linked module of its own.
        .testTarget(
            name: "ATSCheckKitFakeProberTests", dependencies: ["ATSCheckKit", "TLSModel", "ATSPolicy", "Judging"]),
        // Hand-built audit inputs (profiles, plists, endpoints) for JudgingTests and ATSCheckKitTests.
        .target(
            name: "AuditFixtures", dependencies: ["Judging", "ATSPolicy", "TLSModel"], path: "Tests/AuditFixtures"),
        // The pure judging, tested without libssl: its dependencies link no OpenSSL module.
        .testTarget(
            name: "JudgingTests", dependencies: ["Judging", "AuditFixtures", "ATSPolicy", "TLSModel", "Pinning"]),
        .testTarget(name: "TLSTestSupportTests", dependencies: ["TLSTestSupport", "TLSModel"]),
        .testTarget(name: "OpenSSLSupportTests", dependencies: ["OpenSSLSupport", "TLSTestSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "TLSTestSupport", "TLSModel", "AppBundleFixtures", "ATSCheckKit", "ATSPolicy", "Judging", "Pinning",
            ]
        ),
    ]
)
