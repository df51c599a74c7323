import Foundation
import TLSModel

/// An `http://` or `https://` URL split into what a fetch needs: the scheme, the host (IPv6 without brackets),
/// the port and the request target (path and query).
struct FetchURL: Sendable, Equatable, CustomStringConvertible {
    var secure: Bool
    var host: String
    var port: Int
    /// `/path?query`, at least `/`.
    var target: String

    /// Parses `text`; credentials in the URL are refused rather than sent (a caIssuers URL has none, and
    /// `--url` must not leak them into reports).
    /// - Throws: ``HTTPFetchError`` (``HTTPFetchError/Kind/invalidURL``).
    init(_ text: String) throws(HTTPFetchError) {
        func invalid(_ why: String) -> HTTPFetchError {
            HTTPFetchError(.invalidURL, url: text, reason: "\(text): \(why)")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid("not a URL")
        }
        switch scheme {
        case "http": secure = false
        case "https": secure = true
        default: throw invalid("only http:// and https:// URLs are fetched")
        }
        guard var host = components.host, !host.isEmpty else { throw invalid("no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard components.user == nil, components.password == nil else {
            throw invalid("credentials in a fetched URL are not supported")
        }
        let port = components.port ?? (secure ? 443 : 80)
        guard (1...65535).contains(port) else { throw invalid("port must be 1…65535") }
        self.host = host.lowercased()
        self.port = port
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        // Request-target bytes: nothing that could end the request line or smuggle a header.
        guard target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw invalid("unexpected characters") }
        self.target = target
    }

    /// `host:port` as a `Host` header and a CONNECT authority write it (the port only when not the default).
    var authority: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
    }

    /// `host:port` with the port always (CONNECT needs it).
    var hostPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    var description: String { "\(secure ? "https" : "http")://\(authority)\(target)" }

    /// The URL a `Location` header points to, resolved against this one (relative references included).
    func resolving(_ location: String) throws(HTTPFetchError) -> FetchURL {
        guard let base = URL(string: description), let resolved = URL(string: location, relativeTo: base) else {
            throw HTTPFetchError(
                .protocolError, url: description, reason: "\(description) redirected to an invalid URL '\(location)'")
        }
        return try FetchURL(resolved.absoluteString)
    }
}
