import Foundation
import TLSModel

/// `--warn-days N`: a ``RuleID/Trust/expirySoon`` warning for every certificate about to expire.
///
/// The certificates looked at are the verified path (leaf to anchor, which may hold a root the server did not
/// send) or, when the chain did not verify, the chain as sent. A certificate already expired is left to
/// ``RuleID/Trust/expired``; one that expires within `days` days of `now` gets a finding located at the
/// endpoint's line in its list (when it came from one).
package enum ExpiryWarnings {
    /// The default of `--warn-days`.
    package static let defaultDays = 30

    /// The warnings for the endpoints of a report.
    /// - Parameters:
    ///   - endpoints: judged endpoints; only completed scans with a certificate are looked at.
    ///   - days: the window; 0 or less gives no findings.
    ///   - now: the time the window starts at.
    /// - Returns: one warning per certificate and endpoint, in endpoint order, leaf first.
    package static func findings(for endpoints: [EndpointResult], within days: Int, now: Date) -> [Finding] {
        guard days > 0 else { return [] }
        let horizon = now.addingTimeInterval(Double(days) * 86_400)
        var findings: [Finding] = []
        for endpoint in endpoints {
            guard endpoint.profile.status == .completed, let certificate = endpoint.profile.certificate else {
                continue
            }
            let path = certificate.verifiedChain.isEmpty ? certificate.chain : certificate.verifiedChain
            for (position, cert) in path.enumerated() where cert.notAfter >= now && cert.notAfter < horizon {
                let left = Int(cert.notAfter.timeIntervalSince(now) / 86_400)
                let when = left == 0 ? "within a day" : "in \(left) day\(left == 1 ? "" : "s")"
                let who = position == 0 ? "the certificate" : "chain certificate '\(cert.subject)'"
                findings.append(
                    Finding(
                        rule: RuleID.Trust.expirySoon, severity: .warning,
                        message:
                            "\(endpoint.profile.target): \(who) expires on "
                            + "\(CalendarDay.string(from: cert.notAfter)) (\(when)); renew it before then",
                        file: endpoint.source?.file, line: endpoint.source?.line))
            }
        }
        return findings
    }
}

extension ScanReport {
    /// The report with the certificate warnings added to its findings: ``ExpiryWarnings``, ``KeyUsageWarnings``,
    /// ``LifetimeSchedule``, ``StaleDataWarnings`` and ``MissingIntermediateWarnings``; and, whatever `days`, the
    /// ClientHello-size warnings (``HelloSizeWarnings``).
    /// - Parameters:
    ///   - days: `--warn-days`; nil adds none of the certificate warnings, 0 only the key-usage warnings.
    ///   - now: the time the window starts at.
    package func addingExpiryWarnings(days: Int?, now: Date = Date()) -> ScanReport {
        var copy = self
        copy.findings += HelloSizeWarnings.findings(for: endpoints)
        guard let days else { return copy }
        copy.findings += ExpiryWarnings.findings(for: endpoints, within: days, now: now)
        copy.findings += KeyUsageWarnings.findings(for: endpoints)
        copy.findings += LifetimeSchedule.findings(for: endpoints)
        copy.findings += StaleDataWarnings.findings(for: endpoints, now: now)
        copy.findings += MissingIntermediateWarnings.findings(for: endpoints)
        return copy
    }
}
