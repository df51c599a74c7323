import Foundation
internal import OpenSSLSupport
import TLSModel

extension TrustStoreSet {
    /// The certificate report of a chain given as bytes (served in a handshake, saved in a profile): each certificate
    /// is read, and one OpenSSL cannot read is reported in ``CertificateReport/unparsedCertificates`` with its
    /// position and the parser's reason, never dropped in silence; when the leaf is one of them nothing is judged
    /// (an empty chain, trust not evaluated); otherwise the rest are judged as
    /// ``report(chain:delivered:ocspStapled:stapledOCSP:host:logList:now:issuers:issuerFetches:)`` judges them.
    /// - Parameters:
    ///   - served: the chain, DER, leaf first.
    ///   - fetched: issuers fetched from caIssuers URLs, DER.
    package func report(
        served: [[UInt8]], delivered: [CollectedSCT]?, ocspStapled: Bool?, stapledOCSP: [UInt8]? = nil, host: String,
        logList: CTLogList?, now: Date, fetched: [[UInt8]] = [], issuerFetches: [IssuerFetch]? = nil
    ) -> CertificateReport {
        let chain = ParsedCertificates(served, origin: .served)
        let issuers = ParsedCertificates(fetched, origin: .fetched)
        // Without its leaf there is no chain to judge: the next certificate is not the server's, and judging it as the
        // leaf (its names, its lifetime) would be a verdict on the wrong certificate.
        let leafRead = chain.unparsed.first?.position != 1
        var report = self.report(
            chain: leafRead ? chain.certificates : [], delivered: delivered, ocspStapled: ocspStapled,
            stapledOCSP: stapledOCSP, host: host, logList: logList, now: now,
            issuers: leafRead ? issuers.certificates : [], issuerFetches: issuerFetches)
        let unparsed = chain.unparsed + issuers.unparsed
        report.unparsedCertificates = unparsed.isEmpty ? nil : unparsed
        return report
    }

    /// The certificate report of a chain, leaf first, served in a handshake or read from a file (``ChainFile``).
    /// - Parameters:
    ///   - delivered: every SCT the handshake collected (embedded, TLS extension, stapled OCSP) when it asked for
    ///     them; nil: only the leaf's embedded SCTs are read.
    ///   - ocspStapled: whether the server stapled an OCSP response (nil: no handshake).
    ///   - stapledOCSP: the stapled response, DER, checked as trustd checks it (nil: none stapled).
    ///   - issuers: certificates fetched from caIssuers URLs (``IssuerCompletion``), which paths may use besides the
    ///     chain; `issuerFetches` records how they were fetched (and what could not be).
    package func report(
        chain: [X509Certificate], delivered: [CollectedSCT]?, ocspStapled: Bool?, stapledOCSP: [UInt8]? = nil,
        host: String, logList: CTLogList?, now: Date, issuers: [X509Certificate] = [],
        issuerFetches: [IssuerFetch]? = nil
    ) -> CertificateReport {
        let trust = self
        var (evaluation, results) = trust.evaluate(chain + issuers, now: now)
        evaluation.issuerFetches = issuerFetches
        let verification = results[results.count - 1]  // a set has at least one store
        // Facts are read once per certificate: most of the verified path is the chain as sent.
        var known: [[UInt8]: CertificateFacts] = [:]
        func read(_ certificate: X509Certificate) -> CertificateFacts {
            if let cached = known[certificate.der] { return cached }
            let read = certificate.facts()
            known[certificate.der] = read
            return read
        }
        let facts = chain.map(read)
        let hostMatches = facts.first.map {
            HostnameMatching.matches(host: host, dnsNames: $0.subjectAltNames, ipAddresses: $0.ipAddresses)
        }
        let verifiedChain = verification.path.map(read)
        // Certificates of other stores' paths (a cross-signed root that one release trusts) go with the evaluation;
        // Apple's revocation database is read against each store's path.
        var listed = Set((facts + verifiedChain).map(\.sha256))
        var findings: [[String]: [DistrustFinding]] = [:]  // stores that built the same path find the same
        for (index, result) in results.enumerated() where result.trusted {
            let path = result.path.map(read)
            for certificate in path where !listed.contains(certificate.sha256) {
                listed.insert(certificate.sha256)
                evaluation.certificates.append(certificate)
            }
            if let apple = trust.apple {
                evaluation.stores[index].appleAnchor = path.last.map {
                    trust.appleAnchors.contains($0.sha256.uppercased())
                }
                let key = path.map(\.sha256)
                let found =
                    findings[key] ?? apple.restrictions.findings(path: path)
                    + apple.announcedDistrustFindings(path: path)
                findings[key] = found
                evaluation.stores[index].distrust = found
            }
        }
        // A fetched issuer no path kept is still reported, so a saved profile can be judged again from it.
        for certificate in issuers where !listed.contains(read(certificate).sha256) {
            listed.insert(read(certificate).sha256)
            evaluation.certificates.append(read(certificate))
        }
        return CertificateReport(
            chain: facts, trusted: chain.isEmpty ? nil : verification.trusted, hostnameMatches: hostMatches,
            verifyError: verification.errorText, verifyErrorCode: verification.errorCode,
            verifiedChain: verifiedChain, anchor: verification.anchor,
            ocspStapled: ocspStapled, verifiedAt: now, trust: chain.isEmpty ? nil : evaluation,
            transparency: chain.first.map { leaf in
                SCTVerifier.report(
                    leaf: leaf, issuer: verification.path.count > 1 ? verification.path[1] : chain.dropFirst().first,
                    collected: delivered ?? CollectedSCT.embedded(in: leaf), logList: logList, at: now,
                    requestedDelivered: delivered != nil)
            },
            revocation: chain.isEmpty
                ? nil
                : RevocationFacts.report(
                    path: verification.path.count > 1 ? verification.path : chain, stapled: stapledOCSP,
                    restrictions: trust.apple?.restrictions, at: now))
    }
}

/// Certificates read from bytes in order: those OpenSSL read, and a fact for each it could not.
package struct ParsedCertificates {
    /// The certificates read, in the order given.
    package var certificates: [X509Certificate] = []
    /// The ones not read, with their 1-based position among those given.
    package var unparsed: [UnparsedCertificate] = []

    /// Reads each of `ders`.
    /// - Parameter origin: where the bytes came from (the served chain, a caIssuers fetch).
    package init(_ ders: [[UInt8]], origin: UnparsedCertificate.Origin) {
        for (index, der) in ders.enumerated() {
            do { certificates.append(try X509Certificate(der: der)) } catch {
                unparsed.append(
                    UnparsedCertificate(
                        origin: origin, position: index + 1, reason: Self.reason(error),
                        sha256: Hex.string(Digest.sha256(der)), der: Data(der)))
            }
        }
    }

    /// OpenSSL's reason for refusing a certificate: what was being done, then its error queue.
    static func reason(_ error: any Error) -> String {
        guard let openSSL = error as? OpenSSLError else { return "\(error)" }
        return openSSL.stack.isEmpty ? "\(openSSL.operation): OpenSSL gave no reason" : openSSL.description
    }
}
