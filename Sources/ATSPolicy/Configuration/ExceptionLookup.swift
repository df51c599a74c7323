import TLSModel

/// How far `NSIncludesSubdomains` reaches: a documented CONFLICT (docs/apple-rules.md §4.4).
package enum SubdomainDepth: String, Sendable, CaseIterable {
    /// DOC: only subdomains one label deeper (`a.example.com`, not `b.a.example.com`).
    case oneLevel = "doc-one-level"
    /// SRC: any depth; the nearest ancestor with `NSIncludesSubdomains = YES` wins.
    case anyDepth = "source-any-depth"
}

/// The exception entry that governs a host.
package struct ExceptionMatch: Sendable, Equatable {
    /// The `NSExceptionDomains` key that matched (a name, an IP literal or a CIDR range).
    package var key: String
    package var entry: ExceptionDomain
    /// A built-in Apple entry (§4.3) rather than the app's.
    package var builtIn: Bool
    /// Labels between the host and the matched key (0 for an exact match).
    package var depth: Int
}

extension ATSConfiguration {
    /// Finds the `NSExceptionDomains` entry for `host` (§4.4, §4.5): exact keys (case- and trailing-dot
    /// sensitive) beat ancestors; ancestors count only with `NSIncludesSubdomains = YES`, as deep as
    /// `depth` allows; IP literals match IP keys exactly, then the longest CIDR prefix, and only from
    /// iOS 17 on; the built-in Apple entries apply where the app has no entry of its own.
    /// - Parameters:
    ///   - host: the URL's host, as the app writes it.
    ///   - os: the OS whose rules apply.
    ///   - depth: the subdomain-depth reading.
    /// - Returns: the governing entry, or nil.
    package func exception(for host: String, os: AppleOSVersion, depth: SubdomainDepth) -> ExceptionMatch? {
        // One host: an index of the IP keys is built only for an IP literal, as the walk it replaces was.
        ExceptionResolver(domains: exceptionDomains, index: nil, overlay: nil).match(
            host, os: os, depth: depth, reading: EntryReading(), address: IPAddress(literal: host))
    }
}
