import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An endpoint fails ATS and an `NSExceptionDomains` entry would fix it (error; the message has the entry).
    package static let exceptionMissing: RuleID = "audit.exception.missing"
}

/// An endpoint fails ATS and an exception entry would make it pass: the finding carries the least entry that does
/// (merged into the entry already in force for the host, if any).
struct ExceptionMissingRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.exceptionMissing, .audit, .error,
                title: "An endpoint fails ATS and needs an NSExceptionDomains entry the plist lacks.",
                help: """
                    The endpoint fails ATS under the app's plist, and an exception entry would make it pass; the \
                    message carries the least entry that does, ready to paste. Prefer fixing the server (the ATS \
                    violations say what to change); otherwise add the entry. With `expect: fail` in the endpoint \
                    list the finding becomes a note.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(endpoint a: Auditor.Analysis, context: PlistContext) -> AuditOutcome {
        guard !a.endpoint.entry.isHTTP, a.judged, a.fails, let minimal = a.minimal, minimal.status == .exception
        else { return AuditOutcome() }
        let governing = a.governing
        let key = governing ?? minimal.domain
        let needs = ExceptionNeeds(minimal: minimal.dictionary)
        // With an entry already in force, the fix is that entry plus what is missing from it.
        var current: PlistValue?
        var suggested = minimal.dictionary
        var fragment = minimal.plist ?? ""
        if let governing, let granted = context.configuration.exceptionDomains[governing] {
            current = granted.plistValue
            let merged = ExceptionNeeds(granted: granted).merged(needs).entry
            suggested = .dict(merged)
            fragment = ATSDiagnostics.plistFragment(host: governing, entry: merged)
        }
        let prefix =
            governing.map { "the NSExceptionDomains entry '\($0)' does not allow it" }
            ?? "no NSExceptionDomains entry covers \(a.host)"
        return AuditOutcome(
            findings: [
                a.finding(
                    RuleID.Audit.exceptionMissing, .error,
                    "\(a.label) fails ATS (\(a.summary)); \(prefix); the least exception that fixes it: "
                        + "\(needs.phrases.joined(separator: ", ")) — \(Auditor.oneLine(fragment))")
            ],
            debt: [
                ExceptionDebt(
                    kind: .missing, rule: RuleID.Audit.exceptionMissing, domain: key,
                    keyPath: Auditor.keyPath(key), endpoints: [a.label], current: current, suggested: suggested,
                    plist: fragment, message: minimal.reason)
            ])
    }
}
