import TLSModel

/// The places where Apple's sources disagree (reference CONFLICT rows). The engine evaluates the
/// primary reading, then each conflict it consulted with the other reading, and reports `ambiguous`
/// when the verdicts differ.
public enum ATSConflict: String, Sendable, CaseIterable, Comparable {
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

    public static func < (lhs: ATSConflict, rhs: ATSConflict) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// What the conflict is about, for notes.
    var summary: String {
        switch self {
        case .subdomainDepth: return "NSIncludesSubdomains depth (docs: one level; Security source: any depth)"
        case .suiteList: return "ATS suite list (docs: AES only, CBC-SHA256 listed; Security source of this OS: ChaCha20, no CBC-SHA256 from 15.4)"
        case .tls13On12x: return "TLS 1.3 default on iOS 12.2–12.4 (Apple: on; 2019 test: off until 13)"
        case .uiWebView: return "NSAllowsArbitraryLoadsInWebContent and UIWebView (old docs: exempt; source and tests: not)"
        case .systemDefaultSuites: return "system default suite list when ATS is off for the host (not public; DHE uncertain)"
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

    /// The reading the engine reports first: current Security sources where they exist (the documented
    /// suite list before iOS 13, whose sources are not public), Apple's word on TLS 1.3 in 12.2.
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
        case .systemDefaultSuites: return systemSuitesIncludeDHE ? "system-suites-with-dhe" : "system-suites-without-dhe"
        }
    }
}
