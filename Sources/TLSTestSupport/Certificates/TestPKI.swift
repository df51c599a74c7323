import Foundation

/// A root CA and an intermediate CA minted per run; ``leaf(_:)`` issues from the intermediate.
///
/// Pass ``rootPEM`` as `--ca-file` (or to a trust store) so that chains served as
/// `[leaf, intermediate]` verify; serve only `[leaf]` to test a missing intermediate.
package struct TestPKI: Sendable {
    /// The self-signed root.
    package let root: TestCertificate
    /// The intermediate, issued by ``root``.
    package let intermediate: TestCertificate

    /// Mints a root and an intermediate.
    /// - Parameters:
    ///   - rootKey: The root's key type.
    ///   - intermediateKey: The intermediate's key type.
    ///   - intermediateDigest: The digest the root signs the intermediate with.
    ///   - name: A label put in both CNs, so two PKIs in one run have different subjects.
    /// - Throws: ``TestSupportError`` when OpenSSL refuses a step.
    package static func make(
        rootKey: TestKeyType = .rsa(bits: 2048), intermediateKey: TestKeyType = .rsa(bits: 2048),
        intermediateDigest: TestDigest = .sha256, name: String = "atscheck"
    ) throws -> TestPKI {
        // Fresh CA keys for every PKI (not the per-type cache): two PKIs sharing names and keys
        // would trust each other's leaves, and "untrusted root" tests would silently pass.
        let serial = counter.withLock { value -> Int in
            value += 1
            return value
        }
        var rootSpec = CertificateSpec.ca("\(name) Test Root CA", key: rootKey)
        rootSpec.keySlot = "pki-\(serial)-root"
        var intermediateSpec = CertificateSpec.ca(
            "\(name) Test Intermediate CA", key: intermediateKey, digest: intermediateDigest)
        intermediateSpec.keySlot = "pki-\(serial)-intermediate"
        let root = try TestCertificate.selfSigned(rootSpec)
        let intermediate = try root.issue(intermediateSpec)
        return TestPKI(root: root, intermediate: intermediate)
    }

    private static let counter = Locked(0)

    /// Issues a certificate from the intermediate.
    /// - Throws: ``TestSupportError`` when OpenSSL refuses a step.
    package func leaf(_ spec: CertificateSpec) throws -> TestCertificate {
        try intermediate.issue(spec)
    }

    /// The chain a correctly configured server sends for `leaf`: leaf, then intermediate.
    package func chain(for leaf: TestCertificate) -> [TestCertificate] { [leaf, intermediate] }

    /// The root as PEM, to write a `--ca-file`.
    package var rootPEM: String { root.pem }

    /// A PKI made once per process, for tests that don't care which.
    ///
    /// A fatal error if OpenSSL cannot mint RSA-2048 certificates (no test could run anyway).
    package static let shared: TestPKI = {
        do { return try TestPKI.make() } catch { fatalError("TestPKI.shared: \(error)") }
    }()

    /// A leaf for `localhost`, `127.0.0.1` and `::1` from ``shared``, with its intermediate:
    /// the default chain of ``TLSServerConfiguration``.
    package static let sharedLocalhostChain: [TestCertificate] = {
        do { return try shared.chain(for: shared.leaf(.leaf("localhost", "127.0.0.1", "::1"))) } catch {
            fatalError("TestPKI.sharedLocalhostChain: \(error)")
        }
    }()
}
