import Foundation
internal import OpenSSLSupport

/// How a ``HostilePeer`` mistreats a TLS client (docs/reliability.md#probing-deadlines-retries-unknown).
package enum HostileBehavior: String, Sendable, CaseIterable {
    /// Accepts and never sends anything; keeps the connection open until the client leaves or the peer stops.
    case silent
    /// Accepts and closes at once.
    case closeImmediately
    /// Reads what the client sent and answers `HTTP/1.1 400 Bad Request`, then closes: a plain HTTP port.
    case plainHTTP
    /// Sends random bytes that are not a TLS record, then closes.
    case garbage
    /// Sends a TLS handshake record header announcing 16 KB, then one byte a second.
    case slowDrip
}

/// A loopback peer that speaks anything but TLS, to check that probes end with a clear status
/// within their deadline.
///
/// > Warning: Starts threads and listens on loopback until ``stop()`` or deinit.
package final class HostilePeer: @unchecked Sendable {  // immutable after init
    /// The kernel-assigned port.
    package let port: Int
    /// What it does to each connection.
    package let behavior: HostileBehavior
    private let listener: LoopbackListener

    /// Binds `address` port 0 and starts accepting.
    /// - Throws: ``TestSupportError`` `.socket` / `.notLoopback`.
    package init(_ behavior: HostileBehavior, address: String = "127.0.0.1") throws {
        self.behavior = behavior
        listener = try LoopbackListener(address: address) { socket, stop in
            HostilePeer.treat(socket, behavior, stop)
        }
        port = listener.port
    }

    deinit { stop() }

    /// `127.0.0.1:PORT` or `[::1]:PORT`.
    package var target: String { listener.target }

    /// TCP connections accepted so far.
    package var acceptedConnections: Int { listener.acceptedConnections }

    /// Stops accepting and releases every open connection (idempotent; also done in deinit).
    package func stop() { listener.stop() }

    /// The 400 answer of ``HostileBehavior/plainHTTP``.
    static let badRequest = Array(
        ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nConnection: close\r\n\r\nBad "
            + "Request\n")
            .utf8)

    /// Linux `POLLRDHUP` (not exported to Swift): the peer closed its side.
    private static let pollReadHangup: Int16 = 0x2000

    private static func treat(_ socket: OwnedSocket, _ behavior: HostileBehavior, _ stop: StopSignal) {
        defer { socket.close() }
        switch behavior {
        case .silent:
            // Hold the connection without reading or writing until the client hangs up or we stop.
            while !stop.isFired {
                let events = stop.wait(for: socket.fd, events: pollReadHangup, seconds: 60)
                if events & (pollReadHangup | Int16(POLLHUP) | Int16(POLLERR)) != 0 { return }
            }
        case .closeImmediately:
            return
        case .plainHTTP:
            // Read the request first: closing with unread bytes would send RST and lose the answer.
            if stop.wait(for: socket.fd, events: Int16(POLLIN), seconds: 2) != 0 { _ = socket.read(upTo: 16_384) }
            socket.writeAll(badRequest)
            lingerUntilClosed(socket, stop)
        case .garbage:
            // Starts with a byte no TLS record type uses (0x14–0x18), so nothing can mistake it for TLS.
            socket.writeAll([0x00, 0xFF] + (0..<510).map { _ in UInt8.random(in: 0...255) })
            lingerUntilClosed(socket, stop)
        case .slowDrip:
            guard socket.writeAll([0x16, 0x03, 0x03, 0x40, 0x00]) else { return }  // handshake record, 16 KB
            while !stop.sleep(1) {
                guard socket.writeAll([0x02]) else { return }
            }
        }
    }

    /// Half-closes, then drains the client's bytes for a moment so the kernel sends FIN, not RST.
    private static func lingerUntilClosed(_ socket: OwnedSocket, _ stop: StopSignal) {
        _ = shutdown(socket.fd, Int32(SHUT_WR))
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            guard stop.wait(for: socket.fd, events: Int16(POLLIN), seconds: 0.5) != 0 else { continue }
            guard let bytes = socket.read(upTo: 4096), !bytes.isEmpty else { return }
        }
    }
}
