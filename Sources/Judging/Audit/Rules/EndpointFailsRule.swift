import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An endpoint fails ATS and no exception can fix it (error: untrusted certificate, no ATS suite…).
    package static let endpointFails: RuleID = "audit.endpoint.fails"
}

/// An endpoint that fails ATS where no exception entry helps: no Info.plist key relaxes the failure, or the plist
/// is stricter for the host than the default policy, which would pass it.
struct EndpointFailsRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.endpointFails, .audit, .error,
                title: "An endpoint fails ATS and no exception can make it pass.",
                help: """
                    The failure is one no Info.plist key relaxes (an untrusted or expired certificate, a hostname \
                    mismatch, no TLS handshake), or the plist is stricter for the host than the default. Fix the \
                    server; the ATS violations in the report say what to change.
                    """)
        ]
    }

    func check(endpoint a: Auditor.Analysis, context: PlistContext) -> AuditOutcome {
        guard !a.endpoint.entry.isHTTP, a.judged, a.fails, let minimal = a.minimal else { return AuditOutcome() }
        switch minimal.status {
        case .exception:
            return AuditOutcome()
        case .noneNeeded:
            return AuditOutcome(findings: [
                a.finding(
                    RuleID.Audit.endpointFails, .error,
                    "\(a.label) fails ATS (\(a.summary)) only because the plist is stricter for it than the "
                        + "default\(a.governing.map { " (entry '\($0)')" } ?? ""); the default policy would pass")
            ])
        case .impossible, .unknown:
            return AuditOutcome(
                findings: [
                    a.finding(
                        RuleID.Audit.endpointFails, .error,
                        "\(a.label) fails ATS and no exception can fix it: \(minimal.reason)")
                ],
                debt: [
                    ExceptionDebt(
                        kind: .impossible, rule: RuleID.Audit.endpointFails, domain: a.host, endpoints: [a.label],
                        message: minimal.reason)
                ])
        }
    }
}
