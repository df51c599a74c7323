import Foundation

/// A tlslite-ng 0.8 server (Tests/Fixtures/independent-servers/python/tlslite_server.py): pure Python, and with
/// kyber-py a TLS 1.3 server that negotiates the ML-KEM hybrids (`x25519mlkem768`, codepoint 0x11EC).
/// Installed by `make deps` from PyPI.
package enum TLSLiteServer {
    /// Whether python3 can import tlslite-ng (version 0.8 or later) and kyber-py; checked once.
    package static let isInstalled: Bool = {
        let check =
            "import tlslite, kyber_py, sys; sys.exit(0 if tuple(map(int, tlslite.__version__.split('.')[:2])) >= (0, 8) else 1)"
        guard let python = IndependentServer.which("python3"),
            let process = try? ChildProcess(python, ["-c", check])
        else { return false }
        return process.waitForExit() == 0
    }()

    /// Starts the server.
    /// - Parameters:
    ///   - versions: lowest and highest version, as `1.2` or `1.3`.
    ///   - groups: tlslite group names in the server's order (`x25519mlkem768`, `x25519`, `secp256r1`).
    ///   - ciphers: tlslite cipher names in the server's order (`aes128gcm`, `aes256gcm`, `chacha20-poly1305`).
    ///   - credentials: the leaf it serves.
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` when tlslite-ng is missing or the server does not start.
    package static func start(
        versions: ClosedRange<String> = "1.3"..."1.3", groups: [String], ciphers: [String] = [],
        credentials: IndependentCredentials = .rsa
    ) throws -> IndependentServer {
        guard isInstalled, let python = IndependentServer.which("python3") else {
            throw TestSupportError(.process, "tlslite-ng 0.8 and kyber-py are not installed (make deps)")
        }
        let folder = try TemporaryFolder("atscheck-tlslite")
        let files = try credentials.write(to: folder)
        let script = IndependentServer.fixture("python/tlslite_server.py")
        return try IndependentServer.launch("tlslite-ng", folder: folder, readiness: 15) { port in
            IndependentServer.Command(
                python,
                [
                    script, "--port", "\(port)", "--cert", files.chain, "--key", files.key, "--min",
                    versions.lowerBound, "--max", versions.upperBound, "--groups", groups.joined(separator: ","),
                    "--ciphers", ciphers.joined(separator: ","),
                ])
        }
    }
}
