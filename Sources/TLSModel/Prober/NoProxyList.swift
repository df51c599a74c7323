import Foundation

/// The hosts that are reached directly even though a proxy is set: `NO_PROXY` / `no_proxy`, read as curl reads it.
///
/// A comma-separated list (spaces around items ignored, case-insensitive):
/// - `*` alone matches every host;
/// - a name matches itself and every name under it: `example.com`, `.example.com` and `*.example.com` all match
///   `example.com` and `api.example.com`, never `notexample.com`;
/// - an IP address matches that address as the target is written (`10.0.0.7`, `::1` or `[::1]`), and
///   `10.0.0.0/8` or `fd00::/8` a whole range (CIDR, as curl 7.86 and later);
/// - any item may end in `:port` (`[::1]:8443` for IPv6) to match that port only.
///
/// Items that are none of these are ignored, as curl ignores them. Names are matched against the target's host as
/// written, never against addresses it resolves to (atscheck does not resolve a proxied name).
public struct NoProxyList: Sendable, Hashable {
    enum Entry: Sendable, Hashable {
        case everything
        /// A name, without leading dots or trailing dot; matches it and its subdomains.
        case domain(String, port: Int?)
        /// An address and how many leading bits must match (all of them for a single address).
        case address(IPAddress, bits: Int, port: Int?)
    }

    let entries: [Entry]

    /// An empty list: nothing bypasses the proxy.
    public init() { entries = [] }

    /// Parses a `NO_PROXY` value; never fails (unusable items are left out).
    public init(parsing text: String) {
        entries = text.split(separator: ",").compactMap { Self.entry(String($0).trimmingCharacters(in: .whitespaces)) }
    }

    /// Whether the list holds no usable item.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether a connection to `host` (a name or IP literal, as the target names it) on `port` goes direct.
    public func matches(host: String, port: Int) -> Bool {
        let name = Self.normalised(host)
        let ip = IPAddress(literal: name)
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .domain(let domain, let only):
                guard only == nil || only == port, ip == nil else { return false }
                return name == domain || name.hasSuffix("." + domain)
            case .address(let address, let bits, let only):
                guard only == nil || only == port, let ip, ip.bytes.count == address.bytes.count else { return false }
                return Self.prefix(ip.bytes, bits) == Self.prefix(address.bytes, bits)
            }
        }
    }

    private static func entry(_ item: String) -> Entry? {
        guard !item.isEmpty else { return nil }
        if item == "*" { return .everything }
        var text = Substring(item)
        var port: Int?
        if text.hasPrefix("[") {
            // [v6] or [v6]:port (or [v6/bits]).
            guard let close = text.firstIndex(of: "]") else { return nil }
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = portNumber(after.dropFirst()) else { return nil }
                port = p
            }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            // name:port or v4:port; more than one colon is a bare IPv6 address.
            guard let p = portNumber(text[text.index(after: colon)...]) else { return nil }
            port = p
            text = text[..<colon]
        }
        var bits: Int?
        if let slash = text.firstIndex(of: "/") {
            guard let b = Int(text[text.index(after: slash)...]) else { return nil }
            bits = b
            text = text[..<slash]
        }
        if let address = IPAddress(literal: String(text)) {
            let width = address.bytes.count * 8
            guard (0...width).contains(bits ?? width) else { return nil }
            return .address(address, bits: bits ?? width, port: port)
        }
        guard bits == nil else { return nil }
        while text.hasPrefix("*.") { text = text.dropFirst(2) }
        while text.hasPrefix(".") { text = text.dropFirst() }
        let name = normalised(String(text))
        guard !name.isEmpty, !name.contains("*"), !name.contains(":") else { return nil }
        return .domain(name, port: port)
    }

    private static func portNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(text),
            (1...65535).contains(port)
        else { return nil }
        return port
    }

    /// Lower-cased, without brackets or a trailing dot.
    private static func normalised(_ host: String) -> String {
        var text = host.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]"), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The first `bits` bits of `bytes`, the rest zeroed.
    private static func prefix(_ bytes: [UInt8], _ bits: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, bits - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }
}
