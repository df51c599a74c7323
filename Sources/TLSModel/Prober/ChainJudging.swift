import Foundation

/// Judges certificate chains without a handshake — a chain file (`atscheck cert`), a saved profile's chain judged
/// again — against trust inputs built once: the OpenSSL implementation (`CertificateTrust`'s `ChainReports`), or a
/// fake in tests.
///
/// The seam lives in TLSModel beside ``EndpointProber`` so that the facade's certificate commands are handed trust
/// as a dependency, not the prober.
package protocol ChainJudging: Sendable {
    /// The certificate report of one chain.
    /// - Parameters:
    ///   - chain: DER certificates, leaf first.
    ///   - delivered: SCTs a handshake delivered outside the certificate (TLS extension, stapled OCSP), as saved;
    ///     the leaf's embedded SCTs are always read from the leaf. Nil: the chain came from no handshake.
    ///   - ocspStapled: whether a handshake had a stapled response (nil: no handshake).
    ///   - stapledOCSP: the stapled response as saved (DER), checked again at `now`.
    ///   - host: the name to match the leaf against.
    ///   - now: the time to judge at.
    ///   - saved: the report a saved profile kept: each caIssuers URL its scan fetched gives what it gave then, and
    ///     nothing is fetched. Nil: a missing issuer is fetched, when the judge fetches at all.
    /// - Returns: The report, as a scan of a server sending `chain` would give it.
    /// - Throws: ``ProbeFailure`` when a certificate does not parse.
    /// > Warning: With `saved` nil and fetching on, a chain whose issuer is missing is completed over the network on
    /// > the calling thread.
    func report(
        chain: [Data], delivered: [SCTFacts]?, ocspStapled: Bool?, stapledOCSP: Data?, host: String, now: Date,
        saved: CertificateReport?
    ) throws -> CertificateReport
}
