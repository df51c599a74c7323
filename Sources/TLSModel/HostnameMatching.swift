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
        if let requestedIP = IPAddress(requested) {
            return ipAddresses.contains { IPAddress($0) == requestedIP }
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
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    /// Parses dotted IPv4 or RFC 4291 IPv6 text (brackets and a `%zone` are stripped).
    public init?(_ text: String) {
        var t = text
        if t.hasPrefix("["), t.hasSuffix("]") { t = String(t.dropFirst().dropLast()) }
        if let percent = t.firstIndex(of: "%") { t = String(t[..<percent]) }
        if let v4 = IPAddress.parseIPv4(t) {
            bytes = v4
        } else if t.contains(":"), let v6 = IPAddress.parseIPv6(t) {
            bytes = v6
        } else {
            return nil
        }
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

    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCIIDigit), let v = UInt8(part) else { return nil }
            out.append(v)
        }
        return out
    }

    static func parseIPv6(_ text: String) -> [UInt8]? {
        var head: [UInt16] = []
        var tail: [UInt16] = []
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ s: String) -> [UInt16]? {
            if s.isEmpty { return [] }
            var result: [UInt16] = []
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index == parts.count - 1, part.contains("."), let v4 = parseIPv4(String(part)) {
                    result.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    result.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                } else {
                    guard !part.isEmpty, part.count <= 4, let v = UInt16(part, radix: 16) else { return nil }
                    result.append(v)
                }
            }
            return result
        }
        guard let h = groups(halves[0]) else { return nil }
        head = h
        if halves.count == 2 {
            guard let t = groups(halves[1]) else { return nil }
            tail = t
            guard head.count + tail.count < 8 else { return nil }
        } else {
            guard head.count == 8 else { return nil }
        }
        let all = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
