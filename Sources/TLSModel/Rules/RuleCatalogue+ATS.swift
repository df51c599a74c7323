extension RuleID {
    /// Ids of App Transport Security violations (`ats.http.*`, `ats.tls.*`) and of endpoint-level
    /// verdicts that are not one rule (`ats.fail`, `ats.ambiguous`, `ats.unknown`).
    public enum ATS {
        /// A failing endpoint that names no violation (SARIF, JUnit).
        public static let fail: RuleID = "ats.fail"
        /// An endpoint whose verdict depends on a conflicting Apple rule.
        public static let ambiguous: RuleID = "ats.ambiguous"
        /// An endpoint whose verdict could not be told.
        public static let unknown: RuleID = "ats.unknown"

        /// An `http://` load that ATS blocks.
        public static let cleartext: RuleID = "ats.http.cleartext"

        /// The TLS version the client would negotiate is below the ATS minimum (or above what the OS offers).
        public static let minimumVersion: RuleID = "ats.tls.minimum-version"
        /// The server completed no TLS handshake at all.
        public static let handshake: RuleID = "ats.tls.handshake"
        /// No accepted suite is in the list the client offers.
        public static let noATSSuite: RuleID = "ats.tls.no-ats-suite"
        /// The common suites need another certificate key type.
        public static let certificateType: RuleID = "ats.tls.certificate-type"
        /// Only RSA key-exchange suites are common: no forward secrecy.
        public static let forwardSecrecy: RuleID = "ats.tls.forward-secrecy"
        /// The suites fail the NIAP FCP_v2.1 TLS 1.2 profile.
        public static let niap: RuleID = "ats.tls.niap"
        /// The era's own ClientHello, sent to the server, did not connect (issue 36's client simulation).
        public static let simulatedHandshakeFailed: RuleID = "ats.tls.simulated-handshake-failed"
    }
}

extension RuleRegistry {
    /// Endpoint-level verdicts that are not one rule (`ats.fail`, `ats.ambiguous`, `ats.unknown`).
    public static let verdicts = RuleRegistry(
        "verdicts",
        entries: [
            RuleDescriptor(
                RuleID.ATS.fail, .verdict, .error, title: "The endpoint fails App Transport Security.",
                help: """
                    The endpoint's ATS verdict is fail. Reports list each broken rule under its own id; this id \
                    stands for the verdict itself where a format needs one result per endpoint (JUnit, or SARIF when \
                    no violation is named). Fix the violations reported for the endpoint.
                    """),
            RuleDescriptor(
                RuleID.ATS.ambiguous, .verdict, .warning,
                title: "Two readings of a conflicting Apple rule give different ATS verdicts for the endpoint.",
                help: """
                    Apple's documentation and its open-source Security code disagree on a rule that decides this \
                    endpoint (for example the ATS cipher suite list, or the 398-day boundary), and the two readings \
                    give different verdicts. The report shows each reading and its violations. Make the endpoint pass \
                    under both readings to be safe on every OS build.
                    """),
            RuleDescriptor(
                RuleID.ATS.unknown, .verdict, .note, title: "The ATS verdict for the endpoint could not be determined.",
                help: """
                    A probe the verdict depends on timed out or could not run (for example whether a TLS version is \
                    supported), so atscheck does not guess. The notes say which probe; scan again with a longer \
                    `--timeout`, or from a network path that reaches the server.
                    """),
        ])

}
