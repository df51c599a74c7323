/// What the harvester leaves out: namespace and schema URLs, Apple's own hosts, documentation-only names and
/// library documentation links (docs/app.md lists them and says why). A value, so a caller can widen or
/// narrow it; ``default`` keeps `.test` names, ``strict`` drops them too.
public struct HarvestFilter: Sendable, Equatable {
    /// Hosts dropped with every subdomain (`apple.com` drops `developer.apple.com`).
    public var excludedDomains: [String]
    /// Top-level labels dropped (`invalid` drops `x.invalid`).
    public var excludedTopLevels: [String]
    /// Host prefixes dropped (`schemas.` drops `schemas.xmlsoap.org`, `schemas.microsoft.com`).
    public var excludedHostPrefixes: [String]
    /// URL prefixes dropped (compared without the scheme, lower-cased: `github.com/facebook/`).
    public var excludedURLPrefixes: [String]

    /// XML namespaces and schemas: never contacted, only named.
    public static let namespaceDomains = [
        "w3.org", "purl.org", "ns.adobe.com", "xml.org", "json-schema.org", "openxmlformats.org",
    ]
    /// Apple's own documentation and system hosts (also the CA and OCSP URLs of every code signature).
    public static let appleDomains = [
        "apple.com", "icloud.com", "mzstatic.com", "apple-cloudkit.com", "cdn-apple.com", "swift.org", "webkit.org",
    ]
    /// RFC 2606 / RFC 6761 documentation names, and loopback (exempt from ATS, never a server to audit).
    public static let documentationDomains = ["example.com", "example.net", "example.org", "localhost"]
    public static let documentationTopLevels = ["example", "invalid", "localhost"]
    /// Licence texts and framework documentation that libraries and JavaScript bundles embed.
    public static let libraryDocumentationDomains = [
        "apache.org", "opensource.org", "gnu.org", "creativecommons.org", "reactjs.org", "react.dev", "reactnative.dev",
        "fb.me", "developer.mozilla.org", "mozilla.org", "jquery.org", "cordova.apache.org",
    ]
    public static let libraryDocumentationURLs = [
        "github.com/facebook/", "github.com/alamofire/", "github.com/afnetworking/",
    ]

    /// The default: `.test` names are kept (a shipped binary naming a `.test` host names real test
    /// infrastructure worth auditing, and the demo uses them).
    public static let `default` = HarvestFilter(
        excludedDomains: namespaceDomains + appleDomains + documentationDomains + libraryDocumentationDomains,
        excludedTopLevels: documentationTopLevels, excludedHostPrefixes: ["schemas."],
        excludedURLPrefixes: libraryDocumentationURLs)

    /// ``default`` plus the RFC 6761 `.test` names.
    public static let strict: HarvestFilter = {
        var filter = HarvestFilter.default
        filter.excludedTopLevels.append("test")
        return filter
    }()

    /// - Parameters: see the properties.
    public init(
        excludedDomains: [String], excludedTopLevels: [String], excludedHostPrefixes: [String],
        excludedURLPrefixes: [String]
    ) {
        self.excludedDomains = excludedDomains
        self.excludedTopLevels = excludedTopLevels
        self.excludedHostPrefixes = excludedHostPrefixes
        self.excludedURLPrefixes = excludedURLPrefixes
    }

    /// Whether a host (lower case) is left out.
    public func excludes(host: String) -> Bool {
        // Compared as UTF-8 bytes (hosts are lower-case ASCII): this runs once per match found.
        let bytes = host.utf8
        let top = bytes.lastIndex(of: 0x2E).map { bytes[bytes.index(after: $0)...] } ?? bytes[...]
        if excludedTopLevels.contains(where: { $0.utf8.elementsEqual(top) }) { return true }
        if excludedHostPrefixes.contains(where: { bytes.starts(with: $0.utf8) }) { return true }
        return excludedDomains.contains { domain in
            let suffix = domain.utf8
            guard bytes.count >= suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) else { return false }
            return bytes.count == suffix.count || bytes.dropLast(suffix.count).last == 0x2E
        }
    }

    /// Whether a URL (scheme stripped, host lower-cased) is left out by prefix.
    public func excludes(urlWithoutScheme: String) -> Bool {
        let lower = urlWithoutScheme.lowercased()
        return excludedURLPrefixes.contains { lower.hasPrefix($0) }
    }
}
