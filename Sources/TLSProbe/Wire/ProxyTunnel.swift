import Foundation
import TLSModel

/// Opens an HTTP `CONNECT` tunnel (RFC 9110 §9.3.6) on a TCP connection to a proxy, before the TLS handshake
/// that runs inside it.
///
/// The request is `CONNECT authority HTTP/1.1` with `Host:` and, when the proxy URL has credentials,
/// `Proxy-Authorization: Basic …`. The answer's head is read under the connection's deadline, like every other
/// read (non-blocking socket, `poll`), and is bounded by ``maximumHeadBytes``; bytes after it belong to the tunnel
/// and are kept for the handshake. A 2xx opens the tunnel; anything else is a ``Failure`` naming the proxy, the
/// authority and the proxy's status line, never the credentials.
struct ProxyTunnel: Sendable {
    let proxy: HTTPProxy
    /// What the proxy is asked to connect to: `host:port`, `address:port` (`--resolve`), `[v6]:port`.
    let authority: String

    /// The longest answer head read (status line and header fields): a proxy that sends more is not answering
    /// CONNECT.
    static let maximumHeadBytes = 16_384

    /// Why the tunnel did not open.
    enum Failure: Error, Equatable {
        /// The proxy answered with a non-2xx status, or with something that is not HTTP. `retryable`: a 502, 503
        /// or 504 (the proxy could not reach the server in time, or is overloaded), which may pass on a retry.
        case refused(String, retryable: Bool)
        /// The proxy closed or reset the connection before it answered: tried again, like a dropped connection.
        case closed(String)
        /// No answer before the deadline.
        case timeout(String)
    }

    /// The request bytes.
    var request: [UInt8] {
        var head = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization = proxy.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        head += "User-Agent: atscheck/\(ToolInfo.currentVersion)\r\n\r\n"
        return Array(head.utf8)
    }

    /// Sends the CONNECT request and reads the proxy's answer, blocking the thread (fetches). On return without a
    /// throw, the socket is a tunnel to ``authority``.
    /// - Throws: ``Failure``.
    func open(on socket: TCPSocket, deadline: Deadline) throws(Failure) {
        do { try socket.sendAll(request, deadline: deadline) } catch { throw sendFailure(error) }
        var buffer: [UInt8] = []
        while try !answered(&buffer, on: socket) {
            let read: TCPSocket.ReadResult
            do { read = try socket.receive(deadline: deadline, maximum: Self.maximumHeadBytes - buffer.count) } catch {
                throw .closed("\(name): \(error)")
            }
            try append(read, to: &buffer)
        }
    }

    /// Sends the CONNECT request and reads the proxy's answer, suspending the task (probes). On return without a
    /// throw, the socket is a tunnel to ``authority``.
    /// - Throws: ``Failure``.
    func open(on socket: TCPSocket, deadline: Deadline) async throws(Failure) {
        do { try await socket.sendAll(request, deadline: deadline) } catch { throw sendFailure(error) }
        var buffer: [UInt8] = []
        while try !answered(&buffer, on: socket) {
            let read: TCPSocket.ReadResult
            do {
                read = try await socket.receive(deadline: deadline, maximum: Self.maximumHeadBytes - buffer.count)
            } catch {
                throw .closed("\(name): \(error)")
            }
            try append(read, to: &buffer)
        }
    }

    private func sendFailure(_ error: Error) -> Failure {
        if (error as? ProbeFailure)?.kind == .timeout {
            return .timeout("sending CONNECT \(authority) to \(name) timed out")
        }
        return .closed("\(name) closed the connection before answering CONNECT \(authority)")
    }

    /// Reads the answer heads in `buffer`: true once the tunnel is open (what follows the head is left in the socket's
    /// ``TCPSocket/pending``), false while more bytes are needed.
    private func answered(_ buffer: inout [UInt8], on socket: TCPSocket) throws(Failure) -> Bool {
        while let end = Self.headEnd(buffer) {
            let head = Array(buffer[..<end])
            buffer.removeFirst(end)
            guard let status = Self.statusCode(head) else { throw .refused(notHTTP(head), retryable: false) }
            // An interim answer (100 Continue) is followed by the final one.
            if (100...199).contains(status) { continue }
            if (200...299).contains(status) {
                socket.pending = buffer
                return true
            }
            throw .refused(
                refusal(status: status, line: Self.statusText(head)), retryable: [502, 503, 504].contains(status))
        }
        if !buffer.isEmpty, !Self.mayBeHTTP(buffer) { throw .refused(notHTTP(buffer), retryable: false) }
        guard buffer.count < Self.maximumHeadBytes else {
            throw .refused(
                "\(name) sent an answer head longer than \(Self.maximumHeadBytes) bytes to CONNECT \(authority)",
                retryable: false)
        }
        return false
    }

    /// Adds what one read brought to `buffer`, or says why the proxy's answer ended.
    private func append(_ read: TCPSocket.ReadResult, to buffer: inout [UInt8]) throws(Failure) {
        switch read {
        case .data(let bytes): buffer += bytes
        case .eof:
            throw .closed(
                buffer.isEmpty
                    ? "\(name) closed the connection without answering CONNECT \(authority)"
                    : "\(name) closed the connection in the middle of its answer to CONNECT \(authority)")
        case .reset(let why):
            throw .closed("\(name) reset the connection before answering CONNECT \(authority) (\(why))")
        case .timeout:
            throw .timeout("\(name) did not answer CONNECT \(authority) before the deadline")
        }
    }

    /// `proxy 127.0.0.1:3128`: how messages name the proxy (never with credentials).
    var name: String { "proxy \(proxy.hostPort)" }

    private func refusal(status: Int, line: String) -> String {
        var reason = "\(name) refused CONNECT \(authority): \(line)"
        if status == 407 {
            reason +=
                proxy.username == nil
                ? " (the proxy wants credentials: http://user:password@host:port)"
                : " (the proxy refused the credentials given)"
        }
        return reason
    }

    private func notHTTP(_ bytes: [UInt8]) -> String {
        let text = bytes.prefix(32).map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." }
        return "\(name) did not answer CONNECT \(authority) in HTTP (it sent \"\(String(text))\"): is it an HTTP proxy?"
    }

    /// The index just past the blank line that ends a head (CRLF CRLF, or bare LF LF), if the buffer holds one.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// Whether `bytes` can still be the start of an HTTP/1.x status line.
    static func mayBeHTTP(_ bytes: [UInt8]) -> Bool {
        let prefix = Array("HTTP/1.".utf8)
        let n = min(prefix.count, bytes.count)
        return Array(bytes.prefix(n)) == Array(prefix.prefix(n))
    }

    /// The status code of `HTTP/1.x NNN reason`, nil when the first line is not one.
    static func statusCode(_ head: [UInt8]) -> Int? {
        let line = statusLine(head)
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
            parts[1].allSatisfy({ ("0"..."9").contains($0) }), let code = Int(parts[1])
        else { return nil }
        return code
    }

    /// The first line, at most 120 characters, each unprintable one as `?`.
    static func statusLine(_ head: [UInt8]) -> String {
        let first = head.prefix { $0 != 0x0D && $0 != 0x0A }
        let printable = first.prefix(120).map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" }
        return String(printable)
    }

    /// The status line without the protocol name, for messages: `407 Proxy Authentication Required`.
    static func statusText(_ head: [UInt8]) -> String {
        let line = statusLine(head)
        guard let space = line.firstIndex(of: " ") else { return line }
        return String(line[line.index(after: space)...])
    }
}
