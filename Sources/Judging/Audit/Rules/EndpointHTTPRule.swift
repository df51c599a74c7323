import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An `http://` endpoint: blocked (error) or allowed by an exception (warning, App Review asks why).
    package static let endpointHTTP: RuleID = "audit.endpoint.http"
}

/// A cleartext `http://` endpoint: an error with the entry that would allow it when ATS blocks it, a warning when
/// the plist already allows it.
struct EndpointHTTPRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.endpointHTTP, .audit, .error,
                title: "A cleartext http:// endpoint: blocked by ATS unless an exception allows it.",
                help: """
                    An error when ATS blocks the load (the message gives the `NSExceptionAllowsInsecureHTTPLoads` \
                    entry that would allow it), a warning when the plist already allows it, since App Review asks \
                    why cleartext is needed. Prefer `https://`.
                    """,
                appleKey: "NSExceptionAllowsInsecureHTTPLoads")
        ]
    }

    func check(endpoint a: Auditor.Analysis, context: PlistContext) -> AuditOutcome {
        guard a.endpoint.entry.isHTTP else { return AuditOutcome() }
        let governing = a.governing
        if a.fails {
            let allow = [ATSKey.exceptionAllowsInsecureHTTPLoads.name: PlistValue.bool(true)]
            let fragment = ATSDiagnostics.plistFragment(host: governing ?? a.host, entry: allow)
            let via =
                governing.map { "set NSExceptionAllowsInsecureHTTPLoads = YES in the entry '\($0)'" }
                ?? "add an NSExceptionDomains entry for \(a.host) with NSExceptionAllowsInsecureHTTPLoads = YES"
            return AuditOutcome(
                findings: [
                    a.finding(
                        RuleID.Audit.endpointHTTP, .error,
                        "\(a.label) is cleartext and ATS blocks it: use https://, or \(via) (App Review asks why): "
                            + "\(Auditor.oneLine(fragment))")
                ],
                debt: [
                    ExceptionDebt(
                        kind: .http, rule: RuleID.Audit.endpointHTTP, domain: governing ?? a.host,
                        keyPath: Auditor.keyPath(governing ?? a.host, ATSKey.exceptionAllowsInsecureHTTPLoads.name),
                        endpoints: [a.label], suggested: .dict(allow), plist: fragment,
                        message: "cleartext endpoint blocked by ATS")
                ])
        }
        guard a.ats.verdict == .pass else { return AuditOutcome() }
        let why = a.ats.notes.first ?? "the plist allows it"
        return AuditOutcome(findings: [
            a.finding(
                RuleID.Audit.endpointHTTP, .warning,
                "\(a.label) is cleartext; ATS allows it (\(why)); prefer https:// — App Review asks why cleartext "
                    + "is needed")
        ])
    }
}
