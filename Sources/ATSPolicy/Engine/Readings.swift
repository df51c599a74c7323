import TLSModel

/// The places where Apple's sources disagree (the CONFLICT rows of docs/apple-rules.md). The engine evaluates the
/// primary reading, then each conflict it consulted with the other reading, and reports `ambiguous`
/// when the verdicts differ.
package enum ATSConflict: String, Sendable, CaseIterable, Comparable {
    /// `NSIncludesSubdomains`: one level (DOC) or any depth (SRC), §4.4.
    case subdomainDepth = "subdomain-depth"
    /// The TLS 1.2/1.3 ATS suite list: the documented list (AES only, CBC-SHA256 included, no 0xC014) or
    /// the Security sources' list of the OS era (ChaCha20; no CBC-SHA256/384 from 15.4), §1.2, §1.4.
    case suiteList = "suite-list"
    /// TLS 1.3 on by default on iOS 12.2–12.4 (Apple Platform Security) or only from 13 (2019 test), §1.4.
    case tls13On12x = "tls13-12x"
    /// `NSAllowsArbitraryLoadsInWebContent` and UIWebView: exempt (2016–19 docs) or not (SRC, tests), §4.2.
    case uiWebView = "uiwebview"
    /// The undocumented system default suite list (ATS off for a host): with or without DHE, §1.3, §6.
    case systemDefaultSuites = "system-default-suites"
    /// Leaf lifetime caps (§2.1, 2026-11-23): DOC counts notBefore through notAfter inclusive and caps
    /// leaves issued after 2019-07-01; trustd compares `notAfter − notBefore` with 398 days or 825 days +
    /// 1 hour, and caps every system-anchored leaf issued before 2020-09-01.
    case lifetimeBoundary = "lifetime-boundary"
    /// serverAuth EKU (§2.1, 2026-11-23): DOC requires it on every leaf issued after 2019-07-01; SRC on
    /// every system-anchored leaf, and for user- or MDM-anchored chains only that an EKU allow server use.
    case ekuScope = "eku-scope"
    /// A public IP literal with `NSAllowsLocalNetworking = YES` on iOS 17+ (§4.5, 2026-11-23): DOC
    /// re-allows every IP target; SRC counts only loopback and link-local addresses as local.
    case localNetworkingIP = "local-networking-ip"
    /// iOS 9-era `NSThirdPartyException…` / `NSTemporaryException…` spellings on iOS 9 (§3.2): honoured
    /// like the `NSException…` key (2016 write-up) or ignored (SRC does not read them).
    case legacyKeys = "legacy-keys"
    /// Per-domain booleans written as numbers before the CIDR-era Security source (§3.4, corrected
    /// 2026-11-23): current SRC reads a number by its truth value; older, closed CFNetwork may ignore it.
    case perDomainNumbers = "per-domain-numbers"
    /// Per-domain booleans written as strings (`<string>NO</string>`) before the CIDR-era Security source
    /// (§3.4): current SRC uses the default; older SRC (Security-61439.1.1) read them with `boolValue`.
    case perDomainStrings = "per-domain-strings"
    /// Embedded SCTs needed by lifetime (§2.2): trustd's tables (from 2021-04-21 its v2 thresholds, ≤ 180 days → 2,
    /// ≤ 825 days → 3, else 4, on `notAfter − notBefore`; before, its v1 table on whole months) or support 103214's
    /// table (by issue date: 2 or 3 from 2021-04-21, counted inclusively; 2–5 by months before).
    case ctSCTCount = "ct-sct-count"
    /// The per-operator cap of support 103214's table (§2.2: from 2021-04-21, at most 1 embedded SCT counted per
    /// log operator up to 180 days, 2 up to 398), which the Security source does not show.
    case ctOperatorCap = "ct-operator-cap"
    /// One version of support 103214 requires at least one SCT from an RFC 6962 log (§2.2): whether SCTs that all
    /// come from tiled (static-ct-api) logs are enough.
    case ctRFC6962Log = "ct-rfc6962-log"

    package static func < (lhs: ATSConflict, rhs: ATSConflict) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// What the conflict is about, for notes.
    var summary: String {
        switch self {
        case .subdomainDepth: return "NSIncludesSubdomains depth (docs: one level; Security source: any depth)"
        case .suiteList:
            return
                "ATS suite list (docs: AES only, CBC-SHA256 listed; Security source of this OS: ChaCha20, no "
                + "CBC-SHA256 from 15.4)"
        case .tls13On12x: return "TLS 1.3 default on iOS 12.2–12.4 (Apple: on; 2019 test: off until 13)"
        case .uiWebView:
            return "NSAllowsArbitraryLoadsInWebContent and UIWebView (old docs: exempt; source and tests: not)"
        case .systemDefaultSuites:
            return "system default suite list when ATS is off for the host (not public; DHE uncertain)"
        case .lifetimeBoundary:
            return
                "certificate lifetime caps (docs: notBefore through notAfter inclusive, leaves issued after "
                + "2019-07-01; trustd: notAfter − notBefore over 398 days, or 825 days + 1 hour for every "
                + "system-anchored leaf issued before 2020-09-01)"
        case .ekuScope:
            return
                "serverAuth EKU (docs: every leaf issued after 2019-07-01; Security source: every system-anchored "
                + "leaf, and for user- or MDM-installed roots only an EKU that allows server use)"
        case .localNetworkingIP:
            return
                "NSAllowsLocalNetworking and a public IP literal on iOS 17+ (docs: allowed; Security source: only "
                + "loopback and link-local addresses are local)"
        case .legacyKeys:
            return
                "iOS 9-era NSThirdPartyException…/NSTemporaryException… keys on iOS 9 (2016 write-up: honoured like "
                + "NSException…; Security source: ignored)"
        case .perDomainNumbers:
            return
                "per-domain booleans written as numbers before iOS 18.4 / macOS 15.4 (current Security source: read "
                + "by truth value; older, closed CFNetwork: possibly ignored)"
        case .perDomainStrings:
            return
                "per-domain booleans written as strings before iOS 18.4 / macOS 15.4 (current Security source: the "
                + "default is used; older Security source: read with boolValue, so \"NO\" is NO)"
        case .ctSCTCount:
            return
                "embedded SCTs needed by certificate lifetime (trustd: ≤ 180 days 2, ≤ 825 days 3, else 4; support "
                + "103214: 2 up to 180 days and 3 up to 398 from 2021-04-21, 2–5 by months before)"
        case .ctOperatorCap:
            return
                "embedded SCTs counted per log operator (support 103214 from 2021-04-21: at most 1 up to 180 days, 2 "
                + "up to 398; not visible in the Security source)"
        case .ctRFC6962Log:
            return
                "an SCT from an RFC 6962 log (one version of support 103214 requires one; otherwise SCTs from tiled "
                + "static-ct-api logs suffice)"
        }
    }
}

