internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// A certificate chain read from a file (PEM, one or more blocks, or one DER certificate), put in path order: the
/// leaf, then the certificate that issued it, and so on; certificates that issue nothing on that path follow in
/// file order. A server's `fullchain.pem` is already in that order; a bundle in any other order is sorted, and
/// ``reordered`` says so.
package struct ChainFile: Sendable {
    /// The certificates, DER, in path order.
    package let certificates: [Data]
    /// Whether the file's order differed from path order.
    package let reordered: Bool
    /// Certificates that are not on the leaf's issuer chain (neither issue nor are issued on it), as positions in
    /// the file (1-based).
    package let unrelated: [Int]

    /// Parses `data` (the contents of `file`, which only names it in errors).
    /// - Throws: ``ChainFileError`` when it holds no certificate, or a PEM block or the DER does not parse.
    package init(data: Data, file: String) throws(ChainFileError) {
        OpenSSLRuntime.prepare()
        let parsed: [X509Certificate]
        if data.starts(with: Array("-----BEGIN".utf8))
            || String(decoding: data.prefix(4096), as: UTF8.self)
                .contains("-----BEGIN")
        {
            let blocks = data.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: Array("-----BEGIN".utf8)) }
            guard let owned = OwnedX509.certificates(fromPEM: data) else {
                throw ChainFileError(file: file, reason: "cannot read it (out of memory)")
            }
            let certificateBlocks = blocks.filter { $0.starts(with: Array("-----BEGIN CERTIFICATE-----".utf8)) }
            guard owned.count == certificateBlocks.count else {
                throw ChainFileError(
                    file: file,
                    reason:
                        "certificate \(owned.count + 1) of \(certificateBlocks.count) is not a valid PEM certificate")
            }
            do { parsed = try owned.map { try X509Certificate(owned: $0) } } catch {
                throw ChainFileError(file: file, reason: "a certificate does not encode: \(error)")
            }
        } else {
            do { parsed = [try X509Certificate(der: [UInt8](data))] } catch {
                throw ChainFileError(file: file, reason: "neither PEM nor a DER certificate")
            }
        }
        guard !parsed.isEmpty else {
            throw ChainFileError(file: file, reason: "no certificate in it (expected PEM CERTIFICATE blocks or DER)")
        }
        let (ordered, unrelated) = Self.pathOrder(parsed)
        certificates = ordered.map { Data(parsed[$0].der) }
        reordered = ordered != Array(parsed.indices)
        self.unrelated = unrelated.map { $0 + 1 }
    }

    /// Indices of `certificates` in path order, and those not on the path. The leaf is the first certificate that
    /// issues none of the others (a CA that issues nothing only when no end-entity certificate does).
    static func pathOrder(_ certificates: [X509Certificate]) -> (order: [Int], unrelated: [Int]) {
        let count = certificates.count
        func issued(_ issuer: Int, _ subject: Int) -> Bool {
            issuer != subject
                && X509_check_issued(certificates[issuer].pointer, certificates[subject].pointer) == X509_V_OK
        }
        defer { OpenSSLErrorQueue.clear() }
        let issuesNothing = (0..<count).filter { i in !(0..<count).contains { issued(i, $0) } }
        let leaf =
            issuesNothing.first { X509_check_ca(certificates[$0].pointer) == 0 } ?? issuesNothing.first ?? 0
        var order = [leaf]
        while order.count < count, let tip = order.last,
            let next = (0..<count).first(where: { !order.contains($0) && issued($0, tip) })
        {
            order.append(next)
        }
        let unrelated = (0..<count).filter { !order.contains($0) }
        return (order + unrelated, unrelated)
    }
}

/// Fetches the answer of one caIssuers URL on the calling thread, for a chain judged outside a scan: the body (and
/// whether an earlier chain of the run fetched it) or why not. The prober's `IssuerFetcher` gives one.
///
/// > Warning: Touches the network and blocks (at most ``IssuerCompletion/timeout`` seconds a URL).
package typealias IssuerDownload = @Sendable (String) -> IssuerCompletion.Obtained

/// A chain file that cannot be judged: the file and the reason (exit 65).
package struct ChainFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var reason: String

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    package var description: String { "\(file): \(reason)" }
}

