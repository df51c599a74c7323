import ATSPolicy
import TLSModel

// The id `RuleID.Audit.endpointUnscanned` stays in TLSModel: Reporting, below this module, reads it (a JUnit case
// for an endpoint that could not be judged is skipped, not failed).

/// An `https` endpoint that could not be scanned or judged: its exception needs are unknown.
struct EndpointUnscannedRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.endpointUnscanned, .audit, .warning,
                title: "An endpoint that could not be scanned; its exception needs are unknown.",
                help: """
                    The endpoint was unreachable, timed out or did not complete TLS, so the audit cannot say \
                    whether the plist covers it; the run exits 2. Scan from a network that reaches it, or with a \
                    longer `--timeout`.
                    """)
        ]
    }

    func check(endpoint a: Auditor.Analysis, context: PlistContext) -> AuditOutcome {
        guard !a.endpoint.entry.isHTTP, !a.judged else { return AuditOutcome() }
        let why = a.endpoint.profile.error ?? a.ats.notes.last ?? a.endpoint.profile.status.rawValue
        return AuditOutcome(findings: [
            a.finding(
                RuleID.Audit.endpointUnscanned, .warning,
                "\(a.label) could not be scanned or judged (\(why)); its exception needs are unknown")
        ])
    }
}
