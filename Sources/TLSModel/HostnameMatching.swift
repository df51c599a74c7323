import Foundation

/// Matches a requested host against a certificate's subjectAltName the way Apple's SSL policy
/// does (Security `SecPolicyLeafCallbacks.c`, support article 103769):
///
/// - only SAN dNSName entries are used for names, SAN iPAddress entries for IP literals
///   (compared as binary); the commonName is never consulted;
/// - comparison is case-insensitive, and one trailing dot on the requested host is ignored;
/// - a wildcard must be the whole leftmost label and covers exactly one label;
/// - partial-label wildcards (`f*.example.com`), wildcards directly above a TLD (`*.com`) and
///   wildcards over a known multi-label public suffix (`*.co.uk`) are rejected.
public enum HostnameMatching {
    /// Whether `host` is covered by the certificate's SANs.
    /// - Parameters:
    ///   - host: the host name or IP literal the client connects to.
    ///   - dnsNames: SAN dNSName entries.
    ///   - ipAddresses: SAN iPAddress entries, as text.
    /// - Returns: true when some SAN entry matches.
    public static func matches(host: String, dnsNames: [String], ipAddresses: [String]) -> Bool {
        var requested = host
        if requested.hasPrefix("["), requested.hasSuffix("]") {
            requested = String(requested.dropFirst().dropLast())
        }
        // A zone id is not an IP literal here (see ``IPAddress/init(literal:)``): the host is then a name.
        if let requestedIP = IPAddress(literal: requested) {
            return ipAddresses.contains { IPAddress(literal: $0) == requestedIP }
        }
        return dnsNames.contains { matches(host: requested, pattern: $0) }
    }

    /// Whether one dNSName `pattern` covers `host`.
    public static func matches(host: String, pattern: String) -> Bool {
        var h = host.lowercased()
        if h.hasSuffix(".") { h.removeLast() }
        var p = pattern.lowercased()
        if p.hasSuffix(".") { p.removeLast() }
        guard !h.isEmpty, !p.isEmpty else { return false }
        if !p.contains("*") { return h == p }

        let patternLabels = p.split(separator: ".", omittingEmptySubsequences: false)
        let hostLabels = h.split(separator: ".", omittingEmptySubsequences: false)
        // The wildcard must be the entire leftmost label and the only one.
        guard patternLabels.first == "*", patternLabels.dropFirst().allSatisfy({ !$0.contains("*") }) else {
            return false
        }
        // Not directly above a TLD, and not over a multi-label public suffix.
        let base = patternLabels.dropFirst().joined(separator: ".")
        guard patternLabels.count >= 3, !multiLabelPublicSuffixes.contains(base) else { return false }
        guard hostLabels.count == patternLabels.count, !(hostLabels.first?.isEmpty ?? true) else { return false }
        return hostLabels.dropFirst().elementsEqual(patternLabels.dropFirst())
    }

    /// Whether `pattern` is a wildcard Apple would refuse outright (reported as a certificate fact).
    public static func isRejectedWildcard(_ pattern: String) -> Bool {
        guard pattern.contains("*") else { return false }
        let labels = pattern.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        if labels.first != "*" || labels.dropFirst().contains(where: { $0.contains("*") }) { return true }
        let base = labels.dropFirst().joined(separator: ".")
        return labels.count < 3 || multiLabelPublicSuffixes.contains(base)
    }

    /// A small set of multi-label public suffixes under which a wildcard is refused.
    /// Apple uses CFNetwork's TLD list, which is not public; this covers the common ones.
    static let multiLabelPublicSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk",
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "co.nz", "org.nz", "co.jp", "ne.jp",
        "or.jp", "ac.jp", "co.kr", "or.kr", "com.br", "net.br", "org.br", "com.cn", "net.cn",
        "org.cn", "com.mx", "com.tr", "co.in", "net.in", "org.in", "co.za", "com.sg", "com.hk",
        "com.tw", "co.il", "com.ar", "com.es", "com.pl", "co.id",
    ]
}

