import Foundation

/// The certificate an independent server serves: a `localhost` / `127.0.0.1` leaf of the shared test PKI
/// (``TestPKI/shared``) with its intermediate, so a scan that trusts the shared root verifies it.
package enum IndependentCredentials: Sendable, Hashable {
    /// RSA-2048: for the `ECDHE_RSA`, `DHE_RSA` and static-RSA suites.
    case rsa
    /// ECDSA on P-256: for the `ECDHE_ECDSA` suites.
    case ecdsa

    /// The files written by ``write(to:)``.
    package struct Files: Sendable {
        /// The chain, leaf first, as PEM.
        package var chain: String
        /// The leaf alone, as PEM (for servers that take the intermediate in a file of its own).
        package var leaf: String
        /// The intermediate alone, as PEM.
        package var intermediate: String
        /// The leaf's private key, PKCS #8 PEM.
        package var key: String
        /// Chain and key in one PEM file (lighttpd's `ssl.pemfile`).
        package var combined: String
    }

    /// The leaf and intermediate (made once per process and key type).
    /// - Throws: ``TestSupportError`` when OpenSSL cannot mint the leaf.
    package func chain() throws -> [TestCertificate] {
        switch self {
        case .rsa: return TestPKI.sharedLocalhostChain
        case .ecdsa: return try Self.ecdsaChain.get()
        }
    }

    private static let ecdsaChain: Result<[TestCertificate], Error> = Result(catching: {
        let leaf = try TestPKI.shared.leaf(.leaf("localhost", "127.0.0.1", "::1", key: .ec(curve: "P-256")))
        return TestPKI.shared.chain(for: leaf)
    })

    /// Writes the chain and key into `folder` as `KIND-chain.pem`, `KIND-leaf.pem`, `KIND-intermediate.pem`,
    /// `KIND-key.pem` and `KIND-combined.pem`.
    /// - Parameter folder: the server's private folder.
    /// - Returns: the paths.
    /// - Throws: when the leaf cannot be minted or a file cannot be written.
    package func write(to folder: TemporaryFolder) throws -> Files {
        let chain = try chain()
        let name = self == .rsa ? "rsa" : "ecdsa"
        let bundle = TestCertificate.pemBundle(chain)
        let key = chain[0].key.pem
        return Files(
            chain: try folder.write(bundle, to: "\(name)-chain.pem"),
            leaf: try folder.write(chain[0].pem, to: "\(name)-leaf.pem"),
            intermediate: try folder.write(chain[1].pem, to: "\(name)-intermediate.pem"),
            key: try folder.write(key, to: "\(name)-key.pem"),
            combined: try folder.write(bundle + key, to: "\(name)-combined.pem"))
    }
}
