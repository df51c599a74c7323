import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An entry relaxes ATS but every endpoint it covers passes under the default policy (warning).
    package static let exceptionUnneeded: RuleID = "audit.exception.unneeded"
}

/// An exception (an `NSExceptionDomains` entry, or `NSAllowsArbitraryLoads`) none of whose endpoints needs it.
struct ExceptionUnneededRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.exceptionUnneeded, .audit, .warning,
                title: "An ATS exception whose endpoints all pass under the default policy.",
                help: """
                    Every listed endpoint the entry covers passes full ATS without it, so the entry only weakens \
                    security (and may draw App Review questions). Remove the entry, or list the endpoint that \
                    needs it.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(entry e: ExceptionEntryAudit) -> AuditOutcome {
        guard let needed = e.needed, !needed.relaxesAnything else { return AuditOutcome() }
        let message =
            "every endpoint the NSExceptionDomains entry '\(e.key)' covers (\(e.labels.joined(separator: ", "))) "
            + "passes under the default ATS policy: remove the entry"
        return AuditOutcome(
            findings: [e.finding(RuleID.Audit.exceptionUnneeded, .warning, message)],
            debt: [
                ExceptionDebt(
                    kind: .unneeded, rule: RuleID.Audit.exceptionUnneeded, domain: e.key,
                    keyPath: Auditor.keyPath(e.key), endpoints: e.labels, current: e.entry.plistValue,
                    message: message)
            ])
    }

    func check(arbitraryLoads g: ArbitraryLoadsAudit) -> AuditOutcome {
        guard g.needing.isEmpty else { return AuditOutcome() }
        let message =
            "NSAllowsArbitraryLoads = YES turns ATS off for every host, but every endpoint it governs "
            + "(\(g.labels.joined(separator: ", "))) passes with ATS on: remove it (App Review asks for a "
            + "justification)"
        return g.about(.unneeded, RuleID.Audit.exceptionUnneeded, message, endpoints: g.labels)
    }
}