/// Judges chains without a handshake — chain files (`atscheck cert`) and the chains saved profiles kept (re-judged
/// from their DER, never from a stored verdict) — against trust inputs built once: Apple's source parses hundreds of
/// roots into a store per release, which a run of many hosts or profiles must not repeat.
package final class ChainReports: ChainJudging, @unchecked Sendable {  // immutable after init; OpenSSL guards lookups
    private let trust: TrustStoreSet
    private let logList: CTLogList?
    private let download: IssuerDownload?

    /// - Parameters:
    ///   - source: whose system roots; `caFiles` the user- or MDM-installed roots.
    ///   - logList: the CT log list SCTs are checked against.
    ///   - download: how a chain's missing issuer is fetched (a chain file; nil: fetching is off). A saved profile's
    ///     issuers come from the profile instead (``report(chain:delivered:ocspStapled:stapledOCSP:host:now:saved:)``).
    /// - Throws: ``ProbeFailure`` when the trust data or a CA file cannot be read.
    package init(
        source: TrustStoreSource, caFiles: [String], useSystemStore: Bool = true, logList: CTLogList?,
        download: IssuerDownload? = nil
    ) throws {
        self.download = download
        OpenSSLRuntime.prepare()
        do { trust = try TrustStoreSet(source: source, caFiles: caFiles, useSystemStore: useSystemStore) } catch let
            error as ProbeFailure
        {
            throw error
        } catch { throw ProbeFailure(.local, "cannot build the trust store: \(error)") }
        self.logList = logList
    }

    /// The certificate report of one chain.
    /// - Parameters:
    ///   - chain: DER certificates, leaf first.
    ///   - delivered: SCTs a handshake delivered outside the certificate (TLS extension, stapled OCSP), as saved;
    ///     the leaf's embedded SCTs are always read from the leaf. Nil: the chain came from no handshake.
    ///   - ocspStapled: whether a handshake had a stapled response (nil: no handshake).
    ///   - stapledOCSP: the stapled response as saved (DER), checked again at `now`.
    ///   - host: the name to match the leaf against.
    ///   - now: the time to judge at.
    ///   - savedIssuers: the issuers a saved profile's scan fetched: each caIssuers URL gives what it gave then, and
    ///     nothing is fetched. Nil: a missing issuer is fetched (through `download`, when there is one).
    /// - Throws: ``ProbeFailure`` when a certificate does not parse.
    /// > Warning: With `saved` nil and fetching on, a chain whose issuer is missing is completed over the network on
    /// > the calling thread (at most ``IssuerCompletion/timeout`` seconds a URL).
    package func report(
        chain: [Data], delivered: [SCTFacts]? = nil, ocspStapled: Bool? = nil, stapledOCSP: Data? = nil, host: String,
        now: Date, savedIssuers saved: SavedIssuers? = nil
    ) throws -> CertificateReport {
        let certificates: [X509Certificate]
        do { certificates = try chain.map { try X509Certificate(der: [UInt8]($0)) } } catch {
            throw ProbeFailure(.local, "a certificate does not parse: \(error)")
        }
        var collected: [CollectedSCT]?
        if let delivered {
            let embedded = certificates.first.map(CollectedSCT.embedded(in:)) ?? []
            collected =
                embedded
                + delivered.compactMap { sct in
                    sct.serialized.map { CollectedSCT(source: sct.source, bytes: [UInt8]($0)) }
                }
        }
        let issued = completeIssuers(certificates, now: now, saved: saved)
        return trust.report(
            chain: certificates, delivered: collected, ocspStapled: ocspStapled,
            stapledOCSP: stapledOCSP.map { [UInt8]($0) }, host: host, logList: logList, now: now,
            issuers: issued.extra, issuerFetches: issued.records)
    }

    /// The certificate report of one chain (``ChainJudging``): a saved report's issuers are reused as fetched then,
    /// and its certificates the scan could not read are reported again as they were (the chain holds only those it
    /// read).
    package func report(
        chain: [Data], delivered: [SCTFacts]?, ocspStapled: Bool?, stapledOCSP: Data?, host: String, now: Date,
        saved: CertificateReport?
    ) throws -> CertificateReport {
        var report = try self.report(
            chain: chain, delivered: delivered, ocspStapled: ocspStapled, stapledOCSP: stapledOCSP, host: host,
            now: now, savedIssuers: saved.map(SavedIssuers.init))
        if let saved { report.unparsedCertificates = saved.unparsedCertificates }
        return report
    }

    /// The chain's missing issuers, from the saved profile or fetched (``IssuerCompletion``).
    private func completeIssuers(_ chain: [X509Certificate], now: Date, saved: SavedIssuers?) -> (
        extra: [X509Certificate], records: [IssuerFetch]?
    ) {
        guard let store = trust.members.last?.store else { return ([], nil) }
        return IssuerCompletion.complete(chain: chain, store: store, now: now) { url in
            if let saved {
                if let reason = saved.disabled[url] { return .disabled(reason) }
                switch saved.answers[url] {
                case .success(let parents)?: return .saved(parents)
                case .failure(let failure)?: return .failed(failure.reason, cached: false)
                case nil: return .disabled("the saved profile's scan did not fetch it")
                }
            }
            guard let download else { return .disabled("fetching is off (--no-fetch)") }
            return download(url)
        }
    }
}
