import Foundation
import TLSModel

/// atscheck's one HTTP client: a bounded GET of an `http://` or `https://` URL, through the run's HTTP proxy.
///
/// - **Bounds**: one deadline for the whole exchange (the name's resolution, each connect, the proxy, TLS, head
///   and body, every redirect), a cap on the body, redirects followed only up to the request's count (0: a
///   redirect is an error naming its target).
/// - **Proxy**: ``proxy`` picks the proxy per host (the scan's `--proxy`, `HTTPS_PROXY` less `NO_PROXY`). An
///   `https://` URL goes through a `CONNECT` tunnel (``ProxyTunnel``, as a scan's handshakes do); an `http://` URL
///   is asked of the proxy in absolute form (`GET http://host/path`, RFC 9112 §3.2.2), as curl does.
/// - **HTTPS** verifies the server against this machine's CA store plus `--ca-file` (``FetchTLSContext``).
/// - **Failures** are one line each (``HTTPFetchError``): refused, timeout, HTTP status, too large, TLS.
///
/// > Warning: Connects to the network. ``fetch(_:)`` runs each fetch on a thread of its own (sockets with
/// > deadlines, `poll`), never on Swift's cooperative pool; ``fetchNow(_:)`` blocks its caller.
package struct HTTPFetcher: HTTPFetching {
    /// The proxy for a host and port (nil: connect directly).
    package var proxy: @Sendable (_ host: String, _ port: Int) -> HTTPProxy?
    /// `--ca-file`: anchors HTTPS servers may chain to besides this machine's store.
    package var caFiles: [String]

    /// - Parameters:
    ///   - caFiles: Extra anchors for HTTPS servers.
    ///   - proxy: The proxy per host and port (default: none).
    package init(
        caFiles: [String] = [], proxy: @escaping @Sendable (_ host: String, _ port: Int) -> HTTPProxy? = { _, _ in nil }
    ) {
        self.caFiles = caFiles
        self.proxy = proxy
    }

    /// The `User-Agent` sent.
    static var userAgent: String { "atscheck/\(ToolInfo.currentVersion)" }

    package func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<HTTPFetchResponse, HTTPFetchError>, Never>) in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(HTTPFetchError) in try fetchNow(request) })
            }
            thread.name = "atscheck-fetch"
            thread.start()
        }
        return try result.get()
    }

    /// ``fetch(_:)`` on the calling thread.
    ///
    /// > Warning: Blocks for up to the request's timeout; call it from a thread of your own.
    package func fetchNow(_ request: HTTPFetchRequest) throws(HTTPFetchError) -> HTTPFetchResponse {
        let deadline = Deadline.after(seconds: request.timeout)
        var url = try FetchURL(request.url)
        var redirects = 0
        while true {
            let (head, body, via) = try exchange(url, request: request, deadline: deadline)
            let status = head.status
            if (200...299).contains(status) {
                return HTTPFetchResponse(
                    url: url.description, status: status, contentType: head.field("content-type"), body: Data(body),
                    proxy: via?.redacted)
            }
            if [301, 302, 303, 307, 308].contains(status), let location = head.field("location") {
                let next = try url.resolving(location)
                guard redirects < request.maximumRedirects else {
                    throw HTTPFetchError(
                        .status, url: url.description,
                        reason: "\(url): HTTP \(head.statusText), redirected to \(next)"
                            + (request.maximumRedirects == 0
                                ? " (redirects are not followed)" : " (too many redirects)"),
                        status: status)
                }
                redirects += 1
                url = next
                continue
            }
            throw HTTPFetchError(
                .status, url: url.description, reason: "\(url): HTTP \(head.statusText)", status: status)
        }
    }

    /// One request and its answer on a new connection.
    private func exchange(_ url: FetchURL, request: HTTPFetchRequest, deadline: Deadline) throws(HTTPFetchError) -> (
        HTTPResponseReader.Head, [UInt8], HTTPProxy?
    ) {
        let via = proxy(url.host, url.port)
        do {
            let socket = try connect(url, via: via, deadline: deadline)
            defer { socket.descriptor.close() }
            var reader = HTTPResponseReader(url: url.description, maximumBytes: request.maximumBytes)
            // Through a proxy, a plain URL is asked of the proxy itself; an https URL goes through a tunnel.
            let absolute = via != nil && !url.secure
            let bytes = Self.requestBytes(url, request: request, absoluteForm: absolute, proxy: absolute ? via : nil)
            if url.secure {
                if let via { try openTunnel(on: socket, to: url, via: via, deadline: deadline) }
                let context: FetchTLSContext
                do { context = try FetchTLSContext(caFiles: caFiles) } catch {
                    throw HTTPFetchError(.tls, url: url.description, reason: "\(url): \(error)")
                }
                var tls = try FetchTLSConnection(socket: socket, url: url, context: context, deadline: deadline)
                try tls.handshake()
                try tls.write(bytes)
                let head = try reader.readHead(from: &tls)
                return (head, try reader.readBody(head, from: &tls), via)
            }
            do { try socket.sendAll(bytes, deadline: deadline) } catch {
                throw PlainFetchSource.failure(error, url: url.description)
            }
            var plain = PlainFetchSource(socket: socket, deadline: deadline, url: url.description)
            let head = try reader.readHead(from: &plain)
            return (head, try reader.readBody(head, from: &plain), via)
        } catch let error as HTTPFetchError {
            throw error
        } catch {
            throw HTTPFetchError(.protocolError, url: url.description, reason: "\(url): \(error)")
        }
    }

    /// A connection to the server, or to the proxy.
    private func connect(_ url: FetchURL, via: HTTPProxy?, deadline: Deadline) throws -> TCPSocket {
        let host = via?.host ?? url.host
        let port = via?.port ?? url.port
        let addresses: [SocketAddress]
        do { addresses = try Self.resolve(host, port: port, deadline: deadline) } catch let failure as ProbeFailure {
            if let via {
                throw HTTPFetchError(
                    .proxy, url: url.description, reason: "\(url): proxy \(via.hostPort): \(failure.reason)")
            }
            throw PlainFetchSource.failure(failure, url: url.description)
        }
        var last: ProbeFailure = ProbeFailure(.unreachable, "no address for \(host)")
        for address in addresses {
            do { return try TCPSocket.connect(to: address, deadline: deadline) } catch let failure as ProbeFailure {
                last = failure
                if failure.kind == .timeout { break }
            }
        }
        if let via, last.kind != .timeout {
            throw HTTPFetchError(
                .proxy, url: url.description, reason: "\(url): proxy \(via.hostPort) unreachable: \(last.reason)")
        }
        throw PlainFetchSource.failure(last, url: url.description)
    }

    private func openTunnel(on socket: TCPSocket, to url: FetchURL, via: HTTPProxy, deadline: Deadline) throws {
        do { try ProxyTunnel(proxy: via, authority: url.hostPort).open(on: socket, deadline: deadline) } catch {
            switch error {
            case .refused(let why, _), .closed(let why):
                throw HTTPFetchError(.proxy, url: url.description, reason: "\(url): \(why)")
            case .timeout(let why):
                throw HTTPFetchError(.timeout, url: url.description, reason: "\(url): \(why)")
            }
        }
    }

    /// The request: `GET target HTTP/1.1` (the whole URL in absolute form, to a proxy), `Host`, `Accept`,
    /// `Connection: close` (one request per connection: the body ends with the connection when unframed).
    static func requestBytes(_ url: FetchURL, request: HTTPFetchRequest, absoluteForm: Bool, proxy: HTTPProxy?)
        -> [UInt8]
    {
        var head = "GET \(absoluteForm ? url.description : url.target) HTTP/1.1\r\nHost: \(url.authority)\r\n"
        head += "Accept: \(request.accept ?? "*/*")\r\nUser-Agent: \(userAgent)\r\nConnection: close\r\n"
        if let authorization = proxy?.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    /// Resolves `host` on a thread of its own and waits at most until `deadline`: `getaddrinfo` has no timeout.
    static func resolve(_ host: String, port: Int, deadline: Deadline) throws -> [SocketAddress] {
        if IPAddress(host) != nil { return try SocketAddress.resolve(host, port: port) }
        let answer = ResolveAnswer()
        let thread = Thread { answer.set(Result { try SocketAddress.resolve(host, port: port) }) }
        thread.name = "atscheck-fetch-resolve"
        thread.start()
        guard let result = answer.wait(until: deadline) else {
            throw ProbeFailure(.timeout, "resolving \(host) timed out")
        }
        return try result.get()
    }
}

/// A resolution's answer, waited for with a deadline (a stuck resolver's late answer is dropped).
private final class ResolveAnswer: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
    private var result: Result<[SocketAddress], Error>?

    func set(_ value: Result<[SocketAddress], Error>) {
        condition.lock()
        result = value
        condition.signal()
        condition.unlock()
    }

    func wait(until deadline: Deadline) -> Result<[SocketAddress], Error>? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            let remaining = deadline.remainingMilliseconds
            if remaining <= 0 { return nil }
            _ = condition.wait(until: Date().addingTimeInterval(Double(remaining) / 1000))
        }
        return result
    }
}
