import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An `NSExceptionDomains` key that no listed endpoint uses (warning).
    package static let exceptionNoEndpoint: RuleID = "audit.exception.no-endpoint"
}

/// An `NSExceptionDomains` entry that governs no endpoint of the list, so whether it is needed cannot be told.
struct ExceptionNoEndpointRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.exceptionNoEndpoint, .audit, .warning,
                title: "An NSExceptionDomains entry that matches no endpoint in the list.",
                help: """
                    No endpoint of the list is governed by the entry, so the audit cannot tell whether it is \
                    needed. Add the hosts the app talks to under that domain to the endpoint list, or remove the \
                    stale entry.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(entry e: ExceptionEntryAudit) -> AuditOutcome {
        guard e.covered.isEmpty else { return AuditOutcome() }
        return AuditOutcome(
            findings: [
                e.finding(
                    RuleID.Audit.exceptionNoEndpoint, .warning,
                    "no endpoint in the list uses the NSExceptionDomains entry '\(e.key)': remove it if the app no "
                        + "longer connects to \(e.key), or add its endpoints to the list")
            ],
            debt: [
                ExceptionDebt(
                    kind: .noEndpoint, rule: RuleID.Audit.exceptionNoEndpoint, domain: e.key,
                    keyPath: Auditor.keyPath(e.key), endpoints: [], current: e.entry.plistValue,
                    message: "matches no endpoint")
            ])
    }
}
