import TLSModel

extension RuleRegistry {
    /// The plist-against-endpoints cross-check of `atscheck audit` (`audit.*`), in documentation order.
    public static let audit = RuleRegistry("audit", entries: AuditRuleEntries.all)
}

/// The entries of the audit rules, in documentation order.
enum AuditRuleEntries {
    static let all: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Audit.exceptionMissing, .audit, .error,
            title: "An endpoint fails ATS and needs an NSExceptionDomains entry the plist lacks.",
            help: """
                The endpoint fails ATS under the app's plist, and an exception entry would make it pass; the \
                message carries the least entry that does, ready to paste. Prefer fixing the server (the ATS \
                violations say what to change); otherwise add the entry. With `expect: fail` in the endpoint list \
                the finding becomes a note.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            RuleID.Audit.exceptionUnneeded, .audit, .warning,
            title: "An ATS exception whose endpoints all pass under the default policy.",
            help: """
                Every listed endpoint the entry covers passes full ATS without it, so the entry only weakens \
                security (and may draw App Review questions). Remove the entry, or list the endpoint that needs it.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            RuleID.Audit.exceptionBroader, .audit, .warning,
            title: "An ATS exception that relaxes more than its endpoints need.",
            help: """
                The entry (or `NSAllowsArbitraryLoads`) grants more than the least exception the endpoints need: a \
                lower TLS floor, forward secrecy off, insecure HTTP, or subdomains no endpoint uses. Narrow it to \
                the keys the message names.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            RuleID.Audit.exceptionNoEndpoint, .audit, .warning,
            title: "An NSExceptionDomains entry that matches no endpoint in the list.",
            help: """
                No endpoint of the list is governed by the entry, so the audit cannot tell whether it is needed. \
                Add the hosts the app talks to under that domain to the endpoint list, or remove the stale entry.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            RuleID.Audit.endpointHTTP, .audit, .error,
            title: "A cleartext http:// endpoint: blocked by ATS unless an exception allows it.",
            help: """
                An error when ATS blocks the load (the message gives the `NSExceptionAllowsInsecureHTTPLoads` entry \
                that would allow it), a warning when the plist already allows it, since App Review asks why \
                cleartext is needed. Prefer `https://`.
                """,
            appleKey: "NSExceptionAllowsInsecureHTTPLoads"),
        RuleDescriptor(
            RuleID.Audit.endpointFails, .audit, .error,
            title: "An endpoint fails ATS and no exception can make it pass.",
            help: """
                The failure is one no Info.plist key relaxes (an untrusted or expired certificate, a hostname \
                mismatch, no TLS handshake), or the plist is stricter for the host than the default. Fix the \
                server; the ATS violations in the report say what to change.
                """),
        RuleDescriptor(
            RuleID.Audit.endpointUnscanned, .audit, .warning,
            title: "An endpoint that could not be scanned; its exception needs are unknown.",
            help: """
                The endpoint was unreachable, timed out or did not complete TLS, so the audit cannot say whether \
                the plist covers it; the run exits 2. Scan from a network that reaches it, or with a longer \
                `--timeout`.
                """),
        RuleDescriptor(
            RuleID.Audit.endpointUnexpected, .audit, .error,
            title: "An endpoint whose ATS verdict differs from the expect: in the endpoint list.",
            help: """
                The endpoint list says `expect: pass` or `expect: fail` and the verdict is the other one: the \
                server or the plist changed. Fix the regression, or update the expectation.
                """),
        RuleDescriptor(
            RuleID.Audit.pinnedDomainNoEndpoint, .audit, .note,
            title: "An NSPinnedDomains entry that covers no https endpoint in the list.",
            help: """
                No `https` endpoint of the list is the entry's host or, with `NSIncludesSubdomains`, one label \
                below it, so the audit could not check its pins against a live path. Add the hosts the app pins \
                to the endpoint list, or remove the stale entry; a pin for a server that no longer exists only \
                hides which pins matter.
                """,
            appleKey: "NSPinnedDomains"),
    ]
}
