import TLSModel

extension RuleRegistry {
    /// `NSAppTransportSecurity` validation by `atscheck plist` (`plist.*`), in documentation order.
    public static let plist = RuleRegistry("plist", entries: PlistRuleEntries.all)
}

/// The entries of the plist lint rules, in documentation order.
enum PlistRuleEntries {
    private typealias P = RuleID.Plist

    static let all: [RuleDescriptor] = [
        RuleDescriptor(
            P.atsAbsent, .plist, .note,
            title: "The Info.plist has no NSAppTransportSecurity dictionary: default ATS applies everywhere.",
            help: """
                Without the dictionary every host gets full ATS: HTTPS only, TLS 1.2 or later, forward-secret \
                suites and Apple's certificate rules. Nothing to fix unless the app needs an exception.
                """,
            appleKey: "NSAppTransportSecurity"),
        RuleDescriptor(
            P.keyMisspelled, .plist, .error,
            title: "A key that is not an ATS key but is close to one; Apple ignores it.",
            help: """
                Apple reads ATS keys by exact, case-sensitive name, so a misspelling (`NSAllowArbitraryLoads`, \
                `NSIncludesSubdomain`) or a key that never existed (`NSAllowsArbitraryLoadsInMedia`) is silently \
                ignored and the default applies. Use the key the message suggests.
                """),
        RuleDescriptor(
            P.keyUnknown, .plist, .warning, title: "A key atscheck does not know; Apple ignores unknown keys.",
            help: """
                The key is not one of Apple's documented ATS keys, and not close enough to one to be a likely \
                typo. ATS ignores it. Remove it, or check Apple's documentation for the key you meant.
                """),
        RuleDescriptor(
            P.keyWrongLevel, .plist, .error,
            title: "An ATS key placed in the wrong dictionary, where Apple does not read it.",
            help: """
                Global keys (`NSAllowsArbitraryLoads`, …) belong directly in `NSAppTransportSecurity`, per-domain \
                keys (`NSIncludesSubdomains`, `NSExceptionMinimumTLSVersion`, …) inside an `NSExceptionDomains` \
                entry, pinning keys inside an `NSPinnedDomains` entry. Elsewhere Apple does not read them. Move \
                the key to the level the message names.
                """),
        RuleDescriptor(
            P.keyCaseDuplicate, .plist, .error,
            title: "Two keys that differ only in letter case; lookups are case-sensitive.",
            help: """
                Apple looks keys up by exact name, so only the correctly cased one counts, and exception domains \
                are matched exactly. Keep one key with the documented spelling (lower-case for domains).
                """),
        RuleDescriptor(
            P.keyDuplicate, .plist, .error,
            title: "A key written twice in one dictionary; only the last value takes effect.",
            help: """
                Property-list readers keep one value per key: Foundation keeps the last one written and drops the \
                other without a word, so the dictionary Apple reads is not the one the first value suggests. \
                atscheck reports it once, at the occurrence that is ignored, naming the line that takes effect and \
                what the ignored value held that is lost. An error inside `NSAppTransportSecurity` (and TrustKit's \
                `TSKConfiguration`) when the values differ, a note when they are written alike; outside them, keys \
                ATS never reads, a note when the values differ and nothing otherwise. Delete all but the value you \
                mean.
                """),
        RuleDescriptor(
            P.keyDeprecated, .plist, .warning,
            title: "An iOS 9-era NSThirdParty…/NSTemporary… key that current OSes probably ignore.",
            help: """
                `NSThirdPartyException…` and `NSTemporaryException…` keys were removed from Apple's documentation \
                in 2016 and Apple's open-source ATS code does not read them. iOS 9 may have honoured them like the \
                `NSException…` keys, so atscheck evaluates iOS 9 both ways and reports a difference as ambiguous; \
                iOS 10 and later probably ignore them. Replace each with its `NSException…` equivalent.
                """),
        RuleDescriptor(
            P.keyObsolete, .plist, .warning,
            title: "NSRequiresCertificateTransparency: obsolete, and Apple advises against setting it.",
            help: """
                Certificate Transparency is always enforced for publicly trusted certificates, and Apple warns \
                that setting this key can make new certificates fail on devices with an out-of-date log list. \
                Remove the key.
                """,
            appleKey: "NSRequiresCertificateTransparency"),
        RuleDescriptor(
            P.valueWrongType, .plist, .error,
            title: "A value of the wrong plist type; Apple ignores it and uses the default.",
            help: """
                ATS reads booleans as `<true/>`/`<false/>`, versions and NIAP values as `<string>`, and domain \
                lists as `<dict>`. A value of another type (a string "YES", a date, an array) is treated as absent \
                and the key's default applies; a global boolean given as a number other than 0 or 1 is an error \
                too. Write the value with the documented type.
                """),
        RuleDescriptor(
            P.valueNumericBoolean, .plist, .warning,
            title: "A boolean written as a number; Apple reads it by its value, but not the same way on every OS.",
            help: """
                In an `NSExceptionDomains` entry, current Apple source reads a number by its truth value \
                (0 = NO, any other number = YES), exactly like `<false/>`/`<true/>`; releases before iOS 18.4 / \
                macOS 15.4 may differ (their code is closed), so atscheck reports verdicts for them as ambiguous \
                when it matters. For a global key, 1 reads as YES and 0 as NO (another number is present without \
                being YES, an error). Use `<true/>` or `<false/>`.
                """),
        RuleDescriptor(
            P.valueInvalidTLSVersion, .plist, .error,
            title: "An NSExceptionMinimumTLSVersion Apple does not recognise; TLS 1.2 stays the minimum.",
            help: """
                Apple accepts exactly `TLSv1.0`, `TLSv1.1`, `TLSv1.2` or `TLSv1.3` (case-sensitive); anything else \
                (`1.0`, `TLSV1.2`, `TLSv1.00`) is ignored and the minimum stays TLS 1.2. Use one of the four values.
                """,
            appleKey: "NSExceptionMinimumTLSVersion"),
        RuleDescriptor(
            P.valueInvalidNIAP, .plist, .error, title: "An NIAP TLS package value Apple does not recognise.",
            help: """
                `NSRequiresNIAPTLSPackageVersion` and `NSExceptionRequiresNIAPTLSPackageVersion` (iOS 26.4+) take \
                `none`, `FCP_v2.1` or `recommended`. Use one of them.
                """,
            appleKey: "NSRequiresNIAPTLSPackageVersion"),
        RuleDescriptor(
            P.domainInvalid, .plist, .error, title: "An exception or pinned domain key that is not a host name.",
            help: """
                `NSExceptionDomains` and `NSPinnedDomains` keys are bare host names (from iOS 17 also IP addresses \
                and CIDR ranges); a key with spaces or other characters a host name cannot have never matches a \
                request. Write the host name alone.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainScheme, .plist, .error,
            title: "A domain key with a URL scheme; keys are bare host names and this one never matches.",
            help: """
                Domain keys are matched against the request's host only, so `https://example.com` matches \
                nothing. Write `example.com`.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainPort, .plist, .error,
            title: "A domain key with a port; ports are not allowed and this one never matches.",
            help: """
                Apple documents that domain keys take no port: `example.com:8443` never matches. Write the host \
                alone; the entry covers every port.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainPath, .plist, .error,
            title: "A domain key with a path; keys are bare host names and this one never matches.",
            help: """
                Exceptions apply to a whole host, not a path, and the key is matched exactly, so \
                `example.com/api` matches nothing. Write the host alone.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainWildcard, .plist, .error, title: "A domain key with a wildcard; use NSIncludesSubdomains instead.",
            help: """
                Wildcards are not allowed in domain keys: `*.example.com` matches nothing. Write `example.com` with \
                `NSIncludesSubdomains = YES`.
                """,
            appleKey: "NSIncludesSubdomains"),
        RuleDescriptor(
            P.domainLeadingDot, .plist, .error,
            title: "A domain key with a leading dot; use NSIncludesSubdomains instead.",
            help: """
                A leading dot does not mean "and subdomains": `.example.com` matches nothing. Write `example.com` \
                with `NSIncludesSubdomains = YES`.
                """,
            appleKey: "NSIncludesSubdomains"),
        RuleDescriptor(
            P.domainUppercase, .plist, .error,
            title: "A domain key with upper-case letters; exception lookups are exact and lower-case.",
            help: """
                `NSExceptionDomains` lookup is an exact match and Apple documents keys in lower case, so \
                `API.Example.com` never matches (`NSPinnedDomains`, by contrast, compares case-insensitively). Write the key in lower case.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainTrailingDot, .plist, .warning,
            title: "A domain key with a trailing dot; it matches only hosts written with the dot.",
            help: """
                The trailing dot is significant: `example.com.` matches only requests to `example.com.`, and \
                `example.com` does not match those. Drop the dot unless the app really requests the dotted name.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainIPAddress, .plist, .note, title: "An IP address domain key; honoured only from iOS 17 / macOS 14.",
            help: """
                IP literals as `NSExceptionDomains` keys work from iOS 17 / macOS 14; earlier releases ignore the \
                entry. A note when the app's lowest OS is iOS 17 or later, a warning below. For older releases use \
                `NSAllowsLocalNetworking` for local addresses, or a host name.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainCIDR, .plist, .note, title: "A CIDR range domain key; honoured only from iOS 17 / macOS 14.",
            help: """
                CIDR ranges (`10.0.0.0/8`) as domain keys work from iOS 17 / macOS 14; earlier releases ignore the \
                entry. A note when the app's lowest OS is iOS 17 or later, a warning below.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainInvalidCIDR, .plist, .error, title: "A CIDR range Apple cannot parse; the entry never matches.",
            help: """
                A key with `/` is parsed as a CIDR range (IPv4 or IPv6, prefix within the address length); an \
                invalid one is logged and never matches. Fix the address or prefix length.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.domainSubdomainsOnIP, .plist, .error,
            title: "NSIncludesSubdomains on an IP or CIDR entry, where it has no effect.",
            help: """
                Subdomains exist only for names; on an IP address or CIDR entry `NSIncludesSubdomains` does \
                nothing. Remove it, or list the range you meant as CIDR.
                """,
            appleKey: "NSIncludesSubdomains"),
        RuleDescriptor(
            P.deadArbitraryLoadsIgnored, .plist, .error,
            title: "NSAllowsArbitraryLoads ignored on iOS 10+ because a web, media or local-networking key is present.",
            help: """
                From iOS 10 / macOS 10.12, when `NSAllowsArbitraryLoadsInWebContent`, \
                `NSAllowsArbitraryLoadsForMedia` or `NSAllowsLocalNetworking` is present (whatever its value), \
                `NSAllowsArbitraryLoads` is ignored. That is Apple's recommended pairing for apps that still \
                support iOS 9 (then a note); otherwise an error: remove the key, or add per-domain exceptions.
                """,
            appleKey: "NSAllowsArbitraryLoads"),
        RuleDescriptor(
            P.deadGlobalKeysShadowed, .plist, .warning,
            title: "Global ATS keys do not reach a host that has its own NSExceptionDomains entry.",
            help: """
                A host with an `NSExceptionDomains` entry is governed only by that entry: `NSAllowsArbitraryLoads` \
                and the other global keys have no effect on it, even when the entry is empty. A warning when the \
                entry relaxes something itself, a note for an empty or tightening entry (the deliberate "inverted" \
                pattern). Put what the host needs into its entry.
                """,
            appleKey: "NSExceptionDomains"),
        RuleDescriptor(
            P.reviewJustification, .plist, .note, title: "A key App Review asks the developer to justify.",
            help: """
                `NSAllowsArbitraryLoads`, `NSAllowsArbitraryLoadsForMedia`, `NSAllowsArbitraryLoadsInWebContent`, \
                `NSExceptionAllowsInsecureHTTPLoads` and `NSExceptionMinimumTLSVersion` below TLS 1.2 need a \
                justification in App Store Connect and may trigger extra review. Prepare the reason, or fix the \
                server so the exception is not needed.
                """),
        RuleDescriptor(
            P.pinningNoIdentities, .plist, .error,
            title: "An NSPinnedDomains entry with neither NSPinnedCAIdentities nor NSPinnedLeafIdentities.",
            help: """
                A pinned domain entry pins nothing without at least one identity array. Add \
                `NSPinnedCAIdentities` or `NSPinnedLeafIdentities` with `SPKI-SHA256-BASE64` pins, or remove the \
                entry.
                """,
            appleKey: "NSPinnedDomains"),
        RuleDescriptor(
            P.pinningEmptyIdentities, .plist, .warning, title: "An empty pinned identity array.",
            help: """
                An empty `NSPinnedCAIdentities` or `NSPinnedLeafIdentities` array adds no pin. Add the pins, or \
                remove the array.
                """,
            appleKey: "NSPinnedDomains"),
        RuleDescriptor(
            P.pinningMissingSPKI, .plist, .error, title: "A pinned identity without an SPKI-SHA256-BASE64 string.",
            help: """
                Each pinned identity is a dictionary with an `SPKI-SHA256-BASE64` string: the Base64 SHA-256 of \
                the certificate's DER SubjectPublicKeyInfo. Add it.
                """,
            appleKey: "SPKI-SHA256-BASE64"),
        RuleDescriptor(
            P.pinningInvalidBase64, .plist, .error,
            title: "An SPKI-SHA256-BASE64 value that is not Base64; Apple skips it.",
            help: """
                Apple skips malformed pins, so the entry may pin less than intended, or nothing. Replace the value \
                with the Base64 SHA-256 of the SubjectPublicKeyInfo.
                """,
            appleKey: "SPKI-SHA256-BASE64"),
        RuleDescriptor(
            P.pinningWrongDigestLength, .plist, .error,
            title: "An SPKI-SHA256-BASE64 value that does not decode to a 32-byte SHA-256 digest.",
            help: """
                The pin decodes, but not to 32 bytes, so it can never equal a SHA-256 digest (often a SHA-1 pin, \
                or the key itself instead of its hash). Use the SHA-256 of the DER SubjectPublicKeyInfo.
                """,
            appleKey: "SPKI-SHA256-BASE64"),
        RuleDescriptor(
            P.pinningNoBackup, .plist, .warning, title: "A pinned domain with a single pin and no backup pin.",
            help: """
                With one pin, a key rotation or a CA change breaks the app until an update ships. Add a backup \
                pin: a key kept offline, or a second CA's key.
                """,
            appleKey: "NSPinnedDomains"),
        RuleDescriptor(
            P.pinningPlaceholder, .plist, .note,
            title: "A pin that is a placeholder (one repeated character, such as AAAA…=); it never matches a key.",
            help: """
                A SHA-256 digest is never one byte repeated, so a pin such as `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=` \
                matches no certificate. Such pins are written to pass a library's rule that a backup pin must exist \
                (TrustKit requires two), which leaves the app with no real backup. A note while another pin of the \
                domain is real; an error when every pin of the domain is a placeholder (no connection can succeed). \
                Pin a real backup key.
                """,
            appleKey: "SPKI-SHA256-BASE64"),
        RuleDescriptor(
            P.domainSubdomainsOnTLD, .plist, .note,
            title: "NSIncludesSubdomains on a bare top-level name: the entry covers every name under it.",
            help: """
                An entry for a single-label name such as `onion` or `test` with `NSIncludesSubdomains` reaches every \
                host under that top-level name. With `NSExceptionAllowsInsecureHTTPLoads` that is plain HTTP to all \
                of them (deliberate for `.onion`, where Tor encrypts the transport). Check the breadth is meant.
                """,
            appleKey: "NSIncludesSubdomains"),
        RuleDescriptor(
            P.valueForwardSecrecyOff, .plist, .note,
            title: "NSExceptionRequiresForwardSecrecy = NO adds RSA key exchange and drops the ATS key-size check.",
            help: """
                Apple's documentation for the key: with `NO`, the host may negotiate TLS 1.2 suites without forward \
                secrecy (RSA key exchange), and ATS no longer checks the server key's size (the system trust rule \
                of RSA 2048 bits still applies). Set it only for a server that cannot do ECDHE.
                """,
            appleKey: "NSExceptionRequiresForwardSecrecy"),
        RuleDescriptor(
            P.osCatalystMinimum, .plist, .note,
            title: "LSMinimumSystemVersion in an iOS app is its Mac Catalyst minimum, not its iOS minimum.",
            help: """
                An iOS app (`LSRequiresIPhoneOS`, `UIDeviceFamily`, …) that also runs on the Mac states its macOS \
                minimum in `LSMinimumSystemVersion`. The iOS releases it supports come from `MinimumOSVersion` or \
                the deployment target (`--deployment-target`, `IPHONEOS_DEPLOYMENT_TARGET`), so atscheck does not \
                take its iOS eras from the macOS key. Give the deployment target to judge the oldest iOS release.
                """,
            appleKey: "LSMinimumSystemVersion"),
        RuleDescriptor(
            P.sourceUnresolvedSetting, .plist, .warning,
            title: "A build setting ($(NAME)) that ATS reads is not given; the hosts it may name cannot be judged.",
            help: """
                Xcode replaces `$(NAME)` and `${NAME}` in an Info.plist with the build setting's value when it \
                builds the app. Where ATS reads the reference (an `NSExceptionDomains` key, a minimum TLS version), \
                its value decides the policy, so atscheck does not guess: a host the entry could name is judged \
                ambiguous. Give the value with `--build-setting NAME=VALUE` or `--xcconfig PATH`.
                """),
        RuleDescriptor(
            P.sourceConfigurationInvalid, .plist, .warning,
            title: "A build configuration of a preprocessed Info.plist is not a valid plist; Xcode cannot build it.",
            help: """
                The preprocessor conditions (`#if`, `#ifdef`, …) give several configurations and this one, as the \
                preprocessor leaves it, does not parse (or the preprocessor itself stops, at an `#error`). If the \
                configuration is never built, say which one is with `--define`; otherwise fix the branch. The other \
                configurations are judged.
                """),
        RuleDescriptor(
            P.sourceConfigurationsLimited, .plist, .note,
            title: "The preprocessor conditions allow more configurations than atscheck judges; give --define.",
            help: """
                Without `--define` or `INFOPLIST_PREPROCESSOR_DEFINITIONS`, atscheck judges every combination of the \
                names an Info.plist's conditions test, up to eight: none defined, then each alone, then pairs. Give \
                the definitions of the configuration you build to judge exactly that one.
                """),
    ]
}
