extension RuleID {
    /// Ids of the findings of `atscheck pins`: verdicts, outage warnings, the risks of debug relaxations and
    /// pin material problems (docs/pinning-rules.md).
    public enum Pins: RuleNamespace {
        public static let family = RuleFamily.pins
        /// The pinning policy rejects the server (error; the message says which step).
        public static let rejected: RuleID = "pins.rejected"
        /// TrustKit with `enforce` off: no pin matched, the connection is allowed and only reported (warning).
        public static let notEnforced: RuleID = "pins.not-enforced"
        /// The host is not covered by the pin configuration; default trust decides (warning).
        public static let domainNotPinned: RuleID = "pins.domain-not-pinned"
        /// Only one distinct pin: no backup (warning).
        public static let backupMissing: RuleID = "pins.backup.missing"
        /// Every pin matches the current path, so none is a backup for a key or CA change (warning).
        public static let backupOnChain: RuleID = "pins.backup.on-chain"
        /// No pin matches the current path (error).
        public static let noneMatch: RuleID = "pins.backup.none-match"
        /// The only matching pin is a leaf that expires soon (warning).
        public static let leafExpiring: RuleID = "pins.leaf-expiring"
        /// The only match is a root taken from the trust store (note: root choice can differ on device).
        public static let rootOnly: RuleID = "pins.match.root-only"
        /// A pin that is not the Base64 of a 32-byte SHA-256 digest (error).
        public static let pinMalformed: RuleID = "pins.pin.malformed"
        /// A pin that is one character (or byte) repeated: a placeholder that never matches (note; error when every
        /// pin of the domain is one).
        public static let pinPlaceholder: RuleID = "pins.pin.placeholder"
        /// A TrustKit `expirationDate` has passed: pinning is off for the domain (warning).
        public static let trustKitExpired: RuleID = "pins.trustkit.expired"
        /// A key TrustKit cannot hash (RSA other than 2048/3072/4096, P-521, Ed25519…): it fails closed (error).
        public static let trustKitUnsupportedKey: RuleID = "pins.trustkit.unsupported-key"
        /// A configuration TrustKit refuses when it loads it: the app crashes at launch (error; exit 65 where the
        /// configuration is judged).
        public static let trustKitConfigRejected: RuleID = "pins.trustkit.config-rejected"
        /// Alamofire with both default and host validation off: only the byte or key match counts (warning).
        public static let alamofireValidationOff: RuleID = "pins.alamofire.validation-off"
        /// Alamofire's `DisabledTrustEvaluator`: every certificate is accepted (error).
        public static let alamofireDisabled: RuleID = "pins.alamofire.disabled"
        /// A revocation check the library asks for and atscheck cannot make (note).
        public static let revocationUnchecked: RuleID = "pins.revocation.unchecked"
        /// The relaxed build accepts certificates for any host (error).
        public static let debugAnyHost: RuleID = "pins.debug.any-host"
        /// The relaxed build accepts any certificate at all (error).
        public static let debugNoValidation: RuleID = "pins.debug.no-validation"
        /// The relaxed build skips Apple's SSL checks (EKU, lifetime caps, key sizes, SHA-1, CT) (warning).
        public static let debugHygieneSkipped: RuleID = "pins.debug.hygiene-skipped"
        /// The relaxed build accepts a server the release build rejects (warning).
        public static let debugReleaseDiffers: RuleID = "pins.debug.release-differs"
        /// `allowInvalidCertificates` = YES in a build (warning; a MASVS-NETWORK finding).
        public static let debugAllowInvalid: RuleID = "pins.debug.allow-invalid"
        /// PEM text in a `.cer`/`.der`/`.crt` file (error; emitted by the pin loader).
        public static let pemInCer: RuleID = "pins.material.pem-in-cer"
        /// AFNetworking 2.x/3.x loads default pins from its framework bundle: nothing is pinned (error; loader).
        public static let frameworkBundle: RuleID = "pins.material.framework-bundle"
    }
}

