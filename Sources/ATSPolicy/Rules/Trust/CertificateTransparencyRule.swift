import Foundation
import TLSModel

/// Certificate Transparency for publicly trusted leaves (iOS 12.1+; support 103214, reference §2.2):
/// leaves issued from 2018-10-16 that chain to a preinstalled root need enough SCTs by lifetime. This scan
/// sees only embedded SCT counts: it cannot see log approval, SCTs in the TLS extension or a stapled OCSP
/// response, or the device's log list. Chains to user- or MDM-installed roots never need CT.
struct CertificateTransparencyRule: ATSRule {
    /// Embedded SCTs needed under policy (b) of support 103214.
    static func requiredSCTs(for leaf: CertificateFacts) -> Int {
        if leaf.notBefore >= AppleDates.ctTable2021 {
            return leaf.lifetimeDays <= 180 ? 2 : 3
        }
        func months(_ n: Int) -> Date { CalendarDay.utc.date(byAdding: .month, value: n, to: leaf.notBefore)! }
        if leaf.notAfter < months(15) { return 2 }
        if leaf.notAfter <= months(27) { return 3 }
        if leaf.notAfter <= months(39) { return 4 }
        return 5
    }

    func apply(to context: inout RuleContext) {
        guard context.os.enforcesCertificateTransparency, context.anchor == .system, let leaf = context.leaf,
            leaf.notBefore >= AppleDates.ctRequired, leaf.notAfter >= context.now
        else { return }
        let needed = Self.requiredSCTs(for: leaf)
        context.notes.append(
            "Certificate Transparency: \(leaf.embeddedSCTs) embedded SCT(s), \(needed) needed; whether their logs "
                + "are Apple-approved, and SCTs sent in the TLS extension or OCSP, cannot be seen by this scan"
        )
        if leaf.embeddedSCTs < needed {
            context.fail(
                .Trust.certificateTransparency,
                "the certificate embeds \(leaf.embeddedSCTs) SCT(s); Apple requires \(needed) for a "
                    + "\(leaf.lifetimeDays)-day certificate from a preinstalled root (SCTs in the TLS extension or a "
                    + "stapled OCSP response are not seen)"
            )
        }
    }
}
