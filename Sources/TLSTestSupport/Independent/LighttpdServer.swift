import Foundation

/// lighttpd 1.4 with one of its TLS modules (Debian: lighttpd and lighttpd-mod-gnutls, -mbedtls, -wolfssl, -nss,
/// -openssl), configured per case through `ssl.openssl.ssl-conf-cmd`, which every module reads in its own way:
/// OpenSSL and wolfSSL take OpenSSL cipher strings, mod_gnutls takes a whole GnuTLS priority string as
/// `gnutls-override`, mod_mbedtls takes mbedTLS suite names as `Ciphersuites`, mod_nss takes OpenSSL-style names it
/// maps to NSS's.
///
/// With mod_gnutls a refused handshake is closed without an alert (issue 35).
package enum LighttpdServer {
    /// A lighttpd TLS module.
    package enum Module: String, Sendable, CaseIterable {
        case gnutls, mbedtls, wolfssl, nss, openssl

        /// The module's file name, `mod_gnutls`.
        package var name: String { "mod_" + rawValue }

        /// Whether its shared object is installed (`/usr/lib/lighttpd/mod_X.so`).
        package var isInstalled: Bool {
            LighttpdServer.binary != nil
                && FileManager.default.fileExists(atPath: LighttpdServer.modules + "/\(name).so")
        }
    }

    /// The `lighttpd` found, or nil when it is not installed.
    package static let binary: String? = IndependentServer.which("lighttpd")
    /// Debian's module folder.
    static let modules = "/usr/lib/lighttpd"

    /// Starts lighttpd in the foreground on a loopback port.
    /// - Parameters:
    ///   - module: the TLS module.
    ///   - commands: `ssl.openssl.ssl-conf-cmd` entries in order (`MinProtocol`, `CipherString`, `Ciphersuites`,
    ///     `Groups`, `Options`, `gnutls-override`).
    ///   - credentials: the leaf it serves.
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` when lighttpd or the module is missing, or the server does not start.
    package static func start(
        _ module: Module, commands: KeyValuePairs<String, String>, credentials: IndependentCredentials = .rsa
    ) throws -> IndependentServer {
        guard let binary, module.isInstalled else {
            throw TestSupportError(.process, "lighttpd \(module.name) is not installed (make deps)")
        }
        let folder = try TemporaryFolder("atscheck-lighttpd-\(module.rawValue)")
        let files = try credentials.write(to: folder)
        let documents = folder.file("www")
        try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
        try folder.write("ok\n", to: "www/index.html")
        // mod_wolfssl (wolfSSL 5.5 in Debian 12) closes, without an alert, any handshake whose ClientHello asks for
        // OCSP stapling (status_request, which every Apple client sends) unless it can verify its own chain from
        // ssl.ca-file, where the served intermediate does not count: it gets the shared PKI's root and intermediate
        // (the other modules get nothing they do not need).
        let root = try folder.write(
            TestPKI.shared.rootPEM + (try credentials.chain()[1].pem), to: "trusted-issuers.pem")
        let trust = module == .wolfssl ? "ssl.ca-file = \(quoted(root))" : ""
        let entries = commands.map { "\(quoted($0.key)) => \(quoted($0.value))" }.joined(separator: ", ")
        return try IndependentServer.launch("lighttpd+\(module.name)", folder: folder) { port in
            let configuration = """
                server.document-root = \(quoted(documents))
                server.bind = "127.0.0.1"
                server.port = \(port)
                server.modules = ( \(quoted(module.name)) )
                server.errorlog = \(quoted(folder.file("error.log")))
                ssl.engine = "enable"
                ssl.pemfile = \(quoted(files.chain))
                ssl.privkey = \(quoted(files.key))
                \(trust)
                ssl.openssl.ssl-conf-cmd = ( \(entries) )

                """
            let file = try folder.write(configuration, to: "lighttpd-\(port).conf")
            return IndependentServer.Command(binary, ["-D", "-f", file, "-m", modules])
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
