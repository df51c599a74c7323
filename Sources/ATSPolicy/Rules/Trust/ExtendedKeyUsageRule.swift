import TLSModel

/// The leaf's extended key usage must contain id-kp-serverAuth (support 103769, iOS 13; reference §2.1).
/// Security-source detail: chains to a system root need serverAuth on the leaf whatever its date, and any
/// sub-CA with an EKU must list serverAuth or anyExtendedKeyUsage; chains to user or MDM roots only need an
/// EKU, when present, to allow server use. No Info.plist key relaxes it.
struct ExtendedKeyUsageRule: ATSRule {
    func apply(to context: inout RuleContext) {
        guard context.os.enforcesIOS13CertificateRules, let leaf = context.leaf else { return }
        if context.anchor == .system {
            if !(leaf.extendedKeyUsage ?? []).contains(.serverAuth) {
                let has = leaf.extendedKeyUsage.map { "extended key usage \($0.map(\.rawValue).listed())" } ?? "no extended key usage"
                context.fail(
                    .Trust.eku, "the server certificate has \(has); Apple requires serverAuth for TLS server certificates")
            }
            for cert in context.chain.dropFirst() where !cert.selfSigned && !cert.allowsServerAuth {
                context.fail(
                    .Trust.eku,
                    "CA certificate '\(cert.subject)' restricts extended key usage to \((cert.extendedKeyUsage ?? []).map(\.rawValue).listed()); Apple requires serverAuth or anyExtendedKeyUsage")
            }
        } else {
            let strict = leaf.notBefore > AppleDates.ios13Rules
            let ok = strict && context.anchor == .none
                ? (leaf.extendedKeyUsage ?? []).contains(.serverAuth) : leaf.allowsServerAuth
            if !ok {
                let has = leaf.extendedKeyUsage.map { "extended key usage \($0.map(\.rawValue).listed())" } ?? "no extended key usage"
                context.fail(
                    .Trust.eku, "the server certificate has \(has); Apple requires serverAuth for TLS server certificates")
            }
        }
    }
}
