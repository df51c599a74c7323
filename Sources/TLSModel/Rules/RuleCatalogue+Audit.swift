extension RuleID {
    /// Ids of the findings `atscheck audit` adds to the plist and endpoint-list findings.
    public enum Audit: RuleNamespace {
        public static let family = RuleFamily.audit
        // Each id is declared beside its rule, in Judging/Audit/Rules; this one stays here because Reporting, below
        // Judging, reads it (a JUnit case for an endpoint that could not be judged is skipped, not failed).
        /// An endpoint that could not be scanned, so its needs are unknown (warning; exit 2).
        public static let endpointUnscanned: RuleID = "audit.endpoint.unscanned"
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

extension RuleRegistry {

    /// What reading an endpoint list can report (`endpoints.*`).

    public static let endpointLists = RuleRegistry(

        "endpointLists",

        entries: [
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
        ])

    /// What applying a baseline can report (`baseline.*`).

    public static let baselines = RuleRegistry(

        "baselines",

        entries: [
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
        ])
}
