import Foundation
import TLSModel

extension IssuerCompletion {
    /// What one caIssuers URL gave the driver.
    package enum Obtained: Sendable {
        /// The answer's body (`cached`: an earlier endpoint of the run fetched it).
        case body([UInt8], cached: Bool)
        /// The parents a saved profile recorded for the URL.
        case saved([[UInt8]])
        case failed(String, cached: Bool)
        /// Not fetched: fetching is off, with the reason.
        case disabled(String)
    }

    /// The record of one URL, and the parents it gave (nil: none).
    package static func take(_ obtained: Obtained, url: String, certificate: [UInt8], subject: String) -> (
        IssuerFetch, [[UInt8]]?
    ) {
        func failed(_ reason: String, cached: Bool?) -> (IssuerFetch, [[UInt8]]?) {
            (IssuerFetch(certificate: subject, url: url, status: .failed, reason: reason, cached: cached), nil)
        }
        let parents: [[UInt8]]
        var cached: Bool?
        switch obtained {
        case .disabled(let reason):
            return (IssuerFetch(certificate: subject, url: url, status: .disabled, reason: reason), nil)
        case .failed(let reason, let wasCached):
            return failed(reason, cached: wasCached ? true : nil)
        case .saved(let saved):
            parents = saved
        case .body(let body, let wasCached):
            cached = wasCached ? true : nil
            switch Self.parents(of: certificate, from: body) {
            case .success(let found): parents = found
            case .failure(let failure): return failed("\(url): \(failure.reason)", cached: cached)
            }
        }
        let shas = parents.map { Hex.string(Digest.sha256($0)) }
        return (
            IssuerFetch(certificate: subject, url: url, status: .fetched, certificates: shas, cached: cached), parents
        )
    }

    /// Completes `chain` on the calling thread, each URL's answer from `obtain` (a chain file's fetch, a saved
    /// profile's record).
    /// - Returns: The issuers added (to verify with the chain) and the records; nil records when no issuer was
    ///   missing.
    package static func complete(
        chain: [X509Certificate], store: TrustStore, now: Date, obtain: (String) -> Obtained
    ) -> (extra: [X509Certificate], records: [IssuerFetch]?) {
        var extra: [X509Certificate] = []
        var records: [IssuerFetch]?
        for _ in 0..<maximumFetches {
            switch next(chain: chain, extra: extra, store: store, now: now) {
            case .done:
                return (extra, records)
            case .stop(let skipped):
                return (extra, (records ?? []) + skipped)
            case .fetch(let certificate, let subject, let urls):
                var found: [[UInt8]]?
                for url in urls where found == nil {
                    let (record, parents) = take(obtain(url), url: url, certificate: certificate, subject: subject)
                    records = (records ?? []) + [record]
                    if record.status == .disabled { return (extra, records) }
                    found = parents
                }
                let known = Set((chain + extra).map(\.der))
                let new = (found ?? []).filter { !known.contains($0) }.compactMap { try? X509Certificate(der: $0) }
                guard !new.isEmpty else { return (extra, records) }
                extra += new
            }
        }
        return (extra, records)
    }
}
