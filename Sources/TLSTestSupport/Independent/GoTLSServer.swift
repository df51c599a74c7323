import Foundation

/// A Go crypto/tls server (Tests/Fixtures/independent-servers/go/main.go), built with Debian's golang-go once per
/// source: the binary is cached under `.build/independent-servers/` by the source's SHA-256.
///
/// Go's server has no order of its own to configure: it picks from one of two built-in orders depending on the
/// client's first known suite (AES-GCM first when that suite is AES-GCM and the machine has AES hardware,
/// ChaCha20 first otherwise). See ``appleOrder(of:)``.
package enum GoTLSServer {
    /// The `go` found, or nil when golang-go is not installed.
    package static let go: String? = IndependentServer.which("go")

    /// The server's source.
    static let source = IndependentServer.fixture("go/main.go")

    /// Go's order for a client whose first suite is AES-GCM on a machine with AES hardware (crypto/tls
    /// `cipherSuitesPreferenceOrder`, Go 1.19): the TLS 1.0–1.2 suites of the fixture's configurations, in that order.
    package static let aesGCMFirstOrder: [UInt16] = [
        0xC02B, 0xC02F, 0xC02C, 0xC030, 0xCCA9, 0xCCA8, 0xC009, 0xC013, 0xC00A, 0xC014, 0x009C, 0x009D, 0x002F,
        0x0035, 0xC012, 0x000A, 0xC023, 0xC027, 0x003C,
    ]

    /// Go's order otherwise (`cipherSuitesPreferenceOrderNoAES`): ChaCha20 first, then the AES-GCM order.
    package static let chachaFirstOrder: [UInt16] =
        [0xCCA9, 0xCCA8] + aesGCMFirstOrder.filter { $0 != 0xCCA9 && $0 != 0xCCA8 }

    /// The TLS 1.3 orders (`defaultCipherSuitesTLS13` and its NoAES twin).
    package static let tls13AESGCMFirstOrder: [UInt16] = [0x1301, 0x1302, 0x1303]
    package static let tls13ChachaFirstOrder: [UInt16] = [0x1303, 0x1301, 0x1302]

    /// What an Apple client of iOS 13 or later gets from a Go server that accepts `suites`: the AES-GCM-first order,
    /// restricted to them. Its first suite Go knows is AES-GCM (TLS_AES_128_GCM_SHA256 or TLS_AES_256_GCM_SHA384,
    /// GREASE skipped; iOS 9 to 12.1 offered TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 first) and it has AES hardware.
    /// Safari 12.1 on iOS 12.2 and macOS 10.14 put TLS_CHACHA20_POLY1305_SHA256 first and get ``chachaFirstOrder``
    /// instead (testssl.sh's etc/client-simulation.txt has their ClientHellos).
    /// - Parameter suites: the configured suites.
    /// - Returns: them in the order the server picks for that client.
    package static func appleOrder(of suites: [UInt16]) -> [UInt16] {
        aesGCMFirstOrder.filter(suites.contains)
    }

    /// Starts the server.
    /// - Parameters:
    ///   - versions: lowest and highest version, as `1.0` … `1.3`.
    ///   - suites: the TLS 1.0–1.2 suites enabled (their order is ignored by Go); empty for Go's defaults.
    ///   - groups: the groups (`X25519`, `P-256`, `P-384`, `P-521`); empty for Go's defaults.
    ///   - credentials: the leaf it serves.
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` when go is missing, the build fails, or the server does not start.
    package static func start(
        versions: ClosedRange<String> = "1.2"..."1.3", suites: [UInt16] = [], groups: [String] = [],
        credentials: IndependentCredentials = .rsa
    ) throws -> IndependentServer {
        let binary = try build()
        let folder = try TemporaryFolder("atscheck-go-tls")
        let files = try credentials.write(to: folder)
        let suiteList = suites.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ",")
        return try IndependentServer.launch("go crypto/tls", folder: folder) { port in
            IndependentServer.Command(
                binary,
                [
                    "-port", "\(port)", "-cert", files.chain, "-key", files.key, "-min", versions.lowerBound,
                    "-max", versions.upperBound, "-suites", suiteList, "-groups", groups.joined(separator: ","),
                ])
        }
    }

    /// The built server: `.build/independent-servers/go-HASH/server`, built on first use.
    /// - Returns: its path.
    /// - Throws: ``TestSupportError`` when go is missing or the build fails.
    static func build() throws -> String {
        try built.get()
    }

    private static let built = Result<String, Error>(catching: {
        guard let go else { throw TestSupportError(.process, "go is not installed (make deps: golang-go)") }
        let output = try IndependentServer.cachedBuild("go", sources: [source], product: "server") { folder in
            IndependentServer.Command(
                go, ["build", "-o", folder + "/server", source],
                environment: [
                    "GO111MODULE": "off", "CGO_ENABLED": "0", "GOCACHE": IndependentServer.buildCache + "/go-cache",
                ])
        }
        return output + "/server"
    })
}
