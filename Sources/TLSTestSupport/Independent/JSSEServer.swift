import Foundation

/// A Java JSSE server (Tests/Fixtures/independent-servers/java/Server.java) on Debian's OpenJDK, compiled with
/// `javac` once per source (cached under `.build/independent-servers/`), configured by its arguments: protocols,
/// suites, whether it honours its own order, and the named groups (`jdk.tls.namedGroups`).
package enum JSSEServer {
    /// The `java` and `javac` found, or nil when a JDK is not installed.
    package static let java: String? = IndependentServer.which("java")
    package static let javac: String? = IndependentServer.which("javac")

    /// Starts the server.
    /// - Parameters:
    ///   - protocols: JSSE protocol names (`TLSv1.2`, `TLSv1.3`).
    ///   - suites: IANA suite names (JSSE uses them), in the server's order.
    ///   - honorOrder: whether it picks by its own order (`SSLParameters.setUseCipherSuitesOrder`).
    ///   - groups: `jdk.tls.namedGroups` (`secp384r1`, `x25519`, `ffdhe2048`); empty for JSSE's defaults.
    ///   - disabledAlgorithms: a replacement for the `jdk.tls.disabledAlgorithms` security property (to re-enable
    ///     TLS 1.0, 1.1 or 3DES), or nil for the JDK's.
    ///   - credentials: the leaf it serves.
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` when no JDK is installed, the build fails, or the server does not start.
    package static func start(
        protocols: [String], suites: [String], honorOrder: Bool, groups: [String] = [],
        disabledAlgorithms: String? = nil, credentials: IndependentCredentials = .rsa
    ) throws -> IndependentServer {
        guard let java else { throw TestSupportError(.process, "java is not installed (make deps)") }
        let classes = try built.get()
        let folder = try TemporaryFolder("atscheck-jsse")
        let files = try credentials.write(to: folder)
        var options = ["-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classes]
        if !groups.isEmpty { options.insert("-Djdk.tls.namedGroups=" + groups.joined(separator: ","), at: 0) }
        return try IndependentServer.launch("jsse", folder: folder, readiness: 20) { port in
            IndependentServer.Command(
                java,
                options + [
                    "Server", "\(port)", files.chain, files.key, protocols.joined(separator: ","),
                    suites.isEmpty ? "-" : suites.joined(separator: ","), honorOrder ? "true" : "false",
                ] + (disabledAlgorithms.map { [$0] } ?? []))
        }
    }

    private static let built = Result<String, Error>(catching: {
        guard let javac else { throw TestSupportError(.process, "javac is not installed (make deps)") }
        let source = IndependentServer.fixture("java/Server.java")
        return try IndependentServer.cachedBuild("java", sources: [source], product: "Server.class") { folder in
            IndependentServer.Command(javac, ["-d", folder, source])
        }
    })
}
