extension RuleID {
    /// Ids of Apple's certificate trust rules (`trust.*`): they apply to every TLS connection, with ATS on
    /// or off.
    public enum Trust: RuleNamespace {
        public static let family = RuleFamily.trust
        /// The chain does not verify to a trusted root.
        public static let untrusted: RuleID = "trust.untrusted"
        /// Apple's revocation database restricts a certificate of the chain (a date cut-off, a use restriction,
        /// an allow-list, known intermediates only).
        public static let distrusted: RuleID = "trust.distrusted"
        /// A certificate of the chain has expired.
        public static let expired: RuleID = "trust.expired"
        /// A certificate of the chain is not valid yet.
        public static let notYetValid: RuleID = "trust.not-yet-valid"
        /// The host is not in the certificate's subjectAltName.
        public static let hostname: RuleID = "trust.hostname"
        /// An RSA key below 2048 bits or an EC key below 256 bits.
        public static let keySize: RuleID = "trust.key-size"
        /// A certificate's key is of an algorithm Apple does not accept (DSA, or anything but RSA, EC and EdDSA).
        public static let keyAlgorithm: RuleID = "trust.key-algorithm"
        /// The leaf's key usage does not fit a TLS server certificate (a warning: Apple's SSL policy does not check
        /// it).
        public static let keyUsage: RuleID = "trust.key-usage"
        /// A certificate signed with SHA-1 or MD5.
        public static let sha1: RuleID = "trust.sha1"
        /// The extended key usage does not allow TLS server use.
        public static let eku: RuleID = "trust.eku"
        /// A leaf under a preinstalled root valid for more than 398 days.
        public static let lifetime398: RuleID = "trust.lifetime.398"
        /// A leaf valid for more than 825 days.
        public static let lifetime825: RuleID = "trust.lifetime.825"
        /// Too few Certificate Transparency SCTs.
        public static let certificateTransparency: RuleID = "trust.ct"
        /// A stapled OCSP response, verified as trustd verifies it, says a certificate of the path is revoked.
        public static let revoked: RuleID = "trust.revoked"
        /// A certificate of the path expires within `--warn-days` days (a warning, not an ATS failure).
        public static let expirySoon: RuleID = "trust.expiry.soon"
        /// The chain ends at a root Apple announced it distrusts for certificates issued after a date (support
        /// 121668), and the leaf was issued after it.
        public static let distrustAnnounced: RuleID = "trust.distrust.announced"
        /// The leaf is valid longer than CA/Browser Forum ballot SC-081 allows for its issuance date (a warning: CAs
        /// must not issue it; Apple's devices enforce only 398 days).
        public static let lifetimeSchedule: RuleID = "trust.lifetime.sc081"
        /// Apple's data the run judged with (CT log list, trust stores) is older than 90 days at the judging time.
        public static let dataStale: RuleID = "trust.data.stale"
        /// The server does not send an intermediate the path needs; iOS fetched it from the certificate's AIA
        /// caIssuers URL (a warning: other clients fail).
        public static let missingIntermediate: RuleID = "trust.missing-intermediate"
    }

    /// Ids of endpoints that could not be scanned (`scan.*`, one per ``ScanStatus`` other than completed).
    public enum Scan: RuleNamespace {
        public static let family = RuleFamily.scan
        /// No TCP connection could be made.
        public static let unreachable: RuleID = "scan.unreachable"
        /// The peer never answered in time.
        public static let timeout: RuleID = "scan.timeout"
        /// The peer answered, but not with TLS atscheck could complete.
        public static let error: RuleID = "scan.error"
        /// The run was interrupted before the endpoint's scan finished.
        public static let cancelled: RuleID = "scan.cancelled"

        /// The id for an endpoint's scan status; nil for a completed scan.
        /// - Parameter status: How the scan ended.
        /// - Returns: The matching id, or nil for ``ScanStatus/completed``.
        public static func id(for status: ScanStatus) -> RuleID? {
            switch status {
            case .completed: return nil
            case .unreachable: return unreachable
            case .timeout: return timeout
            case .error: return error
            case .cancelled: return cancelled
            }
        }
    }
}

extension RuleRegistry {

    /// The states of an endpoint that could not be scanned (`scan.*`).

    public static let scan = RuleRegistry(

        "scan",

        entries: [
            RuleDescriptor(
                RuleID.Scan.unreachable, .scan, .warning,
                title: "The endpoint could not be reached (connection refused, no route, or the name did not resolve).",
                help: """
                    No TCP connection could be made, so nothing was judged and the run exits 2. Check the host name, \
                    the port and that this machine's network can reach the server (`--resolve host:port:address` \
                    connects to a given address).
                    """),
            RuleDescriptor(
                RuleID.Scan.timeout, .scan, .warning, title: "The endpoint did not answer before the deadline.",
                help: """
                    Connections were made but the peer never answered in time; timeouts are reported as unknown, \
                    never as "not supported". Scan again with a longer `--timeout`, or check for a firewall that \
                    drops the traffic.
                    """),
            RuleDescriptor(
                RuleID.Scan.error, .scan, .warning,
                title: "The endpoint answered, but not with TLS atscheck could complete.",
                help: """
                    The peer closed the connection at once, sent plain HTTP or something that is not TLS. Check that \
                    the port is the HTTPS port and that no proxy in between terminates the connection.
                    """),
            RuleDescriptor(
                RuleID.Scan.cancelled, .scan, .warning,
                title: "The run was interrupted before the endpoint's scan finished.",
                help: """
                    Ctrl-C (SIGINT) or SIGTERM stopped the run: no endpoint starts after the signal, and one still \
                    being scanned two seconds later is abandoned. Nothing was learnt about the server (never read as \
                    "not supported"); the report is marked partial and the run exits 130 (143 on SIGTERM). Scan again \
                    to judge it.
                    """),
        ])
}
