import CertificateTrust
import Foundation
import TLSModel

extension TLSProber {
    /// Completes a served chain from caIssuers URLs as trustd does (``IssuerCompletion``), deciding by the newest
    /// store of `trust`; the OpenSSL steps run on probe threads, each URL is fetched once per run
    /// (``IssuerFetcher``), and waiting for a fetch holds no thread.
    /// - Returns: The issuers added (DER) and the records; nil records when no issuer was missing.
    func completeIssuers(_ served: [[UInt8]], trust: TrustStoreSet, now: Date) async -> (
        extra: [[UInt8]], records: [IssuerFetch]?
    ) {
        guard let store = trust.members.last?.store else { return ([], nil) }
        var extra: [[UInt8]] = []
        var records: [IssuerFetch]?
        for _ in 0..<IssuerCompletion.maximumFetches {
            let added = extra
            let next = await pool.run { () -> IssuerCompletion.Next in
                // Only what OpenSSL reads can be on a path; what it cannot is not lost: the certificate report names it
                // (`unparsedCertificates`, from the same bytes).
                let chain = served.compactMap { try? X509Certificate(der: $0) }
                let fetched = added.compactMap { try? X509Certificate(der: $0) }
                return IssuerCompletion.next(chain: chain, extra: fetched, store: store, now: now)
            }
            switch next {
            case .done:
                return (extra, records)
            case .stop(let skipped):
                return (extra, (records ?? []) + skipped)
            case .fetch(let certificate, let subject, let urls):
                var found: [[UInt8]]?
                for url in urls where found == nil {
                    let obtained: IssuerCompletion.Obtained
                    if issuers.isEnabled {
                        switch await issuers.download(url) {
                        case (.body(let body), let cached): obtained = .body(body, cached: cached)
                        case (.failed(let why), let cached): obtained = .failed(why, cached: cached)
                        }
                    } else {
                        obtained = .disabled("fetching is off (--no-fetch)")
                    }
                    let (record, parents) = await pool.run {
                        IssuerCompletion.take(obtained, url: url, certificate: certificate, subject: subject)
                    }
                    records = (records ?? []) + [record]
                    if record.status == .disabled { return (extra, records) }
                    found = parents
                }
                let known = Set(served + extra)
                let new = (found ?? []).filter { !known.contains($0) }
                guard !new.isEmpty else { return (extra, records) }
                extra += new
            }
        }
        return (extra, records)
    }
}
