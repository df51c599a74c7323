import Foundation

/// One bounded HTTP GET: the URL, how many bytes the body may have, how long the whole exchange may take, and how
/// many redirects are followed.
public struct HTTPFetchRequest: Sendable, Hashable {
    /// An `http://` or `https://` URL.
    public var url: String
    /// The most body bytes accepted; a longer body ends the fetch as ``HTTPFetchError/Kind/tooLarge``.
    public var maximumBytes: Int
    /// Seconds for the whole exchange (resolution, connect, proxy, TLS, head and body, every redirect).
    public var timeout: Double
    /// Redirects (301, 302, 303, 307, 308) followed; 0: a redirect is an error that names its target.
    public var maximumRedirects: Int
    /// The `Accept` header; nil sends `*/*`.
    public var accept: String?

    /// - Parameters:
    ///   - url: An `http://` or `https://` URL.
    ///   - maximumBytes: The most body bytes accepted.
    ///   - timeout: Seconds for the whole exchange.
    ///   - maximumRedirects: Redirects followed (0: refused).
    ///   - accept: The `Accept` header.
    public init(url: String, maximumBytes: Int, timeout: Double, maximumRedirects: Int = 0, accept: String? = nil) {
        self.url = url
        self.maximumBytes = maximumBytes
        self.timeout = timeout
        self.maximumRedirects = maximumRedirects
        self.accept = accept
    }
}

/// The answer to a ``HTTPFetchRequest``: a 2xx status and its whole body.
public struct HTTPFetchResponse: Sendable, Equatable {
    /// The URL the body came from (after redirects).
    public var url: String
    /// The status code (2xx: anything else is an ``HTTPFetchError``).
    public var status: Int
    /// The `Content-Type` header, if any.
    public var contentType: String?
    /// The body, at most the request's ``HTTPFetchRequest/maximumBytes``.
    public var body: Data
    /// The proxy the fetch went through (`http://host:port`, never with credentials); nil: direct.
    public var proxy: String?

    public init(url: String, status: Int, contentType: String? = nil, body: Data, proxy: String? = nil) {
        self.url = url
        self.status = status
        self.contentType = contentType
        self.body = body
        self.proxy = proxy
    }
}

/// Why a fetch gave no body: one line a person can act on, and its kind.
public struct HTTPFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// Not an `http://` or `https://` URL atscheck can fetch.
        case invalidURL = "invalid-url"
        /// The name did not resolve, or no connection could be made (refused, no route).
        case unreachable
        /// The exchange did not finish before the deadline.
        case timeout
        /// The server answered with a status other than 2xx (a redirect when none may be followed included).
        case status
        /// The body is longer than the request allows.
        case tooLarge = "too-large"
        /// The TLS handshake failed, or the server's certificate did not verify.
        case tls
        /// The proxy refused the request or could not be reached.
        case proxy
        /// The server closed the connection early or did not answer in HTTP.
        case protocolError = "protocol"
    }

    /// What went wrong.
    public var kind: Kind
    /// The URL that failed (the one a redirect led to, if any).
    public var url: String
    /// One line: what went wrong with `url`, and what to do when there is something to do.
    public var reason: String
    /// The status code, for ``Kind/status``.
    public var status: Int?

    public init(_ kind: Kind, url: String, reason: String, status: Int? = nil) {
        self.kind = kind
        self.url = url
        self.reason = reason
        self.status = status
    }

    public var description: String { reason }
}

/// Fetches one URL with bounds: the seam between what needs a download (`data update`, AIA issuers) and the
/// network, so that orchestration tests can hand in their own.
public protocol HTTPFetching: Sendable {
    /// GETs `request.url`, through the run's proxy settings.
    ///
    /// > Warning: Touches the network (an implementation may not).
    /// - Returns: The 2xx response with its whole body.
    /// - Throws: ``HTTPFetchError`` for every other outcome.
    func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse
}
