import Foundation
internal import OpenSSLSupport
internal import TLSModel

/// An HTTP proxy on a loopback port that serves `CONNECT` (RFC 9110 §9.3.6) the way corporate proxies do: it
/// resolves the requested name itself (from ``hosts``, never DNS), may ask for Basic credentials, or may refuse
/// every tunnel with a fixed status. It records every CONNECT it was sent, so a test can check that a scan sent
/// each of its connections through it and what it asked for.
///
/// Tunnels reach loopback only: a name not in ``hosts`` or an address outside 127.0.0.0/8 and ::1 is answered
/// `502 Bad Gateway`.
///
/// > Warning: Starts threads and listens on loopback until ``stop()`` or deinit.
package final class ConnectProxy: Sendable {
    /// How the proxy answers each CONNECT.
    package enum Behaviour: Sendable {
        /// Opens every tunnel it can.
        case tunnel
        /// Opens a tunnel only with `Proxy-Authorization: Basic base64(user:password)`; `407` otherwise.
        case requireCredentials(user: String, password: String)
        /// Answers every CONNECT with this status and reason phrase (`502`, `Bad Gateway`), then closes.
        case answer(status: Int, reason: String)
    }

    /// One CONNECT request as the proxy read it.
    package struct Request: Sendable, Equatable {
        /// The request target: `host:port`, `address:port` or `[v6]:port`.
        package var authority: String
        /// The `Host` field.
        package var host: String?
        /// The `Proxy-Authorization` field, as sent.
        package var authorization: String?
        /// The server name (SNI) of the ClientHello the client sent first through the tunnel, when it had one.
        package var sni: String?
    }

    package let port: Int
    /// The bound loopback address.
    package let host: String
    private let listener: LoopbackListener
    private let requests: Locked<[Request]>

    /// Listens on `address` port 0.
    /// - Parameters:
    ///   - behaviour: how each CONNECT is answered.
    ///   - hosts: the names the proxy resolves (name → loopback address), like a proxy's own DNS.
    ///   - address: the loopback address to listen on.
    /// - Throws: ``TestSupportError`` `.socket` / `.notLoopback`.
    package init(behaviour: Behaviour = .tunnel, hosts: [String: String] = [:], address: String = "127.0.0.1") throws {
        let requests = Locked<[Request]>([])
        let names = Dictionary(uniqueKeysWithValues: hosts.map { ($0.key.lowercased(), $0.value) })
        listener = try LoopbackListener(address: address) { client, stop in
            Self.serve(client, stop: stop, behaviour: behaviour, hosts: names, requests: requests)
        }
        self.requests = requests
        self.port = listener.port
        self.host = address
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, with `user:password@` when given (percent-encode them yourself).
    package func url(credentials: String? = nil) -> String {
        "http://\(credentials.map { "\($0)@" } ?? "")\(listener.target)"
    }

    /// `127.0.0.1:PORT`.
    package var target: String { listener.target }

    /// Every CONNECT request read so far, in arrival order.
    package var connectRequests: [Request] { requests.withLock { $0 } }

    /// TCP connections accepted so far (a connection opened ahead and closed unused sends no CONNECT).
    package var acceptedConnections: Int { listener.acceptedConnections }

    /// Stops accepting and ends every tunnel (idempotent; also done in deinit).
    package func stop() { listener.stop() }

    /// The longest request head read.
    static let maximumHead = 16_384

    private static func serve(
        _ client: OwnedSocket, stop: StopSignal, behaviour: Behaviour, hosts: [String: String],
        requests: Locked<[Request]>
    ) {
        defer { client.close() }
        guard let (head, rest) = readHead(client, stop: stop) else { return }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3, parts[0] == "CONNECT", parts[2].hasPrefix("HTTP/1.") else {
            answer(client, 405, "Method Not Allowed", stop: stop)
            return
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let authority = String(parts[1])
        // Recorded before any answer: once the client reads the answer the request is counted.
        let index = requests.withLock {
            $0.append(
                Request(authority: authority, host: fields["host"], authorization: fields["proxy-authorization"]))
            return $0.count - 1
        }
        switch behaviour {
        case .answer(let status, let reason):
            answer(client, status, reason, stop: stop)
            return
        case .requireCredentials(let user, let password):
            let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            guard fields["proxy-authorization"] == expected else {
                answer(
                    client, 407, "Proxy Authentication Required", extra: "Proxy-Authenticate: Basic realm=\"test\"\r\n",
                    stop: stop)
                return
            }
        case .tunnel:
            break
        }
        guard let upstream = destination(authority, hosts: hosts), let server = try? upstream.connect(timeout: 5)
        else {
            answer(client, 502, "Bad Gateway", stop: stop)
            return
        }
        defer { server.close() }
        guard client.writeAll(Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)) else { return }
        // The client's first bytes through the tunnel (its ClientHello), read here to record their SNI.
        var first = rest
        if first.isEmpty, stop.wait(for: client.fd, events: Int16(POLLIN), seconds: 5) != 0 {
            first = client.read(upTo: 16_384) ?? []
        }
        if let name = ClientHelloReader.serverName(first) { requests.withLock { $0[index].sni = name } }
        guard first.isEmpty || server.writeAll(first) else { return }
        RelayPump(client: client, server: server, latency: 0, truncateAfter: nil, stop: stop).run(onTruncate: {})
    }

    /// The loopback address a CONNECT authority names: a name from `hosts`, or a loopback literal.
    private static func destination(_ authority: String, hosts: [String: String]) -> LoopbackAddress? {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...])
        else { return nil }
        var host = String(authority[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if IPAddress(literal: host) == nil {
            guard let mapped = hosts[host.lowercased()] else { return nil }
            host = mapped
        }
        return try? LoopbackAddress(host, port: port)
    }

    /// Reads up to the blank line that ends the request head: the head, and any bytes after it. Nil when the client
    /// closed, went quiet for 5 s, or sent more than ``maximumHead`` bytes without ending the head.
    private static func readHead(_ client: OwnedSocket, stop: StopSignal) -> ([UInt8], [UInt8])? {
        var buffer: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        while buffer.count < maximumHead {
            if let range = buffer.firstRange(of: end) {
                return (Array(buffer[..<range.lowerBound]), Array(buffer[range.upperBound...]))
            }
            guard stop.wait(for: client.fd, events: Int16(POLLIN), seconds: 5) != 0,
                let chunk = client.read(upTo: 4096), !chunk.isEmpty
            else { return nil }
            buffer += chunk
        }
        return nil
    }

    /// Answers with `status` and no body, then ends the connection with a FIN.
    private static func answer(
        _ client: OwnedSocket, _ status: Int, _ reason: String, extra: String = "", stop: StopSignal
    ) {
        let head = "HTTP/1.1 \(status) \(reason)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n"
        guard client.writeAll(Array(head.utf8)) else { return }
        RelayPump.finish(client, stop: stop)
    }
}

/// Reads the server name from a TLS ClientHello (RFC 8446 §4.1.2, RFC 6066 §3), bounds-checked at every step.
enum ClientHelloReader {
    /// The `host_name` of the server_name extension of the ClientHello at the start of `bytes`, if whole there.
    static func serverName(_ bytes: [UInt8]) -> String? {
        var at = 0
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, at + count <= bytes.count else { return nil }
            defer { at += count }
            return bytes[at..<at + count]
        }
        func number(_ width: Int) -> Int? { take(width)?.reduce(0) { $0 << 8 | Int($1) } }
        // Record header (handshake), handshake header (client_hello), version, random.
        guard take(1)?.first == 0x16, take(4) != nil, take(1)?.first == 0x01, take(3) != nil, take(2 + 32) != nil,
            let session = number(1), take(session) != nil, let suites = number(2), take(suites) != nil,
            let compression = number(1), take(compression) != nil, let extensionsLength = number(2)
        else { return nil }
        let end = min(bytes.count, at + extensionsLength)
        while at + 4 <= end {
            guard let type = number(2), let length = number(2) else { return nil }
            guard type == 0 else {
                guard take(length) != nil else { return nil }
                continue
            }
            // server_name_list length, name_type (0: host_name), name length, name.
            guard number(2) != nil, take(1)?.first == 0, let nameLength = number(2), let name = take(nameLength) else {
                return nil
            }
            return String(decoding: name, as: UTF8.self)
        }
        return nil
    }
}