/// An IPv4 or IPv6 address in binary form, for comparing literals the way Apple does.
///
/// Text is parsed by the system's `inet_pton` only, never by hand, so exactly the RFC 4291 / RFC 3986
/// forms are IP literals: dotted-quad IPv4 with no leading zeros (`010.1.1.1`, `127.000.000.001` and
/// the short `1.2.3` are names, not addresses) and IPv6 with an optional trailing dotted quad
/// (`::ffff:127.0.0.1`). A sign is never a digit (`::+1` is not an address).
///
/// Two entry points, for two questions:
/// - ``init(literal:)`` asks "is this host an IP literal for ATS?": a URL host or an
///   `NSExceptionDomains` key, with or without brackets. A zone id (`fe80::1%eth0`) makes it *not* a
///   literal: Apple compares a SAN iPAddress with the host's bytes, and a scoped address has no
///   bytes of its own (its meaning depends on the interface), so such a host is judged as a name.
/// - ``init(_:)`` asks "which address do I connect to?": it also accepts an IPv6 zone id (RFC 6874)
///   and drops it, because the resolver (`getaddrinfo`) takes the scoped form for the connect.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    /// Parses an address to connect to: an IP literal (see ``init(literal:)``) or an IPv6 literal with
    /// a non-empty `%zone`, which is dropped.
    public init?(_ text: String) {
        var t = Self.unbracketed(text)
        if t.contains(":"), let percent = t.firstIndex(of: "%") {
            guard t.index(after: percent) < t.endIndex else { return nil }
            t = String(t[..<percent])
        }
        self.init(literal: t)
    }

    /// Parses an IP literal as ATS sees one: what `inet_pton` accepts for `AF_INET` or `AF_INET6`,
    /// optionally in brackets (`[::1]`); nil for names, zone ids and every form `inet_pton` refuses.
    public init?(literal text: String) {
        let t = Self.unbracketed(text)
        if let v4 = Self.presentationToNetwork(AF_INET, t, byteCount: 4) {
            bytes = v4
        } else if let v6 = Self.presentationToNetwork(AF_INET6, t, byteCount: 16) {
            bytes = v6
        } else {
            return nil
        }
    }

    private static func unbracketed(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2 ? String(text.dropFirst().dropLast()) : text
    }

    /// `inet_pton` into `byteCount` bytes (4 for `in_addr`, 16 for `in6_addr`).
    private static func presentationToNetwork(_ family: Int32, _ text: String, byteCount: Int) -> [UInt8]? {
        // inet_pton reads up to the NUL: text with an embedded NUL must not parse as its prefix.
        guard !text.utf8.contains(0) else { return nil }
        var out = [UInt8](repeating: 0, count: 16)
        let status = out.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) }
        return status == 1 ? Array(out.prefix(byteCount)) : nil
    }

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var isIPv4: Bool { bytes.count == 4 }

    public var isLoopback: Bool {
        if isIPv4 { return bytes[0] == 127 }
        return bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    public var isLinkLocal: Bool {
        if isIPv4 { return bytes[0] == 169 && bytes[1] == 254 }
        return bytes[0] == 0xFE && (bytes[1] & 0xC0) == 0x80
    }

    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [UInt16] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])) }
        // Compress the longest run of zero groups (RFC 5952).
        var bestStart = -1
        var bestLength = 0
        var i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > bestLength && j - i > 1 {
                    bestStart = i
                    bestLength = j - i
                }
                i = j
            } else {
                i += 1
            }
        }
        func hex(_ range: ArraySlice<UInt16>) -> String { range.map { String($0, radix: 16) }.joined(separator: ":") }
        if bestStart < 0 { return hex(groups[...]) }
        return hex(groups[0..<bestStart]) + "::" + hex(groups[(bestStart + bestLength)...])
    }
}
