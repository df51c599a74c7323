internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// A certificate minted in-process with OpenSSL, with the key it certifies.
///
/// `@unchecked Sendable`: the `X509` is fully built and signed before `init` returns and never
/// mutated after; OpenSSL allows concurrent read-only use (`SSL_CTX_use_certificate` up-refs it).
package final class TestCertificate: @unchecked Sendable {
    /// The certificate, DER.
    package let der: Data
    /// The subject key (its private half signs children and TLS handshakes).
    package let key: TestKey
    /// What was asked for.
    package let spec: CertificateSpec
    let x509: OwnedX509

    init(x509: OwnedX509, key: TestKey, spec: CertificateSpec) throws {
        self.x509 = x509
        self.key = key
        self.spec = spec
        guard let der = x509.der() else { throw TestSupportError.openSSL(.certificate, "i2d_X509") }
        self.der = Data(der)
    }

    /// SHA-256 of the DER, lower-case hex (the report's `sha256`; Apple's trust data uses it upper-case).
    package var sha256: String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = der.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &out, &length, EVP_sha256(), nil) }
        return out.map { String(format: "%02x", $0) }.joined()
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    package var pem: String { x509.pem() ?? "" }

    /// A certificate signed by its own key (issuer = subject).
    /// - Throws: ``TestSupportError`` (`.keyGeneration`, `.certificate`).
    package static func selfSigned(_ spec: CertificateSpec) throws -> TestCertificate {
        let key = try TestKey.generate(spec.key, slot: spec.keySlot)
        let x509 = try CertificateBuilder.build(spec, subjectKey: key, issuer: nil)
        return try TestCertificate(x509: x509, key: key, spec: spec)
    }

    /// Signs a child certificate with this certificate's key: the child's issuer is this subject,
    /// and it carries an authorityKeyIdentifier pointing at this certificate's subjectKeyIdentifier.
    /// - Throws: ``TestSupportError`` (`.keyGeneration`, `.certificate`).
    package func issue(_ spec: CertificateSpec) throws -> TestCertificate {
        let key = try TestKey.generate(spec.key, slot: spec.keySlot)
        let x509 = try CertificateBuilder.build(spec, subjectKey: key, issuer: self)
        return try TestCertificate(x509: x509, key: key, spec: spec)
    }

    /// Writes `certificates` as concatenated PEM (a bundle for `--ca-file` or a chain file).
    package static func pemBundle(_ certificates: [TestCertificate]) -> String {
        certificates.map(\.pem).joined()
    }
}
