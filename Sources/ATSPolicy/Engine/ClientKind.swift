/// The class of code making the connection: ATS exemptions differ by client (reference §0 input `C`, §4.2).
public enum ClientKind: String, Sendable, CaseIterable, Codable {
    /// URLSession and the rest of the URL Loading System (the default).
    case urlSession
    /// WKWebView: exempt with `NSAllowsArbitraryLoadsInWebContent = YES` (iOS 10+).
    case wkWebView
    /// AVFoundation media: exempt with `NSAllowsArbitraryLoadsForMedia = YES` (iOS 10+).
    case media
    /// The deprecated UIWebView: whether `…InWebContent` exempts it is a CONFLICT (§4.2).
    case uiWebView
}
