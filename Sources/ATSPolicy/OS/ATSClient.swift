import TLSModel

/// Who makes the connection, as the rules see it: the OS release and the class of client code (docs/apple-rules.md §0
/// inputs `V` and `C`). One value that travels from the options to the rules, instead of an `os:` and a
/// `client:` parameter on every function in between.
public struct ATSClient: Sendable, Hashable, CustomStringConvertible {
    /// The release whose rules apply.
    public var os: AppleOSVersion
    /// The class of code connecting (URLSession, WKWebView, …).
    public var kind: ClientKind

    /// - Parameters:
    ///   - os: the release (default: ``AppleOSVersion/newest``).
    ///   - kind: the client (default: URLSession).
    public init(os: AppleOSVersion = .newest, kind: ClientKind = .urlSession) {
        self.os = os
        self.kind = kind
    }

    /// URLSession on the newest release: the default of every command.
    public static let newest = ATSClient()

    /// The same client on another release.
    public func on(_ os: AppleOSVersion) -> ATSClient { ATSClient(os: os, kind: kind) }

    /// "URLSession on iOS 26.4".
    public var description: String { "\(kind.rawValue) on iOS \(os)" }
}
