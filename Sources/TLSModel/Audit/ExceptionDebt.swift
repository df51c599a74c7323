import Foundation

/// One piece of exception debt: an exception that is missing, unneeded, broader than needed, unused,
/// an `http://` endpoint, or a failure no exception can fix.
public struct ExceptionDebt: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, Equatable {
        case missing, unneeded, broader
        case noEndpoint = "no-endpoint"
        case http
        /// The endpoint fails and no exception can help.
        case impossible
    }

    public var kind: Kind
    /// The finding's rule id.
    public var rule: RuleID
    /// The `NSExceptionDomains` key concerned (the endpoint's host when no entry exists yet).
    public var domain: String
    /// Dotted key path of the entry or key concerned, e.g. `NSAppTransportSecurity.NSExceptionDomains.a.example.com`.
    public var keyPath: String?
    /// The endpoints concerned (`host:port`, `http://host:port` for cleartext ones).
    public var endpoints: [String]
    /// The entry as the app has it (keys Apple reads, with their effective values), nil when there is none.
    public var current: PlistValue?
    /// The least-permissive entry that makes every endpoint it covers pass; nil when the entry should go.
    public var suggested: PlistValue?
    /// ``suggested`` as a ready-to-paste plist fragment.
    public var plist: String?
    public var message: String

    public init(
        kind: Kind, rule: RuleID, domain: String, keyPath: String? = nil, endpoints: [String],
        current: PlistValue? = nil,
        suggested: PlistValue? = nil, plist: String? = nil, message: String
    ) {
        self.kind = kind
        self.rule = rule
        self.domain = domain
        self.keyPath = keyPath
        self.endpoints = endpoints
        self.current = current
        self.suggested = suggested
        self.plist = plist
        self.message = message
    }
}
