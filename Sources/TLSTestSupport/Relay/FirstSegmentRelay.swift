import Foundation
internal import OpenSSLSupport
import Synchronization

/// A TCP relay on a loopback port in front of a real TLS server (a ``TestTLSServer``) that reads the first segment
/// of each connection once, as the "tldr.fail" family of servers and middleboxes does: when that one read holds the
/// whole ClientHello record it forwards the connection (the read bytes first), so a hello sent in one segment gets
/// the real server's answer; otherwise it closes the connection (FIN) or resets it (RST), and the client never hears
/// from the server. iOS 26's ClientHello (about 1,530 bytes with its X25519MLKEM768 key share) always spans two TCP
/// segments, so every iOS 26 connection fails here while an iOS 18 one connects (issue 36).
///
/// It records the size of each connection's first read: a test shows with it that a hello sent in two writes arrives
/// as two reads.
///
/// > Warning: Starts threads and listens on loopback until ``stop()`` or deinit.
package final class FirstSegmentRelay: Sendable {
    /// How the relay ends a connection whose first read does not hold the whole ClientHello record.
    package enum Refusal: Sendable, Hashable {
        /// FIN: a half-close, then the rest the client sends is read and thrown away until it closes.
        case close
        /// RST (`SO_LINGER` 0): what a server that closes with unread bytes in its buffer sends anyway.
        case reset
    }

    /// The kernel-assigned port to connect to.
    package let port: Int
    /// The bound address, `127.0.0.1` or `::1`.
    package let host: String
    /// How a connection with a partial hello is ended.
    package let refusal: Refusal
    private let core: FirstSegmentCore

    /// Binds `address` port 0 and relays to `upstreamHost:upstreamPort`.
    /// - Parameters:
    ///   - upstreamHost: the server's loopback address.
    ///   - upstreamPort: the server's port.
    ///   - refusal: how a connection whose first read is not a whole ClientHello record is ended.
    ///   - address: the loopback address to listen on.
    /// - Throws: ``TestSupportError`` `.socket` / `.notLoopback`.
    package init(upstreamHost: String, upstreamPort: Int, refusal: Refusal = .close, address: String = "127.0.0.1")
        throws
    {
        _ = LoopbackListener.ignoreSIGPIPE
        let upstream = try LoopbackAddress(upstreamHost, port: upstreamPort)
        let (listening, port) = try LoopbackAddress(address).listen()
        self.port = port
        self.host = address
        self.refusal = refusal
        self.core = FirstSegmentCore(upstream: upstream, refusal: refusal, listening: listening, stop: try StopSignal())
        let core = self.core
        let thread = Thread { core.acceptLoop() }
        thread.name = "first-segment-relay-\(port)"
        thread.start()
    }

    /// A relay in front of `server`, on its address.
    /// - Throws: ``TestSupportError`` `.socket` when the port cannot be bound.
    package convenience init(in front: TestTLSServer, refusal: Refusal = .close) throws {
        try self.init(upstreamHost: front.host, upstreamPort: front.port, refusal: refusal, address: front.host)
    }

    deinit { stop() }

    /// `127.0.0.1:PORT` or `[::1]:PORT`.
    package var target: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The size of each connection's one read, in the order the reads happened (0: the client closed first).
    package var firstReads: [Int] { core.state.withLock { $0.firstReads } }

    /// Connections ended (closed or reset) because their first read was not a whole ClientHello record.
    package var refusedConnections: Int { core.state.withLock { $0.refused } }

    /// Connections whose first read held a whole ClientHello record, forwarded to the server.
    package var forwardedConnections: Int { core.state.withLock { $0.forwarded } }

    /// Stops accepting and ends every relayed connection (idempotent; also done in deinit).
    package func stop() { core.stop.fire() }

    /// Whether `bytes` begin with a whole handshake record holding a whole handshake message (a ClientHello, as the
    /// relay reads it: one record, its message inside).
    package static func holdsWholeHello(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 9, bytes[0] == 0x16 else { return false }
        let recordLength = Int(bytes[3]) << 8 | Int(bytes[4])
        let messageLength = Int(bytes[6]) << 16 | Int(bytes[7]) << 8 | Int(bytes[8])
        return 5 + recordLength <= bytes.count && 4 + messageLength <= recordLength
    }
}

/// The relay's shared state and threads, owned by the ``FirstSegmentRelay``.
final class FirstSegmentCore: Sendable {
    struct State {
        var firstReads: [Int] = []
        var refused = 0
        var forwarded = 0
    }

    let upstream: LoopbackAddress
    let refusal: FirstSegmentRelay.Refusal
    let listening: OwnedFileDescriptor
    let stop: StopSignal
    let state = Mutex(State())

    init(
        upstream: LoopbackAddress, refusal: FirstSegmentRelay.Refusal, listening: OwnedFileDescriptor, stop: StopSignal
    ) {
        self.upstream = upstream
        self.refusal = refusal
        self.listening = listening
        self.stop = stop
    }

    func acceptLoop() {
        defer { listening.close() }
        listening.setNonBlocking()  // a client that resets between poll and accept must not block the loop
        while !stop.isFired {
            guard stop.wait(for: listening.fd, events: Int16(POLLIN), seconds: 3600) != 0 else { continue }
            let fd = accept(listening.fd, nil, nil)
            guard fd >= 0 else { continue }
            let client = OwnedFileDescriptor(takingOwnership: fd)
            let thread = Thread { [self] in handle(client) }
            thread.name = "first-segment-relay-connection"
            thread.start()
        }
    }

    /// One read, as the buggy servers do: whatever the kernel holds when the connection first becomes readable.
    private func handle(_ client: OwnedFileDescriptor) {
        defer { client.close() }
        guard stop.wait(for: client.fd, events: Int16(POLLIN), seconds: 10) != 0,
            let first = client.read(upTo: 16_384)
        else { return }
        state.withLock { $0.firstReads.append(first.count) }
        guard FirstSegmentRelay.holdsWholeHello(first) else {
            state.withLock { $0.refused += 1 }
            switch refusal {
            case .close: RelayPump.finish(client, stop: stop)
            case .reset:
                // Linger 0: close sends RST instead of FIN.
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                _ = setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
            return
        }
        state.withLock { $0.forwarded += 1 }
        guard let server = try? upstream.connect(timeout: 5) else { return }
        defer { server.close() }
        guard server.writeAll(first) else { return }
        RelayPump(client: client, server: server, latency: 0, truncateAfter: nil, stop: stop).run(onTruncate: {})
    }
}
