import Foundation
import TLSModel

extension RuleID.Plist {
    /// `plist.domain.invalid`: An exception or pinned domain key that is not a host name.
    package static let domainInvalid: RuleID = "plist.domain.invalid"
    /// `plist.domain.scheme`: A domain key with a URL scheme; keys are bare host names and this one never matches.
    package static let domainScheme: RuleID = "plist.domain.scheme"
    /// `plist.domain.port`: A domain key with a port; ports are not allowed and this one never matches.
    package static let domainPort: RuleID = "plist.domain.port"
    /// `plist.domain.path`: A domain key with a path; keys are bare host names and this one never matches.
    package static let domainPath: RuleID = "plist.domain.path"
    /// `plist.domain.wildcard`: A domain key with a wildcard; use NSIncludesSubdomains instead.
    package static let domainWildcard: RuleID = "plist.domain.wildcard"
    /// `plist.domain.leading-dot`: A domain key with a leading dot; use NSIncludesSubdomains instead.
    package static let domainLeadingDot: RuleID = "plist.domain.leading-dot"
    /// `plist.domain.uppercase`: A domain key with upper-case letters; exception lookups are exact and lower-case.
    package static let domainUppercase: RuleID = "plist.domain.uppercase"
    /// `plist.domain.trailing-dot`: A domain key with a trailing dot; it matches only hosts written with the dot.
    package static let domainTrailingDot: RuleID = "plist.domain.trailing-dot"
    /// `plist.domain.ip-address`: An IP address domain key; honoured only from iOS 17 / macOS 14.
    package static let domainIPAddress: RuleID = "plist.domain.ip-address"
    /// `plist.domain.cidr`: A CIDR range domain key; honoured only from iOS 17 / macOS 14.
    package static let domainCIDR: RuleID = "plist.domain.cidr"
    /// `plist.domain.invalid-cidr`: A CIDR range Apple cannot parse; the entry never matches.
    package static let domainInvalidCIDR: RuleID = "plist.domain.invalid-cidr"
    /// `plist.domain.subdomains-on-ip`: NSIncludesSubdomains on an IP or CIDR entry, where it has no effect.
    package static let domainSubdomainsOnIP: RuleID = "plist.domain.subdomains-on-ip"
}