extension RuleRegistry {
    /// What `atscheck pins` and the pin judging report (`pins.*`): verdicts, outage warnings, library options,
    /// debug/release differences, pin material.
    public static let pins = RuleRegistry(
        "pins", entries: pinVerdictRules + pinOutageRules + pinLibraryRules + pinDebugRules + pinMaterialRules)

    private static let pinVerdictRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Pins.rejected, .pins, .error, title: "The pinning policy rejects the server.",
            help: """
                The library, with the options given, cancels the connection: the message names the step that \
                failed (system trust, the evaluation anchored on the pinned certificates, or no pin in the path). \
                The steps of the report show what ran under which policy. Fix the server's chain, or the pins, \
                before the app ships; `atscheck pins extract` writes pins for the live path.
                """),
        RuleDescriptor(
            RuleID.Pins.notEnforced, .pins, .warning,
            title: "No pin matched, but TrustKit's enforcement is off, so the connection is allowed.",
            help: """
                With `TSKEnforcePinning` = NO TrustKit validates the chain and reports a pin failure, but lets the \
                connection through (docs/pinning-rules.md §3.4); chain and hostname errors still block. The pins would \
                break the app as soon as enforcement is turned on. Update the pins to match the live path.
                """),
        RuleDescriptor(
            RuleID.Pins.domainNotPinned, .pins, .warning, title: "The host is not covered by the pin configuration.",
            help: """
                No entry of the configuration applies to the host (TrustKit: no exact entry, no including parent, \
                an expired or excluded entry; NSPinnedDomains: no exact entry and no including immediate parent), \
                so the system's default trust evaluation decides and nothing is pinned. Add an entry for the host \
                or check the spelling and the subdomain rules.
                """),
    ]

    private static let pinOutageRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Pins.backupMissing, .pins, .warning, title: "Only one pin: there is no backup pin.",
            help: """
                With a single pin, a key rotation, a renewed certificate or a change of CA breaks every connection \
                until an app update ships. TrustKit refuses an enforcing configuration with fewer than two pins; \
                NSPinnedDomains, AFNetworking and Alamofire do not check. Add a backup pin: a spare key, or a \
                second CA (RFC 7469 §4.3).
                """),
        RuleDescriptor(
            RuleID.Pins.backupOnChain, .pins, .warning,
            title: "Every pin matches the current path, so none of them is a backup.",
            help: """
                A backup pin keeps the app working when the current key or CA goes away; a pin that matches the \
                current path goes away with it. RFC 7469 asks for at least one pin that matches none of the \
                current certificates. Add the pin of a spare key or of a second CA.
                """),
        RuleDescriptor(
            RuleID.Pins.noneMatch, .pins, .error, title: "No pin matches the current path.",
            help: """
                None of the configured pins matches a certificate of the path the device would build, so a \
                pinning app cannot connect. The usual causes are a renewed leaf, a rotated intermediate, a \
                different CA on staging and production, or pins hashed over the wrong bytes (docs/pinning-rules.md \
                §7.3). Update the pins from the live path with `atscheck pins extract`.
                """),
        RuleDescriptor(
            RuleID.Pins.leafExpiring, .pins, .warning, title: "The only matching pin is a leaf that expires soon.",
            help: """
                Leaves are renewed often (398 days at most for public CAs, 90 days for many ACME CAs), and a \
                certificate pin breaks on every renewal; a key pin survives only if the key is reused. When the \
                leaf expires within the warning window (`--warn-days`, 30 by default) pin a CA key as well.
                """),
        RuleDescriptor(
            RuleID.Pins.rootOnly, .pins, .note,
            title: "The only matching pin is the root, which the server did not send.",
            help: """
                The path reaches the pinned root through the trust store. Cross-signing lets iOS, other iOS \
                versions and OpenSSL build paths to different roots, and atscheck's root store is not Apple's, so \
                a root pin that matches here may not match on a device. Pin the issuing CA as well.
                """),
        RuleDescriptor(
            RuleID.Pins.pinMalformed, .pins, .error,
            title: "A pin is not the Base64 of a 32-byte SHA-256 digest.",
            help: """
                SPKI pins are the standard Base64 of the SHA-256 of the DER SubjectPublicKeyInfo: 44 characters \
                ending in `=`. Hex digests, base64url, whitespace or the Base64 of a hex string never match; \
                TrustKit refuses such a configuration and NSPinnedDomains silently drops the entry. Recompute the \
                pin (docs/pinning-rules.md §7.1).
                """),
        RuleDescriptor(
            RuleID.Pins.pinPlaceholder, .pins, .note,
            title: "A pin that is a placeholder (AAAA…=): it never matches a key.",
            help: """
                A SHA-256 digest is never one byte repeated, so a pin such as `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=` \
                matches no certificate. Such pins are written to pass TrustKit's rule that a domain has two pins, \
                which leaves the app with no real backup. A note while another pin of the domain is real; an error \
                when every pin of the domain is a placeholder (nothing can connect). Pin a real backup key.
                """),
    ]

    private static let pinLibraryRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Pins.trustKitExpired, .pins, .warning,
            title: "A TrustKit expirationDate has passed: pinning is off.",
            help: """
                From `TSKExpirationDate` (UTC midnight) TrustKit treats the domain as not pinned: the connection \
                gets the system's default handling and no report is sent (TrustKit #73, #275). It does not fail, \
                so the pins silently stop protecting. Ship new pins and a later date before it passes.
                """),
        RuleDescriptor(
            RuleID.Pins.trustKitUnsupportedKey, .pins, .error, title: "The path holds a key TrustKit cannot hash.",
            help: """
                TrustKit hashes RSA 2048 and 4096 (3072 from 3.0.5) and EC P-256 and P-384 keys only. Walking \
                from the root toward the leaf, a certificate with any other key (RSA 1024 or 8192, P-521, \
                Ed25519) before a match ends the evaluation with ErrorCouldNotGenerateSpkiHash, which blocks even \
                with enforcement off (docs/pinning-rules.md §3.5). Use a supported key on the server or pin above it.
                """),
        RuleDescriptor(
            RuleID.Pins.trustKitConfigRejected, .pins, .error, title: "TrustKit would refuse this configuration.",
            help: """
                TrustKit checks its configuration when it loads it and raises an exception nothing catches; an \
                Info.plist `TSKConfiguration` is loaded before `main`, so the app crashes at launch. It refuses: \
                no `TSKPinnedDomains`; a domain its bundled public suffix list (a 2018-07-10 snapshot) gives no \
                registry (`localhost`, `.test`, `.internal`, an IP address, a TLD delegated since); \
                `TSKIncludeSubdomains` on a public suffix (`com`, `co.uk`, `appspot.com`); an excluded subdomain \
                with other keys or without an including parent; a pin that does not decode to 32 bytes; fewer than \
                two distinct pins while enforcing (one when not); a `TSKReportUris` entry that is not a URL; \
                `TSKSwizzleNetworkDelegates` outside the shared instance; and values of a type it cannot read. \
                `pins check`, `audit` and `app` exit 65 on such a configuration (docs/pins.md). Fix the entry.
                """),
        RuleDescriptor(
            RuleID.Pins.alamofireValidationOff, .pins, .warning,
            title: "Alamofire pin check with default and host validation off.",
            help: """
                With `performDefaultValidation` and `validateHost` both false only the byte or key match counts: \
                expiry, hostname and the chain are not checked, and a pinned CA may match a path built for a \
                failed evaluation (docs/pinning-rules.md §4 warning). Treat the configuration as unpinned; keep the \
                validations on and use `acceptSelfSignedCertificates` for a staging CA.
                """),
        RuleDescriptor(
            RuleID.Pins.alamofireDisabled, .pins, .error,
            title: "Alamofire's DisabledTrustEvaluator accepts every certificate.",
            help: """
                `DisabledTrustEvaluator` (`DisabledEvaluator` before 5.2) performs no evaluation, so any \
                interception proxy can read the traffic. Alamofire says never to use it in production. Use \
                `PinnedCertificatesTrustEvaluator` with `acceptSelfSignedCertificates` for a staging server.
                """),
        RuleDescriptor(
            RuleID.Pins.revocationUnchecked, .pins, .note, title: "The revocation check was not made.",
            help: """
                `RevocationTrustEvaluator` asks the device for an OCSP or CRL check. atscheck does not fetch \
                revocation information, so its verdict covers the other steps only. Without \
                `.requirePositiveResponse` the device's check is best effort as well.
                """),
    ]

    private static let pinDebugRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Pins.debugAnyHost, .pins, .error, title: "The relaxed build accepts certificates for any host.",
            help: """
                With `validatesDomainName` = NO AFNetworking evaluates under BasicX509: any certificate that chains \
                to a pinned certificate is accepted for any host. With a public CA pinned, anyone who can get a \
                certificate from that CA can intercept the app; with leaf pins, a key stolen from staging works \
                against production (docs/pinning-rules.md §2). Keep `validatesDomainName` = YES and issue the staging \
                certificate with the staging host in its SAN.
                """),
        RuleDescriptor(
            RuleID.Pins.debugNoValidation, .pins, .error, title: "The relaxed build accepts any certificate.",
            help: """
                AFNetworking mode None with `allowInvalidCertificates` = YES and `validatesDomainName` = NO checks \
                nothing, and PublicKey mode with `allowInvalidCertificates` = YES ignores expiry, hostname and \
                chain (§1.3 rows 6 and 24): a proxy on the network can read this traffic. Pin certificates and \
                keep the hostname check (§1.3 row 13).
                """),
        RuleDescriptor(
            RuleID.Pins.debugHygieneSkipped, .pins, .warning,
            title: "The relaxed build skips Apple's SSL certificate checks.",
            help: """
                Under BasicX509 the serverAuth EKU, the 825/398-day lifetime caps, the key-size minimums, the SHA-1 \
                ban and Certificate Transparency are not checked, so a staging certificate that passes here fails \
                in release. Issue staging certificates with a SAN, serverAuth and a lifetime of 825 days or less.
                """),
        RuleDescriptor(
            RuleID.Pins.debugReleaseDiffers, .pins, .warning,
            title: "The relaxed build accepts a server that the release build rejects.",
            help: """
                Tests run with the debug configuration prove nothing about release: the release build, with \
                `allowInvalidCertificates` = NO and `validatesDomainName` = YES, rejects this server. If a \
                distribution configuration (a Staging configuration cloned from Debug, an ad-hoc or TestFlight \
                build) defines DEBUG, the relaxation ships.
                """),
        RuleDescriptor(
            RuleID.Pins.debugAllowInvalid, .pins, .warning, title: "allowInvalidCertificates is YES.",
            help: """
                `allowInvalidCertificates` = YES skips the system trust evaluation (AFNetworking 4 does not run it, \
                2.x/3.x ignore its result); it is a standard static-analysis and MASVS-NETWORK finding. Make sure \
                no distribution build sets it, and prefer Certificate mode with `validatesDomainName` = YES for a \
                self-signed staging server.
                """),
    ]

    private static let pinMaterialRules: [RuleDescriptor] = [
        RuleDescriptor(
            RuleID.Pins.pemInCer, .pins, .error, title: "A pinned certificate file holds PEM text, not DER.",
            help: """
                AFNetworking and Alamofire read `.cer` files as DER. In AFNetworking's Certificate mode a PEM blob \
                crashes the app at evaluation time (NSInvalidArgumentException, issues #3768, #3630); PublicKey \
                mode and Alamofire drop it silently, and an empty set rejects everything. Convert it with \
                `openssl x509 -in cert.pem -outform DER -out cert.cer`.
                """),
        RuleDescriptor(
            RuleID.Pins.frameworkBundle, .pins, .error,
            title: "AFNetworking 2.x/3.x looks for pinned certificates in its own framework bundle.",
            help: """
                Before 4.0 `policyWithPinningMode:` loads `.cer` files from the bundle of the AFSecurityPolicy \
                class; linked as a dynamic framework (Carthage, `use_frameworks!`) that is AFNetworking.framework, \
                so nothing is pinned and every connection is rejected. Pass the certificates explicitly with \
                `policyWithPinningMode:withPinnedCertificates:` and `certificatesInBundle:[NSBundle mainBundle]`.
                """),
    ]
}
