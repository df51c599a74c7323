import Foundation

extension TLSServerConfiguration {
    /// OpenSSL's default limit on a received Certificate message (`SSL_MAX_CERT_LIST_DEFAULT`, 100 KB).
    package static let openSSLDefaultMaxCertificateList = 100 * 1024

    /// A server whose chain is far larger than a client's default certificate-list limit:
    /// a leaf from `pki`, its intermediate, then `extraCertificates` more CA certificates
    /// (RSA-4096, each padded with a ~1.5 KB comment extension).
    ///
    /// - Parameters:
    ///   - pki: Issues the leaf and supplies the real intermediate.
    ///   - extraCertificates: How many filler CA certificates to append (≈ 2.7 KB each).
    /// - Throws: ``TestSupportError`` when minting fails.
    package static func hugeChain(pki: TestPKI = .shared, extraCertificates: Int = 64) throws -> TLSServerConfiguration
    {
        let leaf = try pki.leaf(.localhost())
        var fillers: [TestCertificate] = []
        var issuer = pki.intermediate
        for index in 0..<extraCertificates {
            var spec = CertificateSpec.ca("Huge Chain Filler CA \(index)", key: .rsa(bits: 4096))
            spec.keySlot = "huge-chain"  // one RSA-4096 key for all fillers: generating 64 would take minutes
            spec.paddingBytes = 1_500
            let filler = try issuer.issue(spec)
            fillers.append(filler)
            issuer = filler
        }
        return TLSServerConfiguration(chain: [leaf, pki.intermediate] + fillers)
    }

    /// Total DER size of the configured chain, in bytes.
    package var chainSize: Int { chain.reduce(0) { $0 + $1.der.count } }
}
