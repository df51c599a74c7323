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
    }
}

extension RuleCatalogue {
    static let verdictRules: [RuleDescriptor] = [
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
    ]

    static let httpRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.ATS.cleartext, .http, .error, title: "A cleartext http:// load that ATS blocks.",
            help: """
                ATS requires HTTPS: an `http://` load to a host where ATS applies fails with NSURLError −1022 \
                ("App Transport Security has blocked a cleartext HTTP resource load"), and every redirect hop is \
                judged again. Serve the host over HTTPS; if that is impossible, an `NSExceptionDomains` entry with \
                `NSExceptionAllowsInsecureHTTPLoads = YES` allows it (App Review asks why).
                """,
            appleKey: "NSExceptionAllowsInsecureHTTPLoads")
    ]

    static let tlsRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.ATS.minimumVersion, .tls, .error,
            title: "The server's highest TLS version is below the minimum the client offers.",
            help: """
                ATS offers TLS 1.2 and 1.3 by default (`NSExceptionMinimumTLSVersion` lowers or raises the \
                floor) and the server picks the highest version both support; a server that stops below the \
                floor fails the handshake (NSURLError −1200). Also reported when the minimum is TLSv1.3 on an OS \
                that does not offer TLS 1.3. Enable TLS 1.2 or 1.3 on the server; lowering the minimum with \
                `NSExceptionMinimumTLSVersion` works but needs an App Review justification.
                """,
            appleKey: "NSExceptionMinimumTLSVersion"),
        RuleDescriptor(
            RuleID.ATS.handshake, .tls, .error, title: "The server completed no TLS handshake (TLSv1.0–TLSv1.3).",
            help: """
                Every TLS version was refused, so no Apple client can connect whatever the Info.plist says. \
                Check that the port speaks TLS and that the server has a certificate and at least one cipher \
                suite enabled for TLS 1.2 or 1.3.
                """),
        RuleDescriptor(
            RuleID.ATS.noATSSuite, .tls, .error,
            title: "No cipher suite the server accepts is in the list the client offers.",
            help: """
                After the TLS version is chosen the suites must intersect the client's list: on TLS 1.2 the ATS \
                group (ECDHE with AES-GCM, AES-CBC or ChaCha20, by OS era), and there is no fallback to a lower \
                version after a suite mismatch. Finite-field DHE, 3DES and RC4 are in no ATS list. Enable an \
                ECDHE-ECDSA or ECDHE-RSA AES-GCM suite on the server. When the server's suite is in the system's \
                default list, `NSExceptionAllowsInsecureHTTPLoads` lifts the ATS suite list for the host.
                """),
        RuleDescriptor(
            RuleID.ATS.certificateType, .tls, .error,
            title: "The common cipher suites need a different certificate key type.",
            help: """
                ECDHE-ECDSA suites need an EC certificate and ECDHE-RSA suites an RSA one. The server accepts ATS \
                suites, but only ones its certificate cannot be used with, so the handshake fails. Enable the \
                suites that match the certificate's key (or serve a certificate of the other type); TLS 1.3 \
                avoids the question.
                """),
        RuleDescriptor(
            RuleID.ATS.forwardSecrecy, .tls, .error,
            title: "The server accepts only RSA key-exchange suites: no forward secrecy.",
            help: """
                ATS requires forward secrecy: on TLS 1.2 the client offers only ECDHE suites unless the host's \
                `NSExceptionRequiresForwardSecrecy` is NO, which adds the RSA key-exchange (ATS compatibility) \
                suites. Enable ECDHE suites on the server; setting the key to NO works but also drops the ATS \
                key-size check.
                """,
            appleKey: "NSExceptionRequiresForwardSecrecy"),
        RuleDescriptor(
            RuleID.ATS.niap, .tls, .error,
            title: "The server's TLS 1.2 suites fail the NIAP FCP_v2.1 profile.",
            help: """
                With `NSRequiresNIAPTLSPackageVersion` (or the per-host `NSExceptionRequiresNIAPTLSPackageVersion`) \
                set to `FCP_v2.1` or `recommended` (iOS 26.4+), TLS 1.2 is limited to ECDHE with AES-GCM \
                (0xC02B, 0xC02C, 0xC02F, 0xC030) and Extended Master Secret. Enable those suites or TLS 1.3 on the \
                server, or set the host's key to `none`.
                """,
            appleKey: "NSExceptionRequiresNIAPTLSPackageVersion"),
    ]
}
