import Foundation

/// GnuTLS's own test server, `gnutls-serv` (Debian: gnutls-bin), configured by a GnuTLS priority string.
///
/// It answers a refused handshake with a `handshake_failure` alert. It binds the wildcard address (it has no option
/// to bind one address); the tests connect to it on 127.0.0.1 only.
package enum GnuTLSServe {
    /// The `gnutls-serv` found, or nil when gnutls-bin is not installed.
    package static let binary: String? = IndependentServer.which("gnutls-serv")

    /// Starts `gnutls-serv --http` with `priority` (GnuTLS's priority-string syntax: `NONE:+VERS-TLS1.2:+AES-128-GCM:…`,
    /// `%SERVER_PRECEDENCE` for the server's order).
    /// - Parameters:
    ///   - priority: the priority string, the server's whole configuration of versions, suites and groups.
    ///   - credentials: the leaf it serves.
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` when it is not installed or does not start.
    package static func start(priority: String, credentials: IndependentCredentials = .rsa) throws -> IndependentServer
    {
        guard let binary else { throw TestSupportError(.process, "gnutls-serv is not installed (make deps)") }
        let folder = try TemporaryFolder("atscheck-gnutls-serv")
        let files = try credentials.write(to: folder)
        return try IndependentServer.launch("gnutls-serv", folder: folder) { port in
            IndependentServer.Command(
                binary,
                [
                    "--http", "--quiet", "--disable-client-cert", "--port", "\(port)",
                    "--x509certfile", files.chain, "--x509keyfile", files.key, "--priority", priority,
                ])
        }
    }
}
