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

    /// The value of `--client` that selects this client: `urlSession`, `wkWebView`, `media`, `uiWebView`.
    public var optionValue: String {
        switch self {
        case .urlSession: return "urlSession"
        case .wkWebView: return "wkWebView"
        case .media: return "media"
        case .uiWebView: return "uiWebView"
        }
    }

    /// The client whose ``optionValue`` is `text`; nil for any other text.
    public init?(optionValue text: String) {
        guard let match = Self.allCases.first(where: { $0.optionValue == text }) else { return nil }
        self = match
    }
}
