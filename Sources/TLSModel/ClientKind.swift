/// The class of code making the connection: ATS exemptions differ by client (docs/apple-rules.md §0 input `C`, §4.2).
///
/// The raw value is Apple's name for the client, as the JSON contract spells it (`"URLSession"`,
/// `"AVFoundation media"`); ``optionValue`` is the spelling of the CLI's `--client` option.
public enum ClientKind: String, Sendable, CaseIterable, Codable {
    /// URLSession and the rest of the URL Loading System (the default).
    case urlSession = "URLSession"
    /// WKWebView: exempt with `NSAllowsArbitraryLoadsInWebContent = YES` (iOS 10+).
    case wkWebView = "WKWebView"
    /// AVFoundation media: exempt with `NSAllowsArbitraryLoadsForMedia = YES` (iOS 10+).
    case media = "AVFoundation media"
    /// The deprecated UIWebView: whether `…InWebContent` exempts it is a CONFLICT (§4.2).
    case uiWebView = "UIWebView"
    /// Apple's own system processes (MDM and declarative device management, Automated Device Enrollment,
    /// configuration profile and app installation, software update), which support article 126655 (April 2026)
    /// says may require TLS 1.2+, ATS cipher suites and ATS-compliant certificates from the 27 releases on. The app's
    /// `NSAppTransportSecurity` does not govern them (docs/apple-rules.md §4.6).
    case systemServices = "system services"

    /// The value of `--client` that selects this client: `urlSession`, `wkWebView`, `media`, `uiWebView`,
    /// `system-services`.
    public var optionValue: String {
        switch self {
        case .urlSession: return "urlSession"
        case .wkWebView: return "wkWebView"
        case .media: return "media"
        case .uiWebView: return "uiWebView"
        case .systemServices: return "system-services"
        }
    }

    /// The client whose ``optionValue`` is `text` (or `systemServices`, spelled like the other values); nil for any
    /// other text.
    public init?(optionValue text: String) {
        let spelling = text == "systemServices" ? Self.systemServices.optionValue : text
        guard let match = Self.allCases.first(where: { $0.optionValue == spelling }) else { return nil }
        self = match
    }

    /// Whether the app's `NSAppTransportSecurity` governs this client's connections: false for ``systemServices``,
    /// Apple's processes, which read no app's Info.plist.
    public var readsAppPolicy: Bool { self != .systemServices }

    /// The clients an app's `NSAppTransportSecurity` governs (``readsAppPolicy``), for `plist --explain`.
    public static var appClients: [ClientKind] { allCases.filter(\.readsAppPolicy) }
}
