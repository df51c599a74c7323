import Foundation

/// An HTTP proxy that every connection of a scan is tunnelled through with `CONNECT` (RFC 9110 §9.3.6), the kind
/// corporate CI runners reach the internet through (`--proxy`, `HTTPS_PROXY`).
///
/// Only `http://` proxies: the client speaks plain HTTP to the proxy, then TLS to the server inside the tunnel.
/// The credentials are kept for the `Proxy-Authorization` header and never printed: reports and messages name
/// the proxy by ``redacted``.
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The proxy's host name or IP literal, without brackets, lower-cased.
    public var host: String
    public var port: Int
    /// The user name for Basic authentication, percent-decoded (nil: none sent).
    public var username: String?
    /// The password for Basic authentication, percent-decoded (empty when the URL gave a user only).
    public var password: String?

    /// A proxy at `host:port`, with optional credentials.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// Parses `http://[user:password@]host:port[/]`. A URL without a scheme is read as `http://` (as curl reads
    /// `HTTPS_PROXY=proxy.example:3128`); the port is required.
    /// - Throws: ``ProxyURLError`` with a one-line reason that never holds the credentials.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let shown = Self.redacting(trimmed)
        func fail(_ reason: String) -> ProxyURLError { ProxyURLError(url: shown, reason: reason) }
        guard !trimmed.isEmpty else { throw fail("empty proxy URL") }
        var rest = Substring(trimmed)
        if let range = rest.range(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            switch scheme {
            case "http": break
            case "https":
                throw fail(
                    "https:// proxies (TLS to the proxy) are not supported: give the proxy's http:// address")
            case let socks where socks.hasPrefix("socks"):
                throw fail(
                    "SOCKS proxies are not supported: give an HTTP proxy that accepts CONNECT (http://host:port)")
            default:
                throw fail("'\(scheme)://' proxies are not supported: give http://host:port")
            }
            rest = rest[range.upperBound...]
        }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            guard rest[end...] == "/" else { throw fail("a proxy URL has no path, query or fragment") }
            rest = rest[..<end]
        }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let colon = userinfo.firstIndex(of: ":")
            let user = colon.map { userinfo[..<$0] } ?? userinfo
            let secret = colon.map { userinfo[userinfo.index(after: $0)...] } ?? ""
            guard let decodedUser = String(user).removingPercentEncoding,
                let decodedSecret = String(secret).removingPercentEncoding
            else { throw fail("the credentials are not valid percent-encoding") }
            guard !decodedUser.isEmpty else { throw fail("the user name is empty") }
            username = decodedUser
            password = decodedSecret
        }
        var host: Substring
        var portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("unclosed '[' in the IPv6 address") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { throw fail("no port (give http://host:port, e.g. :3128)") }
            portText = after.dropFirst()
            guard IPAddress(literal: String(host)) != nil, host.contains(":") else {
                throw fail("'\(host)' is not an IPv6 address")
            }
        } else {
            guard let colon = rest.lastIndex(of: ":") else {
                throw fail("no port (give http://host:port, e.g. :3128)")
            }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            guard !host.contains(":") else { throw fail("an IPv6 proxy address goes in brackets: http://[::1]:3128") }
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
            guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
                throw fail("'\(host)' is not a host name or IP address")
            }
        }
        guard portText.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(portText), (1...65535).contains(port)
        else {
            throw fail(portText.isEmpty ? "no port (give http://host:port, e.g. :3128)" : "port must be 1…65535")
        }
        self.init(host: host.lowercased(), port: port, username: username, password: password)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var hostPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `http://host:port`: the proxy as reports and messages name it, without the credentials.
    public var redacted: String { "http://\(hostPort)" }

    /// ``redacted``: a proxy interpolated into a message never shows its password.
    public var description: String { redacted }

    /// ``redacted``, also when a request holding the proxy is printed whole.
    public var debugDescription: String { redacted }

    /// The `Proxy-Authorization` header's value, `Basic base64(user:password)` (RFC 7617), or nil without credentials.
    public var authorization: String? {
        guard let username else { return nil }
        return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
    }

    /// `text` with any user information replaced by `***`, for messages about a URL that may hold a password.
    public static func redacting(_ text: String) -> String {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        guard let at = text[start..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<start]) + "***" + String(text[at...])
    }
}

/// A proxy URL that atscheck cannot use.
public struct ProxyURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL as given, with any credentials replaced by `***`.
    public var url: String
    /// What is wrong with it, and what to give instead.
    public var reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "proxy URL '\(url)': \(reason)" }
}
