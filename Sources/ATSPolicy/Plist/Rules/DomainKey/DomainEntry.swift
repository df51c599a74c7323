import Foundation
import TLSModel

/// One domain key of `NSExceptionDomains` or `NSPinnedDomains`, read once for every domain key rule
/// (docs/apple-rules.md §4.4): a bare host name, lower case, no scheme, port, path, wildcard or leading dot; a trailing
/// dot is significant; IP addresses and CIDR ranges are honoured only from iOS 17 / macOS 14, and
/// `NSIncludesSubdomains` does nothing on them.
///
/// The key is read as a sequence of steps, each taking the host as the step before left it (the scheme, then a path,
/// then a port, then a wildcard, a leading dot and a trailing dot are set aside in turn); each rule reads the host at
/// its own step, so the rules are independent of the order they run in.
struct DomainEntry {
    /// Why the domain key rules read no further than the key as written.
    enum Stop: Equatable {
        /// The key names a build setting (reported by ``UnresolvedSettingRules``, or already expanded).
        case buildSetting
        /// The key is an ATS key placed where a host name belongs (``DomainKeyWrongLevelRule``).
        case atsKey
        /// The key is empty or has white space (``DomainInvalidRule``).
        case whiteSpace
    }

    /// What a domain key is, once its spelling problems are set aside.
    enum HostKind: Equatable {
        case name
        case ipAddress
        case cidr(valid: Bool)
    }

    /// The key as written.
    let name: String
    /// The container key (`NSExceptionDomains` or `NSPinnedDomains`).
    let container: ATSKey
    /// The entry's dictionary, nil when the value is not one.
    let entry: [String: Any]?
    /// Where the rules report: the container and the key.
    var path: [String] { [container.name, name] }
    /// Whether the key is in `NSPinnedDomains`.
    var pinned: Bool { container == .pinnedDomains }
    /// The container's kind of key for messages.
    var what: String { pinned ? "pinned domain" : "exception domain" }
    /// Why the rules stop at the key as written; nil when they read the host.
    let stop: Stop?
    /// Whether the key starts with a URL scheme.
    let hasScheme: Bool
    /// What the key is, its scheme set aside.
    let kind: HostKind
    /// Whether a host name key has a path.
    let hasPath: Bool
    /// Whether a host name key has a port.
    let hasPort: Bool
    /// The host with scheme, path and port set aside: what the wildcard step reads.
    let hostBeforeWildcard: Substring
    /// The host with a wildcard set aside: what the leading dot step reads.
    let hostBeforeLeadingDot: Substring
    /// The host with leading dots set aside: what the trailing dot step reads.
    let hostBeforeTrailingDot: Substring
    /// The host with a trailing dot set aside: what the upper case and host name steps read.
    let host: Substring

    /// Whether the rules read the key's host name (no stop, and neither an address nor a CIDR range).
    var isHostName: Bool { stop == nil && kind == .name }

    /// Whether the key is an IP address or a valid CIDR range the rules read.
    var isAddress: Bool { stop == nil && (kind == .ipAddress || kind == .cidr(valid: true)) }

    /// Reads a domain key.
    /// - Parameters:
    ///   - name: The key as written.
    ///   - entry: The entry's dictionary, nil when the value is not one.
    ///   - container: `NSExceptionDomains` or `NSPinnedDomains`.
    init(name: String, entry: [String: Any]?, container: ATSKey) {
        self.name = name
        self.entry = entry
        self.container = container
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if BuildSettings.refersToSetting(name) {
            stop = .buildSetting
        } else if ATSKey.named(name) != nil {
            stop = .atsKey
        } else if trimmed.isEmpty || trimmed != name || name.contains(" ") {
            stop = .whiteSpace
        } else {
            stop = nil
        }
        var host = Substring(name)
        let scheme = host.range(of: "://")
        hasScheme = stop == nil && scheme != nil
        if let scheme { host = host[scheme.upperBound...] }
        kind = Self.hostKind(String(host))
        var path = false
        var port = false
        if kind == .name, let slash = host.firstIndex(of: "/") {
            path = true
            host = host[..<slash]
        }
        if kind == .name, let colon = host.lastIndex(of: ":"), Int(host[host.index(after: colon)...]) != nil {
            port = true
            host = host[..<colon]
        }
        hasPath = path
        hasPort = port
        hostBeforeWildcard = host
        if host.contains("*") {
            host = Substring(host.replacingOccurrences(of: "*.", with: "").replacingOccurrences(of: "*", with: ""))
        }
        hostBeforeLeadingDot = host
        if host.hasPrefix(".") { host = host.drop(while: { $0 == "." }) }
        hostBeforeTrailingDot = host
        if host.hasSuffix(".") { host = host.dropLast() }
        self.host = host
    }

    /// Classifies a domain key as Apple's parser would (§3.4: a `/` means a CIDR range).
    static func hostKind(_ key: String) -> HostKind {
        if IPAddress(literal: key) != nil { return .ipAddress }
        // A key that looks like an address before its `/` is a CIDR key; whether it is a valid one is
        // decided by the engine's own parser, so the linter and the lookup never disagree.
        if let slash = key.firstIndex(of: "/"), cidrAddress(String(key[..<slash])) != nil {
            return .cidr(valid: CIDRRange(key) != nil)
        }
        return .name
    }

    /// Bytes of a CIDR base address (IPv4 may omit trailing octets, which are padded with zeros), or nil.
    private static func cidrAddress(_ text: String) -> Int? {
        if text.contains(":") { return IPAddress(literal: text) != nil ? 16 : nil }
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(octets.count), octets.allSatisfy({ UInt8($0) != nil }) else { return nil }
        return 4
    }

    /// `https://Example.com:443/x` → `example.com`: the key the author meant.
    var bareHost: String {
        var s = Substring(name)
        if let r = s.range(of: "://") { s = s[r.upperBound...] }
        if let slash = s.firstIndex(of: "/") { s = s[..<slash] }
        if let colon = s.lastIndex(of: ":"), Int(s[s.index(after: colon)...]) != nil { s = s[..<colon] }
        return s.lowercased()
    }

    /// The message of an IP address or CIDR range exception domain key: a warning's text when the app supports
    /// releases before iOS 17, a note's otherwise.
    /// - Parameter what: "an IP address" or "a CIDR range".
    static func addressKeyMessage(_ c: LintContext, _ name: String, what: String) -> String {
        if c.lowestOS.major < 17 {
            return "exception domain key \(name) is \(what): honoured only from iOS 17 / macOS 14, and this app "
                + "supports \(c.lowestOSText); before iOS 17 an IP address cannot be excepted by key (iOS "
                + "10–16 exempt IP literals by default, iOS 9 needs NSAllowsArbitraryLoads)"
        }
        return "exception domain key \(name) is \(what): honoured from iOS 17 / macOS 14; it does not cover "
            + "host names that resolve to it"
    }

    /// The entries of `NSExceptionDomains`, then of `NSPinnedDomains`, each sorted by name.
    static func all(in c: LintContext) -> [DomainEntry] {
        c.exceptionDomains.map {
            DomainEntry(name: $0.name, entry: PlistNode.dictionary($0.value), container: .exceptionDomains)
        }
            + c.pinnedDomains.map {
                DomainEntry(name: $0.name, entry: PlistNode.dictionary($0.value), container: .pinnedDomains)
            }
    }
}