/// One choice for every conflict.
struct Readings: Hashable, Sendable {
    var depth: SubdomainDepth = .anyDepth
    var documentedSuites: Bool
    var tls13On12x: Bool = true
    var uiWebViewExempt: Bool = false
    var systemSuitesIncludeDHE: Bool = false
    /// §2.1: DOC's inclusive day count and date scope instead of trustd's checks.
    var documentedLifetime: Bool = false
    /// §2.1: DOC's EKU rule (serverAuth on every leaf issued after 2019-07-01) instead of SRC's by-anchor rule.
    var documentedEKU: Bool = false
    /// §4.5: `NSAllowsLocalNetworking = YES` allows every IP literal on iOS 17+ (DOC) rather than only
    /// loopback and link-local ones (SRC). DOC first: the engine followed it before the conflict was known.
    var localNetworkingAllowsAnyIP: Bool = true
    /// §3.2: iOS 9 honours the legacy exception-key spellings.
    var legacyKeysHonoured: Bool = false
    /// §3.4: a per-domain number is ignored (the default used) instead of read by its truth value.
    var perDomainNumbersIgnored: Bool = false
    /// §3.4: a per-domain string is read with `boolValue` (older source) instead of taking the default.
    var perDomainStringsHonoured: Bool = false
    /// §2.2: support 103214's lifetime table for the embedded SCT count instead of trustd's tables.
    var documentedCTCount: Bool = false
    /// §2.2: support 103214's per-operator cap on embedded SCTs (not in the Security source).
    var ctOperatorCap: Bool = false
    /// §2.2: at least one counted SCT must come from an RFC 6962 (not tiled) log.
    var ctRequiresRFC6962Log: Bool = false

