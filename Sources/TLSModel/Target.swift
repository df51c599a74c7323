import Foundation

/// An endpoint to scan, parsed from `host`, `host:port`, `[v6]:port` or an `https://` / `http://` URL.
public struct Target: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `https` or `http` (only URLs can say `http`; scans of an `http://` target are refused by ATS anyway).
    public var scheme: String
    /// Host name or IP literal, without brackets, lower-cased for names.
    public var host: String
    public var port: Int
    /// The URL path, if one was given.
    public var path: String?
    /// The text as the user wrote it.
    public var original: String

    public static let defaultPort = 443

    public init(
        scheme: String = "https", host: String, port: Int = Target.defaultPort, path: String? = nil,
        original: String? = nil
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.original = original ?? "\(host):\(port)"
    }

    /// Parses a target.
    /// - Throws: ``TargetError`` with a one-line reason when the text is not a target.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw TargetError(text: text, reason: "empty target") }
        var rest = Substring(trimmed)
        var scheme = "https"
        var defaultPort = Target.defaultPort
        if let range = rest.range(of: "://") {
            scheme = rest[..<range.lowerBound].lowercased()
            guard scheme == "https" || scheme == "http" else {
                throw TargetError(text: text, reason: "unsupported scheme '\(scheme)' (use https:// or host:port)")
            }
            if scheme == "http" { defaultPort = 80 }
            rest = rest[range.upperBound...]
        }
        var path: String?
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }  // drop userinfo
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw TargetError(text: text, reason: "unclosed '[' in IPv6 address")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw TargetError(text: text, reason: "unexpected text after IPv6 address")
            }
        } else if rest.filter({ $0 == ":" }).count >= 2 {
            host = rest  // a bare IPv6 literal: no port can follow without brackets
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw TargetError(text: text, reason: "no host name") }
        var port = defaultPort
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw TargetError(text: text, reason: "port '\(portText)' is not a number from 1 to 65535")
            }
            port = p
        }
        let hostString = String(host)
        if hostString.contains(":") {
            guard IPAddress(hostString) != nil else {
                throw TargetError(text: text, reason: "'\(hostString)' is not an IPv6 address")
            }
        } else {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._")
            guard hostString.allSatisfy({ allowed.contains($0) }) else {
                throw TargetError(text: text, reason: "'\(hostString)' is not a valid host name")
            }
            // No DNS name ends in a numeric label (RFC 3696 §2), and the resolver reads `42`, `10.1` or `0x7f.1`
            // as an IPv4 address in a legacy short form (`42` is 0.0.0.42): a connection nobody asked for.
            if IPAddress(hostString) == nil, Self.isNumericLabel(hostString.split(separator: ".").last ?? "") {
                throw TargetError(
                    text: text,
                    reason: "'\(hostString)' is a number, not a host name or a dotted-quad IPv4 address")
            }
        }
        self.init(
            scheme: scheme, host: hostString.contains(":") ? hostString : hostString.lowercased(), port: port,
            path: path, original: trimmed)
    }

    /// Whether `label` is all decimal digits, or `0x` and hex digits.
    static func isNumericLabel(_ label: Substring) -> Bool {
        let lower = label.lowercased()
        if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy(\.isHexDigit) }
        return !lower.isEmpty && lower.allSatisfy(\.isASCII) && lower.allSatisfy(\.isNumber)
    }

    /// Whether the host is an IP literal.
    public var isIPLiteral: Bool { IPAddress(host) != nil }

    /// `host:port`, with brackets around IPv6 literals.
    public var hostPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var description: String { hostPort }
}

/// A target that could not be parsed.
public struct TargetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }
    public var description: String { "invalid target '\(text)': \(reason)" }
}
