import Foundation

/// One pin evaluation an audit made: an endpoint checked against the plist's `NSPinnedDomains` or against the
/// pin check of its endpoint-list entry (the audit JSON's `pins`, docs/json-output.md).
public struct AuditPinCheck: Codable, Sendable, Equatable {
    /// What asked for the evaluation.
    public enum Origin: String, Codable, Sendable {
        /// The plist's `NSAppTransportSecurity` → `NSPinnedDomains` covers the endpoint's host.
        case pinnedDomains = "NSPinnedDomains"
        /// The endpoint's entry names a pin set and a library (`pins:`, `library:`).
        case endpointList = "endpoint-list"
    }

    /// What asked for it.
    public var origin: Origin
    /// The endpoint, `host:port`.
    public var endpoint: String
    /// The mechanism evaluated.
    public var library: PinLibrary
    /// The `NSPinnedDomains` keys that apply to the host (exact, or an including immediate parent); empty for
    /// an endpoint-list check.
    public var domains: [String]
    /// The entry's `pins:` path (resolved against the list's folder); nil for `NSPinnedDomains`.
    @ExplicitNull public var pins: String?
    /// The pin material files read for the check (the plist itself for `NSPinnedDomains`).
    public var pinFiles: [String]
    /// Where the check's findings point: the plist line of the pinned-domain key, or the entry's line.
    public var source: SourceLocation
    /// The dotted plist key path of the pinned-domain entry; nil for an endpoint-list check.
    @ExplicitNull public var keyPath: String?
    /// The evaluation, as `atscheck pins check` reports it (docs/pins.md): served chain, verdict, steps,
    /// release next to a relaxed policy, risks.
    public var result: PinCheckResult

    /// A pin check of an audit.
    public init(
        origin: Origin, endpoint: String, library: PinLibrary, domains: [String] = [], pins: String? = nil,
        pinFiles: [String], source: SourceLocation, keyPath: String? = nil, result: PinCheckResult
    ) {
        self.origin = origin
        self.endpoint = endpoint
        self.library = library
        self.domains = domains
        self.pins = pins
        self.pinFiles = pinFiles
        self.source = source
        self.keyPath = keyPath
        self.result = result
    }
}
