internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// A small HTTP/1.1 server on a loopback port chosen by the kernel, plain or over TLS, that answers each path as
/// a test says: a body (framed by Content-Length, chunked, or by the close), a status, a redirect, silence, or a
/// close. It counts the requests of each path (what "once per URL per run" is checked with) and accepts the
/// absolute form a proxy forwards (`GET http://host/path`).
///
/// > Warning: Starts threads and listens on loopback until ``stop()`` or deinit.
package final class TestHTTPServer: @unchecked Sendable {  // routes and counters are behind `Locked`
    /// How a path is answered.
    package enum Response: Sendable {
        /// 200 with the body and `Content-Length`.
        case body(Data, contentType: String = "application/octet-stream")
        /// 200 with the body in chunked transfer coding (in pieces of `chunk` bytes).
        case chunked(Data, chunk: Int = 1000)
        /// 200 with the body and no framing: it ends with the connection.
        case unframed(Data)
        /// A status with a short text body.
        case status(Int, String)
        /// A redirect to `location`.
        case redirect(String, status: Int = 302)
        /// Reads the request and never answers (until the client leaves or the server stops).
        case silence
        /// Closes the connection without a byte.
        case close
    }

    /// The kernel-assigned port.
    package let port: Int
    /// `127.0.0.1` or `::1`.
    package let host: String
    /// Whether it speaks TLS.
    package let secure: Bool
    private let listener: LoopbackListener
    private let routes: Locked<[String: Response]>
    private let counts: Locked<[String: Int]>

    /// Starts the server.
    /// - Parameters:
    ///   - routes: path (with query) → answer; any other path gets 404.
    ///   - tls: the chain to serve over TLS, leaf first (nil: plain HTTP).
    ///   - address: the loopback address to bind.
    /// - Throws: ``TestSupportError`` when the address cannot be bound or OpenSSL refuses the chain.
    package init(routes: [String: Response], tls: [TestCertificate]? = nil, address: String = "127.0.0.1") throws {
        _ = atsc_OPENSSL_init_no_atexit()
        let context = try tls.map { try ServerContext(TLSServerConfiguration.modern(chain: $0)) }
        let routes = Locked(routes)
        let counts = Locked([String: Int]())
        listener = try LoopbackListener(address: address) { socket, stop in
            Self.serve(socket, stop: stop, context: context, routes: routes, counts: counts)
        }
        self.routes = routes
        self.counts = counts
        self.secure = tls != nil
        self.port = listener.port
        self.host = listener.host
    }

    deinit { stop() }

    /// Stops accepting (idempotent).
    package func stop() { listener.stop() }

    /// `http(s)://127.0.0.1:PORT` + `path`.
    package func url(_ path: String) -> String { "\(secure ? "https" : "http")://\(listener.target)\(path)" }

    /// Replaces (or adds) the answer of `path`.
    package func set(_ path: String, _ response: Response) { routes.withLock { $0[path] = response } }

    /// Requests received for `path` so far.
    package func requests(for path: String) -> Int { counts.withLock { $0[path] ?? 0 } }

    /// TCP connections accepted so far.
    package var acceptedConnections: Int { listener.acceptedConnections }

    private static func serve(
        _ socket: OwnedSocket, stop: StopSignal, context: ServerContext?, routes: Locked<[String: Response]>,
        counts: Locked<[String: Int]>
    ) {
        defer { socket.close() }
        socket.setTimeouts(5)
        var connection: OwnedSSL?
        if let context {
            guard let ssl = OwnedSSL(context: context.context), SSL_set_fd(ssl.pointer, socket.fd) == 1,
                SSL_accept(ssl.pointer) == 1
            else {
                OpenSSLErrorQueue.clear()
                return
            }
            connection = ssl
        }
        defer {
            if let connection { SSL_shutdown(connection.pointer) }
            OpenSSLErrorQueue.clear()
        }
        func read() -> [UInt8]? {
            if let connection {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = buffer.withUnsafeMutableBytes { SSL_read(connection.pointer, $0.baseAddress, Int32($0.count)) }
                return n > 0 ? Array(buffer.prefix(Int(n))) : nil
            }
            guard let bytes = socket.read(upTo: 4096), !bytes.isEmpty else { return nil }
            return bytes
        }
        func write(_ bytes: [UInt8]) {
            if let connection {
                _ = bytes.withUnsafeBytes { SSL_write(connection.pointer, $0.baseAddress, Int32($0.count)) }
            } else {
                socket.writeAll(bytes)
            }
        }
        var request: [UInt8] = []
        while !request.contains(subsequence: [13, 10, 13, 10]), request.count < 16_384 {
            guard let bytes = read() else { return }
            request += bytes
        }
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET" else { return write(Self.head(400, "Bad Request", length: 0)) }
        var path = String(parts[1])
        if path.hasPrefix("http://") || path.hasPrefix("https://"), let url = URLComponents(string: path) {
            path = url.percentEncodedPath + (url.percentEncodedQuery.map { "?" + $0 } ?? "")  // a proxy's absolute form
        }
        counts.withLock { $0[path, default: 0] += 1 }
        switch routes.withLock({ $0[path] }) {
        case .body(let body, let type)?:
            write(Self.head(200, "OK", length: body.count, type: type) + [UInt8](body))
        case .chunked(let body, let size)?:
            var bytes = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
            var rest = [UInt8](body)[...]
            while !rest.isEmpty {
                let piece = rest.prefix(max(1, size))
                rest = rest.dropFirst(piece.count)
                bytes += Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10]
            }
            write(bytes + Array("0\r\n\r\n".utf8))
        case .unframed(let body)?:
            write(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + [UInt8](body))
        case .status(let code, let text)?:
            let body = Array(text.utf8)
            write(Self.head(code, text, length: body.count, type: "text/plain") + body)
        case .redirect(let location, let code)?:
            write(
                Array(
                    "HTTP/1.1 \(code) Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .utf8))
        case .silence?:
            _ = stop.sleep(30)
        case .close?:
            return
        case nil:
            let body = Array("not found".utf8)
            write(Self.head(404, "Not Found", length: body.count, type: "text/plain") + body)
        }
    }

    private static func head(_ code: Int, _ text: String, length: Int, type: String? = nil) -> [UInt8] {
        var head = "HTTP/1.1 \(code) \(text)\r\nContent-Length: \(length)\r\nConnection: close\r\n"
        if let type { head += "Content-Type: \(type)\r\n" }
        return Array((head + "\r\n").utf8)
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
