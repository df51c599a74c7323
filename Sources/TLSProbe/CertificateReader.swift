import TLSModel

/// Reads certificates through OpenSSL, the one parser of certificate facts (it parses the weak
/// certificates that must be flagged).
public enum CertificateReader {
    /// The facts of one DER-encoded X.509 certificate.
    /// - Throws: ``OpenSSLError`` when OpenSSL cannot parse the bytes as a certificate.
    public static func facts(der: [UInt8]) throws -> CertificateFacts { try X509Certificate(der: der).facts() }
}
