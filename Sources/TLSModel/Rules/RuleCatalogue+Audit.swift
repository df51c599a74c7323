extension RuleID {
    /// Ids of the findings `atscheck audit` adds to the plist and endpoint-list findings.
    public enum Audit: RuleNamespace {
        public static let family = RuleFamily.audit
        /// An endpoint fails ATS and an `NSExceptionDomains` entry would fix it (error; the message has the entry).
        public static let exceptionMissing: RuleID = "audit.exception.missing"
        /// An entry relaxes ATS but every endpoint it covers passes under the default policy (warning).
        public static let exceptionUnneeded: RuleID = "audit.exception.unneeded"
        /// An entry (or NSAllowsArbitraryLoads) grants more than the endpoints need (warning).
        public static let exceptionBroader: RuleID = "audit.exception.broader"
        /// An `NSExceptionDomains` key that no listed endpoint uses (warning).
        public static let exceptionNoEndpoint: RuleID = "audit.exception.no-endpoint"
        /// An `http://` endpoint: blocked (error) or allowed by an exception (warning, App Review asks why).
        public static let endpointHTTP: RuleID = "audit.endpoint.http"
        /// An endpoint fails ATS and no exception can fix it (error: untrusted certificate, no ATS suite…).
        public static let endpointFails: RuleID = "audit.endpoint.fails"
        /// An endpoint that could not be scanned, so its needs are unknown (warning; exit 2).
        public static let endpointUnscanned: RuleID = "audit.endpoint.unscanned"
        /// An endpoint whose verdict differs from its `expect:` (error).
        public static let endpointUnexpected: RuleID = "audit.endpoint.unexpected"
        /// An `NSPinnedDomains` key that covers no listed `https` endpoint, so its pins were not checked (note).
        public static let pinnedDomainNoEndpoint: RuleID = "audit.pinned-domain.no-endpoint"
    }

    /// Ids of the findings an endpoint list can produce.
    public enum Endpoints: RuleNamespace {
        public static let family = RuleFamily.endpoints
        /// A line or item that is not a usable endpoint (error).
        public static let invalid: RuleID = "endpoints.invalid"
        /// A key in an endpoint mapping that atscheck does not know (warning; the key is ignored).
        public static let unknownKey: RuleID = "endpoints.unknown-key"
        /// The same endpoint listed twice (note; both are audited).
        public static let duplicate: RuleID = "endpoints.duplicate"
    }

    /// Ids of the findings a baseline adds.
    public enum Baseline: RuleNamespace {
        public static let family = RuleFamily.baseline
        /// A waiver missing a rule, target/keyPath, reason or valid expiry (error).
        public static let invalid: RuleID = "baseline.invalid"
        /// A waiver past its expiry (error): it no longer suppresses.
        public static let expired: RuleID = "baseline.expired"
        /// A waiver that matched nothing (note).
        public static let unused: RuleID = "baseline.unused"
        /// Not a rule of its own: suppressed findings keep their rule id and become notes whose message starts
        /// with "waived"; this id names that state in the catalogue.
        public static let waived: RuleID = "baseline.waived"
    }
}

extension RuleCatalogue {
    static let auditRules: [RuleDescriptor] = [
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

    static let endpointListRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Endpoints.invalid, .endpoints, .error,
            title: "A line of the endpoint list that is not a URL or host[:port].",
            help: """
                Each entry must be an `https://` or `http://` URL, `host` or `host:port` (with a bracketed IPv6 \
                address), or a mapping with a `url`. A bare number (`- 42`, `{"url": 5}`) or a short IPv4 form \
                (`10.1`) is refused: a resolver reads it as an address nobody asked for (`42` is 0.0.0.42). The \
                entry is skipped. Fix the line the finding points at.
                """),
        RuleDescriptor(
            RuleID.Endpoints.unknownKey, .endpoints, .warning,
            title: "A key of an endpoint entry that atscheck does not read.",
            help: """
                The key is ignored, so a misspelt `expect` or `caFile` has no effect. Use one of the keys the \
                endpoint list format documents.
                """),
        RuleDescriptor(
            RuleID.Endpoints.duplicate, .endpoints, .note, title: "An endpoint listed twice.",
            help: """
                Both entries are audited. Remove the duplicate.
                """),
    ]

    static let baselineRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Baseline.invalid, .baseline, .error,
            title: "A baseline waiver without a rule, a target or key path, a reason or a valid expiry date.",
            help: """
                Every waiver needs a `rule` (an id, or a prefix ending in `*`), a `target` or `keyPath`, a \
                `reason` and an `expires` date (YYYY-MM-DD); an incomplete waiver suppresses nothing. Complete it.
                """),
        RuleDescriptor(
            RuleID.Baseline.expired, .baseline, .error,
            title: "A baseline waiver past its expiry date; it no longer suppresses.",
            help: """
                The waived findings are reported again at their own severity. Fix the findings, or renew the \
                waiver with a new date and reason.
                """),
        RuleDescriptor(
            RuleID.Baseline.unused, .baseline, .note, title: "A baseline waiver that matched nothing.",
            help: """
                No finding matched the waiver's rule and target or key path, perhaps because the problem was \
                fixed. Remove the waiver.
                """),
        RuleDescriptor(
            RuleID.Baseline.waived, .baseline, .note,
            title: "A finding suppressed by a baseline waiver (its original rule id is kept).",
            help: """
                Not a rule of its own: a waived finding keeps its rule id, becomes a note and its message starts \
                with "waived". Listed so the state is documented; fix the finding before the waiver expires.
                """),
    ]
}