    /// The reading the engine reports first: current Security sources where they exist (the documented
    /// suite list before iOS 13, whose sources are not public), Apple's word on TLS 1.3 in 12.2, and
    /// Apple's documentation on `NSAllowsLocalNetworking` and IP literals.
    static func primary(for os: AppleOSVersion) -> Readings {
        Readings(documentedSuites: os.sourceSuiteEra == .documented)
    }

    func flipped(_ conflict: ATSConflict) -> Readings {
        var r = self
        switch conflict {
        case .subdomainDepth: r.depth = depth == .anyDepth ? .oneLevel : .anyDepth
        case .suiteList: r.documentedSuites.toggle()
        case .tls13On12x: r.tls13On12x.toggle()
        case .uiWebView: r.uiWebViewExempt.toggle()
        case .systemDefaultSuites: r.systemSuitesIncludeDHE.toggle()
        case .lifetimeBoundary: r.documentedLifetime.toggle()
        case .ekuScope: r.documentedEKU.toggle()
        case .localNetworkingIP: r.localNetworkingAllowsAnyIP.toggle()
        case .legacyKeys: r.legacyKeysHonoured.toggle()
        case .perDomainNumbers: r.perDomainNumbersIgnored.toggle()
        case .perDomainStrings: r.perDomainStringsHonoured.toggle()
        case .ctSCTCount: r.documentedCTCount.toggle()
        case .ctOperatorCap: r.ctOperatorCap.toggle()
        case .ctRFC6962Log: r.ctRequiresRFC6962Log.toggle()
        }
        return r
    }

    /// The name of this reading of `conflict`.
    func name(of conflict: ATSConflict) -> String {
        switch conflict {
        case .subdomainDepth: return depth.rawValue
        case .suiteList: return documentedSuites ? "doc-suite-list" : "source-suite-list"
        case .tls13On12x: return tls13On12x ? "tls13-on-from-12.2" : "tls13-from-13"
        case .uiWebView: return uiWebViewExempt ? "doc-uiwebview-exempt" : "source-uiwebview-not-exempt"
        case .systemDefaultSuites:
            return systemSuitesIncludeDHE ? "system-suites-with-dhe" : "system-suites-without-dhe"
        case .lifetimeBoundary: return documentedLifetime ? "doc-lifetime-inclusive" : "source-lifetime-trustd"
        case .ekuScope: return documentedEKU ? "doc-eku-after-2019-07-01" : "source-eku-by-anchor"
        case .localNetworkingIP:
            return localNetworkingAllowsAnyIP
                ? "doc-local-networking-any-ip" : "source-local-networking-loopback-link-local"
        case .legacyKeys: return legacyKeysHonoured ? "ios9-legacy-keys-honoured" : "source-legacy-keys-ignored"
        case .perDomainNumbers: return perDomainNumbersIgnored ? "old-number-ignored" : "source-number-truth-value"
        case .perDomainStrings: return perDomainStringsHonoured ? "old-string-bool-value" : "source-string-default"
        case .ctSCTCount: return documentedCTCount ? "doc-ct-lifetime-table" : "source-ct-v2-thresholds"
        case .ctOperatorCap: return ctOperatorCap ? "doc-ct-operator-cap" : "source-ct-no-operator-cap"
        case .ctRFC6962Log: return ctRequiresRFC6962Log ? "doc-ct-rfc6962-log-required" : "ct-tiled-logs-suffice"
        }
    }
}
