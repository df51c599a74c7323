import Foundation
import TLSModel

/// A chain's issuers as they were fetched when it was scanned, for judging a saved profile again without the
/// network: each URL gives what it gave then.
package struct SavedIssuers: Sendable {
    /// URL → the DER certificates it served (fetched) or why not.
    var answers: [String: Result<[[UInt8]], IssuerCompletion.IssuerFailure>]
    /// URL → the reason it was not fetched (`--no-fetch`).
    var disabled: [String: String]

    /// The issuers a saved certificate report recorded, with their certificates (DER) from the report.
    package init(_ report: CertificateReport) {
        answers = [:]
        disabled = [:]
        let pool = report.chain + report.verifiedChain + (report.trust?.certificates ?? [])
        for record in report.trust?.issuerFetches ?? [] {
            switch record.status {
            case .fetched:
                let ders = record.certificates.compactMap { sha in
                    pool.first { $0.sha256 == sha }.map { [UInt8]($0.der) }
                }
                answers[record.url] =
                    ders.isEmpty ? .failure(.init("the saved profile lacks the fetched certificate")) : .success(ders)
            case .failed: answers[record.url] = .failure(.init(record.reason ?? "failed"))
            case .disabled: disabled[record.url] = record.reason ?? "fetching was off"
            case .skipped: break
            }
        }
    }

    /// Nothing saved: every URL is reported as not fetched when the profile was saved.
    package static let empty = SavedIssuers()

    private init() {
        answers = [:]
        disabled = [:]
    }
}