/// Domain keys of `NSExceptionDomains` and `NSPinnedDomains` (docs/apple-rules.md §4.4): a bare host name,
/// lower case, no scheme, port, path, wildcard or leading dot; a trailing dot is significant;
/// IP addresses and CIDR ranges are honoured only from iOS 17 / macOS 14, and
/// `NSIncludesSubdomains` does nothing on them.
struct DomainKeyRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainInvalid, .plist, .error,
                title: "An exception or pinned domain key that is not a host name.",
                help: """
                    `NSExceptionDomains` and `NSPinnedDomains` keys are bare host names (from iOS 17 also IP addresses \
                    and CIDR ranges); a key with spaces or other characters a host name cannot have never matches a \
                    request. Write the host name alone.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainScheme, .plist, .error,
                title: "A domain key with a URL scheme; keys are bare host names and this one never matches.",
                help: """
                    Domain keys are matched against the request's host only, so `https://example.com` matches \
                    nothing. Write `example.com`.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainPort, .plist, .error,
                title: "A domain key with a port; ports are not allowed and this one never matches.",
                help: """
                    Apple documents that domain keys take no port: `example.com:8443` never matches. Write the host \
                    alone; the entry covers every port.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainPath, .plist, .error,
                title: "A domain key with a path; keys are bare host names and this one never matches.",
                help: """
                    Exceptions apply to a whole host, not a path, and the key is matched exactly, so \
                    `example.com/api` matches nothing. Write the host alone.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainWildcard, .plist, .error,
                title: "A domain key with a wildcard; use NSIncludesSubdomains instead.",
                help: """
                    Wildcards are not allowed in domain keys: `*.example.com` matches nothing. Write `example.com` with \
                    `NSIncludesSubdomains = YES`.
                    """,
                appleKey: "NSIncludesSubdomains"),
            RuleDescriptor(
                RuleID.Plist.domainLeadingDot, .plist, .error,
                title: "A domain key with a leading dot; use NSIncludesSubdomains instead.",
                help: """
                    A leading dot does not mean "and subdomains": `.example.com` matches nothing. Write `example.com` \
                    with `NSIncludesSubdomains = YES`.
                    """,
                appleKey: "NSIncludesSubdomains"),
            RuleDescriptor(
                RuleID.Plist.domainUppercase, .plist, .error,
                title: "A domain key with upper-case letters; exception lookups are exact and lower-case.",
                help: """
                    `NSExceptionDomains` lookup is an exact match and Apple documents keys in lower case, so \
                    `API.Example.com` never matches (`NSPinnedDomains`, by contrast, compares case-insensitively). Write the key in lower case.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainTrailingDot, .plist, .warning,
                title: "A domain key with a trailing dot; it matches only hosts written with the dot.",
                help: """
                    The trailing dot is significant: `example.com.` matches only requests to `example.com.`, and \
                    `example.com` does not match those. Drop the dot unless the app really requests the dotted name.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainIPAddress, .plist, .note,
                title: "An IP address domain key; honoured only from iOS 17 / macOS 14.",
                help: """
                    IP literals as `NSExceptionDomains` keys work from iOS 17 / macOS 14; earlier releases ignore the \
                    entry. A note when the app's lowest OS is iOS 17 or later, a warning below. For older releases use \
                    `NSAllowsLocalNetworking` for local addresses, or a host name.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainCIDR, .plist, .note,
                title: "A CIDR range domain key; honoured only from iOS 17 / macOS 14.",
                help: """
                    CIDR ranges (`10.0.0.0/8`) as domain keys work from iOS 17 / macOS 14; earlier releases ignore the \
                    entry. A note when the app's lowest OS is iOS 17 or later, a warning below.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainInvalidCIDR, .plist, .error,
                title: "A CIDR range Apple cannot parse; the entry never matches.",
                help: """
                    A key with `/` is parsed as a CIDR range (IPv4 or IPv6, prefix within the address length); an \
                    invalid one is logged and never matches. Fix the address or prefix length.
                    """,
                appleKey: "NSExceptionDomains"),
            RuleDescriptor(
                RuleID.Plist.domainSubdomainsOnIP, .plist, .error,
                title: "NSIncludesSubdomains on an IP or CIDR entry, where it has no effect.",
                help: """
                    Subdomains exist only for names; on an IP address or CIDR entry `NSIncludesSubdomains` does \
                    nothing. Remove it, or list the range you meant as CIDR.
                    """,
                appleKey: "NSIncludesSubdomains"),
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        for (name, value) in c.exceptionDomains {
            checkDomain(c, name, entry: PlistNode.dictionary(value), container: ATSKey.exceptionDomains)
        }
        for (name, value) in c.pinnedDomains {
            checkDomain(c, name, entry: PlistNode.dictionary(value), container: ATSKey.pinnedDomains)
        }
    }

    /// What a domain key is, once its spelling problems are set aside.
    enum HostKind: Equatable {
        case name
        case ipAddress
        case cidr(valid: Bool)
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

    private static func checkDomain(_ c: LintContext, _ name: String, entry: [String: Any]?, container: ATSKey) {
        let path = [container.name, name]
        let pinned = container == .pinnedDomains
        let what = pinned ? "pinned domain" : "exception domain"
        // A key Xcode fills in from a build setting is reported as unresolved (UnresolvedSettingRules), or was
        // expanded already: as written it is not the key Apple reads.
        if BuildSettings.refersToSetting(name) { return }
        if ATSKey.named(name) != nil {
            c.emit(
                RuleID.Plist.keyWrongLevel, .error,
                "\(name) is directly inside \(container.name), where Apple reads it as a host name; put it inside a "
                    + "domain entry such as <key>example.com</key><dict>…</dict>",
                at: path)
            return
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed != name || name.contains(" ") {
            c.emit(
                RuleID.Plist.domainInvalid, .error,
                "\(what) key \"\(name)\" is empty or contains white space: it never matches a host", at: path)
            return
        }
        var host = Substring(name)
        if let scheme = host.range(of: "://") {
            c.emit(
                RuleID.Plist.domainScheme, .error,
                "\(what) key \(name) has a URL scheme: keys are bare host names, so it never matches; use "
                    + "\(bareHost(name))",
                at: path)
            host = host[scheme.upperBound...]
        }
        let kind = hostKind(String(host))
        if kind == .name, let slash = host.firstIndex(of: "/") {
            c.emit(
                RuleID.Plist.domainPath, .error,
                "\(what) key \(name) has a path: keys are bare host names (a '/' is read as a CIDR range), so it "
                    + "never matches; use \(bareHost(name))",
                at: path)
            host = host[..<slash]
        }
        if kind == .name, let colon = host.lastIndex(of: ":"), Int(host[host.index(after: colon)...]) != nil {
            c.emit(
                RuleID.Plist.domainPort, .error,
                "\(what) key \(name) has a port: ports are not allowed, so it never matches; use \(bareHost(name)) "
                    + "(it covers every port)",
                at: path)
            host = host[..<colon]
        }
        switch kind {
        case .ipAddress, .cidr(valid: true):
            checkAddressKey(c, name, kind: kind, entry: entry, pinned: pinned, at: path)
            return
        case .cidr(valid: false):
            c.emit(
                RuleID.Plist.domainInvalidCIDR, .error,
                "\(what) key \(name) is not a valid CIDR range (address/prefix length): Apple logs it and it never "
                    + "matches",
                at: path)
            return
        case .name:
            break
        }
        if host.contains("*") {
            c.emit(
                RuleID.Plist.domainWildcard, .error,
                "\(what) key \(name) has a wildcard, which never matches; use "
                    + "\(host.replacingOccurrences(of: "*.", with: "")) with NSIncludesSubdomains = <true/>",
                at: path)
            host = Substring(host.replacingOccurrences(of: "*.", with: "").replacingOccurrences(of: "*", with: ""))
        }
        if host.hasPrefix(".") {
            c.emit(
                RuleID.Plist.domainLeadingDot, .error,
                "\(what) key \(name) starts with a dot, which never matches; use \(host.drop(while: { $0 == "." })) "
                    + "with NSIncludesSubdomains = <true/>",
                at: path)
            host = host.drop(while: { $0 == "." })
        }
        if host.hasSuffix(".") {
            c.emit(
                RuleID.Plist.domainTrailingDot, .warning,
                "\(what) key \(name) ends with a dot: it matches only requests to \(host) written with the dot, not "
                    + "\(host.dropLast())",
                at: path)
            host = host.dropLast()
        }
        if !pinned, host != host.lowercased() {
            c.emit(
                RuleID.Plist.domainUppercase, .error,
                "exception domain key \(name) has upper-case letters: the lookup is exact and hosts are lower case, "
                    + "so it never matches; use \(host.lowercased())",
                at: path)
        }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        if host.isEmpty || host.unicodeScalars.contains(where: { !allowed.contains($0) }) || host.contains("..") {
            c.emit(
                RuleID.Plist.domainInvalid, .error,
                "\(what) key \(name) is not a valid host name: it never matches (internationalised names must be "
                    + "written in punycode, xn--…)",
                at: path)
        }
    }

    private static func checkAddressKey(
        _ c: LintContext, _ name: String, kind: HostKind, entry: [String: Any]?, pinned: Bool, at path: [String]
    ) {
        let isCIDR = kind != .ipAddress
        let what = isCIDR ? "a CIDR range" : "an IP address"
        if !pinned {
            if c.lowestOS.major < 17 {
                c.emit(
                    isCIDR ? RuleID.Plist.domainCIDR : RuleID.Plist.domainIPAddress, .warning,
                    "exception domain key \(name) is \(what): honoured only from iOS 17 / macOS 14, and this app "
                        + "supports \(c.lowestOSText); before iOS 17 an IP address cannot be excepted by key (iOS "
                        + "10–16 exempt IP literals by default, iOS 9 needs NSAllowsArbitraryLoads)",
                    at: path)
            } else {
                c.emit(
                    isCIDR ? RuleID.Plist.domainCIDR : RuleID.Plist.domainIPAddress, .note,
                    "exception domain key \(name) is \(what): honoured from iOS 17 / macOS 14; it does not cover "
                        + "host names that resolve to it",
                    at: path)
            }
        }
        if let entry, c.entryBool(entry, .includesSubdomains) == true {
            c.emit(
                RuleID.Plist.domainSubdomainsOnIP, .error,
                "NSIncludesSubdomains has no effect on \(what) entry (\(name)); remove it",
                at: path + [ATSKey.includesSubdomains.name])
        }
    }

    /// `https://Example.com:443/x` → `example.com`: the key the author meant.
    private static func bareHost(_ name: String) -> String {
        var s = Substring(name)
        if let r = s.range(of: "://") { s = s[r.upperBound...] }
        if let slash = s.firstIndex(of: "/") { s = s[..<slash] }
        if let colon = s.lastIndex(of: ":"), Int(s[s.index(after: colon)...]) != nil { s = s[..<colon] }
        return s.lowercased()
    }
}
