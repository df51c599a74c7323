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

        /// The id for an endpoint's scan status; nil for a completed scan.
        /// - Parameter status: How the scan ended.
        /// - Returns: The matching id, or nil for ``ScanStatus/completed``.
        public static func id(for status: ScanStatus) -> RuleID? {
            switch status {
            case .completed: return nil
            case .unreachable: return unreachable
            case .timeout: return timeout
            case .error: return error
            }
        }
    }
}

extension RuleCatalogue {
    static let trustRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Trust.untrusted, .trust, .error, title: "The certificate chain does not verify to a trusted root.",
            help: """
                Apple trusts a chain that verifies to a root in the OS store or one installed by the user or an \
                MDM profile; anything else fails with NSURLError −1202. No Info.plist key relaxes this: with ATS \
                on for the host the app may not loosen trust. Serve the full chain (leaf and intermediates) from \
                a public CA; for a private CA, install its root on the devices (`--ca-file` tells atscheck about it).
                """),
        RuleDescriptor(
            RuleID.Trust.distrusted, .trust, .error,
            title: "Apple's revocation database does not accept a certificate of the chain.",
            help: """
                Besides removing roots, Apple restricts CAs through its revocation database (valid.apple.com, \
                which every device downloads): certificates a CA issued after a cut-off date (TrustCor: from \
                2022-12-01), CAs allowed only for uses other than TLS, CAs whose certificates are accepted only \
                from an allow-list, and CAs under which only intermediates Apple lists are accepted (the Symantec \
                family). atscheck carries these restrictions from Apple's published database snapshot. Move to a \
                certificate from a CA without the restriction.
                """),
        RuleDescriptor(
            RuleID.Trust.expired, .trust, .error, title: "A certificate of the chain has expired.",
            help: """
                Every certificate of the verified chain must be inside its validity period at the time of the \
                check (the scan time, or `now` when a saved profile is judged again). No Info.plist key relaxes \
                it. Renew the certificate, or replace the expired intermediate the server sends.
                """),
        RuleDescriptor(
            RuleID.Trust.notYetValid, .trust, .error, title: "A certificate of the chain is not valid yet.",
            help: """
                A certificate's notBefore is in the future, so trust evaluation fails until then. This is usually \
                a certificate issued with a wrong clock or installed early. Serve a certificate that is already \
                valid.
                """),
        RuleDescriptor(
            RuleID.Trust.hostname, .trust, .error, title: "The certificate does not name the host.",
            help: """
                From iOS 13 / macOS 10.15 Apple matches the host only against subjectAltName dNSName entries (or \
                iPAddress entries for IP literals); the CommonName is ignored. A wildcard covers exactly one whole \
                leftmost label. No Info.plist key relaxes it. Reissue the certificate with the host in its SAN.
                """),
        RuleDescriptor(
            RuleID.Trust.keySize, .trust, .error,
            title: "A certificate key is too small (RSA < 2048 or EC < 256 bits).",
            help: """
                Apple's trust rules refuse RSA keys below 2048 bits (from iOS 11) and require RSA ≥ 2048 or \
                EC ≥ 256 bits for every certificate of the chain (from iOS 13 / macOS 10.15). On older OSes ATS \
                alone checks the leaf, and `NSExceptionRequiresForwardSecrecy = NO` drops that check. Reissue the \
                certificate (and any weak CA) with a 2048-bit RSA or P-256 key or stronger.
                """,
            appleKey: "NSExceptionRequiresForwardSecrecy"),
        RuleDescriptor(
            RuleID.Trust.keyAlgorithm, .trust, .error,
            title: "A certificate of the path has a key Apple does not accept (DSA or another algorithm).",
            help: """
                trustd treats every key that is not RSA, EC (P-256 or larger), Ed25519 or Ed448 as weak and fails \
                the path on it, anchor included, under every policy (SecCertificateIsWeakKey, applied by the basic \
                X.509 checks). A DSA CA therefore breaks the chain however it is signed. Reissue the certificate \
                with an RSA (2048+) or P-256/P-384 key.
                """),
        RuleDescriptor(
            RuleID.Trust.keyUsage, .trust, .warning,
            title: "The leaf's key usage does not fit a TLS server certificate.",
            help: """
                RFC 5280 allows keyCertSign only on a CA, and a TLS server key must be usable for signatures \
                (digitalSignature) or, for RSA key exchange, key encipherment. Apple's SSL policy does not check \
                the leaf's key usage (SecPolicyCreateSSL asks for none), so iOS accepts such a certificate; other \
                clients and TLS libraries refuse it. A warning, not an ATS failure; reissue the certificate with \
                digitalSignature (and keyEncipherment for RSA) only.
                """),
        RuleDescriptor(
            RuleID.Trust.sha1, .trust, .error, title: "A certificate is signed with SHA-1 or MD5.",
            help: """
                Certificates must be signed with SHA-2 (SHA-256 or stronger). MD2, MD4, MD5 and SHA-1 signatures \
                are refused on every certificate except a self-signed root (system trust from iOS 11 / 13; before \
                that an ATS check that `NSExceptionAllowsInsecureHTTPLoads` lifts). Reissue the certificate, or \
                the intermediate, with a SHA-256 signature.
                """,
            appleKey: "NSExceptionAllowsInsecureHTTPLoads"),
        RuleDescriptor(
            RuleID.Trust.eku, .trust, .error,
            title: "The certificate's extended key usage does not allow TLS server use.",
            help: """
                From iOS 13 / macOS 10.15 the leaf's extended key usage must contain serverAuth \
                (1.3.6.1.5.5.7.3.1), and in chains to a preinstalled root any intermediate that has an EKU must \
                list serverAuth or anyExtendedKeyUsage. Chains to user- or MDM-installed roots only need an EKU, \
                when present, to allow server use. No Info.plist key relaxes it. Reissue the certificate with \
                serverAuth.
                """),
        RuleDescriptor(
            RuleID.Trust.lifetime398, .trust, .error,
            title: "A certificate from a preinstalled root is valid for more than 398 days.",
            help: """
                Leaves issued from 2020-09-01 that chain to a root preinstalled in the OS may be valid for at \
                most 398 days (Apple support 102028; Apple recommends 397). Lifetime counts notBefore through \
                notAfter inclusive. No Info.plist key relaxes it. Reissue the certificate with a shorter validity.
                """),
        RuleDescriptor(
            RuleID.Trust.lifetime825, .trust, .error, title: "A certificate is valid for more than 825 days.",
            help: """
                From iOS 13 / macOS 10.15 a leaf issued after 2019-07-01 may be valid for at most 825 days, and \
                trustd applies 825 days + 1 hour to system-anchored leaves issued from 2018-03-01 (support \
                103769). This catches private-CA certificates with long lifetimes. No Info.plist key relaxes it. \
                Reissue the certificate with a validity of 825 days or less.
                """),
        RuleDescriptor(
            RuleID.Trust.certificateTransparency, .trust, .error,
            title: "The certificate's SCTs do not meet Apple's Certificate Transparency policy.",
            help: """
                Leaves issued from 2018-10-16 that chain to a preinstalled root need SCTs from at least 2 distinct \
                logs that Apple approves now or approved once, and either (a) 2 from currently approved logs with \
                one in the TLS extension or a stapled OCSP response, or (b) one embedded from a currently approved \
                log plus 2 to 5 embedded by lifetime (support 103214). Each SCT's signature is checked against its \
                log's key; pending and rejected logs never count, a frozen (readonly) log stays current for SCTs \
                up to its freeze, a retired one counts only for embedded SCTs from before it retired, a log's temporal interval must hold the leaf's notAfter, and an SCT from the future does not count. \
                Where trustd and Apple's page differ (the count by lifetime, a per-operator cap, an RFC 6962 log) \
                the verdict is ambiguous. Without a log list only embedded SCTs are counted. Chains to user- or \
                MDM-installed roots need none. Ask the CA for embedded SCTs from logs of distinct operators; \
                `NSRequiresCertificateTransparency` is obsolete.
                """),
        RuleDescriptor(
            RuleID.Trust.revoked, .trust, .error, title: "A stapled OCSP response says a certificate is revoked.",
            help: """
                trustd reads the OCSP response the server staples for every certificate of the path that has an \
                issuer, and a response signed by that issuer (or a responder it certified for OCSP signing) that \
                says *revoked* fails the evaluation on every OS release: a fatal result that no trust exception or \
                Info.plist key overrides. trustd keeps a revoked response even past its nextUpdate and asks the \
                certificate's responder for a newer one; atscheck does not ask responders, so such a chain is \
                ambiguous when a responder could answer. Replace the certificate (and stop stapling the old \
                response). An invalid, expired or unrelated staple is ignored by trustd and reported in a note; \
                where a device would also check online (EV leaves, CAs Apple's Valid database leaves to OCSP) a \
                note says so. docs/revocation.md.
                """),
        RuleDescriptor(
            RuleID.Trust.expirySoon, .trust, .warning, title: "A certificate of the chain expires soon.",
            help: """
                A certificate of the verified path (or of the chain as sent, when it does not verify) expires \
                within `--warn-days` days (30 by default). It is still valid, so ATS passes today; once it expires \
                every connection fails with NSURLError −1202 and no Info.plist key helps. Renew it, or the \
                intermediate, before then. `--fail-on warning` makes this finding fail the run.
                """),
        RuleDescriptor(
            RuleID.Trust.distrustAnnounced, .trust, .error,
            title: "The chain ends at a root Apple distrusts for certificates issued after an announced date.",
            help: """
                Apple announces in its support article 121668 ("Changes to certificate authorities and \
                certificates") CAs whose certificates it rejects when issued after an effective date, while the \
                roots stay in its store for what was issued before: Entrust and AffirmTrust (2024-11-15), AC \
                Camerfirma (2024-11-15). A leaf issued after the date under such a root fails to validate on \
                current Apple systems; one issued on or before it keeps working until it expires. No Info.plist \
                key relaxes it. Move to a certificate from another CA. `atscheck roots --format json` shows the \
                date beside each affected root.
                """),
        RuleDescriptor(
            RuleID.Trust.lifetimeSchedule, .trust, .warning,
            title: "The certificate is valid longer than CA/Browser Forum ballot SC-081 allows for its issuance date.",
            help: """
                Ballot SC-081 (proposed by Apple, adopted April 2025) caps publicly trusted TLS certificates at 200 \
                days for those issued from 2026-03-15, 100 days from 2027-03-15 and 47 days from 2029-03-15. It is \
                a rule for CAs when they issue: Apple's trust evaluation still enforces 398 days (the \
                `trust.lifetime.398` rule), so such a certificate works today, but a CA should not have issued it \
                and the next renewal will be shorter. `atscheck cert --at DATE` shows what a renewal on that date \
                may have. Plan renewals (automate them) for the shorter lifetimes.
                """),
        RuleDescriptor(
            RuleID.Trust.dataStale, .trust, .warning,
            title: "Apple's data this run judged with is older than 90 days.",
            help: """
                Apple's devices update their CT log list and trust data over the air; the copy atscheck judges with \
                (bundled, or stored by `atscheck data update`) is older than 90 days at the judging time. A log or \
                root Apple added since is unknown to it: an SCT from such a log makes the endpoint ambiguous rather \
                than failed, and a chain to such a root may be judged untrusted. Run `atscheck data update` (it \
                prints a cache key for CI), or pass a current list with `--ct-log-list`.
                """),
        RuleDescriptor(
            RuleID.Trust.missingIntermediate, .trust, .warning,
            title: "The server does not send an intermediate certificate its chain needs.",
            help: """
                The served chain stops short of a trusted root, and the certificate it stops at names its issuer's \
                address (AIA caIssuers). trustd fetches the issuer from there (http:// only, 3 s, no redirect), so \
                iOS connects, after an extra request on the first connection, and fails wherever that fetch fails \
                (captive portals, blocked egress, the CA's server down). Android, curl, OpenSSL and many SDKs do not \
                fetch and reject the chain. atscheck fetches as trustd does and passes the chain with this warning; \
                with `--no-fetch`, or when the fetch fails, the verdict is ambiguous. Configure the server to send \
                the intermediate(s) after the leaf (the CA's "full chain" file).
                """),
    ]

    static let scanRules: [RuleDescriptor] = [
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
    ]
}
