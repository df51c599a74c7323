/// The `NSAppTransportSecurity` → `NSPinnedDomains` dictionary (iOS 14+, docs/pinning-rules.md §5, docs/apple-rules.md
/// §3.3), decoded for evaluation: per domain, the identity arrays that are present.
public struct PinnedDomainsConfiguration: Codable, Sendable, Equatable {
    /// Domain key as written → its entry.
    public var domains: [String: PinnedDomainEntry]

    /// A configuration.
    /// - Parameter domains: Domain key → entry.
    public init(domains: [String: PinnedDomainEntry]) {
        self.domains = domains
    }
}

/// One `NSPinnedDomains` entry.
public struct PinnedDomainEntry: Codable, Sendable, Equatable {
    /// `NSIncludesSubdomains`: covers hosts exactly one label deeper (Apple's source checks only the
    /// immediate parent).
    public var includesSubdomains: Bool
    /// `NSPinnedLeafIdentities` pins (Base64 SPKI-SHA256); nil when the key is absent (no leaf check), empty
    /// when present but empty or every entry was malformed (every connection fails).
    public var leafIdentities: [String]?
    /// `NSPinnedCAIdentities` pins; nil when absent (no CA check), empty when present but unusable.
    public var caIdentities: [String]?

    /// An entry.
    /// - Parameters:
    ///   - includesSubdomains: Cover hosts one label deeper.
    ///   - leafIdentities: Leaf pins, nil when the key is absent.
    ///   - caIdentities: CA pins, nil when the key is absent.
    public init(includesSubdomains: Bool = false, leafIdentities: [String]? = nil, caIdentities: [String]? = nil) {
        self.includesSubdomains = includesSubdomains
        self.leafIdentities = leafIdentities
        self.caIdentities = caIdentities
    }
}
